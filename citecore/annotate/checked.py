"""What an annotated draft is made from: a document's CheckResult and the extraction it came
from, whose Cite elements annotation decorates."""

from __future__ import annotations

from dataclasses import dataclass

from citecore.extract.markdown import MarkdownExtraction
from citecore.model import CheckResult


@dataclass(frozen=True, slots=True)
class DocumentCheck:
    """A CheckResult and the extraction it came from (whose Cite elements annotation decorates)."""

    result: CheckResult
    extraction: MarkdownExtraction
