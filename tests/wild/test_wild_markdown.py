"""Every real R Markdown, Quarto and pandoc Markdown document of ../shared/corpus/wild/markdown,
read by citecheck and by its writer's toolchain (knitr, then pandoc): the same keys, the same
number of times, in the same order, each at a line of the source that holds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.extract.locate import SourceFile
from citecore.extract.markdown import extract_citations
from citecore.pandoc.knitr import as_knitr_reads
from citecore.pandoc.reader import read_markdown
from tests.knitr_oracle import have_knitr
from tests.wild.sweep import markdown_documents, markdown_keys


@pytest.mark.skipif(not have_knitr(), reason="needs R's knitr (make test installs it)")
@pytest.mark.parametrize("path", markdown_documents(), ids=lambda p: p.parent.name)
def test_citations_are_those_knitr_and_pandoc_read(path: Path) -> None:
    oracle, ours = markdown_keys(path)
    assert ours == oracle
    text = path.read_text(encoding="utf-8")
    source = SourceFile(str(path), as_knitr_reads(path, text))
    extraction = extract_citations(read_markdown(path), [source])
    assert not extraction.unmapped
    lines = text.splitlines()
    for citation in extraction.citations:
        line = citation.location.line
        assert line is not None and citation.key in lines[line - 1], (citation.key, line)
