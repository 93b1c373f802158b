"""Annotated drafts: each flagged citation decorated in the output format's own way.

LaTeX/PDF gets margin notes, HTML a highlighted span with a tooltip, docx a Word comment; other
formats are left unchanged. Only findings at warning level or above are shown in the document.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import panflute as pf

from citecore.api import DocumentCheck
from citecore.extract.markdown import CiteGroup
from citecore.model import CitationResult, Finding, GroundingStatus, Severity

_LATEX_FORMATS = {"latex", "beamer", "pdf"}
_HTML_FORMATS = {
    "html",
    "html4",
    "html5",
    "revealjs",
    "slidy",
    "slideous",
    "dzslides",
    "s5",
    "epub",
    "epub2",
    "epub3",
    "chunkedhtml",
}
_DOCX_FORMATS = {"docx"}


@dataclass(frozen=True, slots=True)
class Flag:
    """What one Cite element is flagged with: its worst severity and one line per problem."""

    severity: Severity
    lines: tuple[str, ...]

    def text(self, limit: int = 220) -> str:
        """The problems joined into one short note."""
        joined = " · ".join(self.lines)
        return joined if len(joined) <= limit else joined[: limit - 1].rstrip() + "…"


def flags_for(check: DocumentCheck) -> list[tuple[CiteGroup, Flag]]:
    """Each Cite group with at least one warning or error about one of its keys, and, when
    grounding ran, each supported one with its page ("supported, p. 7") as information."""
    by_key: dict[str, list[Finding]] = defaultdict(list)
    for item in check.result.findings:
        if item.key and item.severity is not Severity.INFO:
            by_key[item.key].append(item)
    flagged = []
    position = 0  # groups list the citations in the same order as the result does
    for group in check.extraction.groups:
        indices = range(position, position + len(group.citations))
        position += len(group.citations)
        findings = [f for c in group.citations for f in by_key.get(c.key, [])]
        lines = tuple(dict.fromkeys(f"{f.kind.value}: {f.message}" for f in findings))
        if findings:
            worst = max((f.severity for f in findings), key=lambda s: s.rank)
            flagged.append((group, Flag(worst, lines)))
            continue
        grounded = [
            _grounding_line(check.result.grounding[i])
            for i in indices
            if i in check.result.grounding
        ]
        supported = [line for line in grounded if line]
        if supported:
            flagged.append((group, Flag(Severity.INFO, tuple(dict.fromkeys(supported)))))
    return flagged


def _grounding_line(result: CitationResult) -> str:
    """ "supported, p. 7 (local)" for a supported, proved verdict; "" otherwise."""
    if result.status is not GroundingStatus.SUPPORTED or result.ungrounded:
        return ""
    page = f", p. {result.page}" if result.page else ""
    return f"supported{page} ({result.judge})"


def output_family(output_format: str) -> str | None:
    """'latex', 'html' or 'docx' for a pandoc output format name, None for anything else."""
    base = output_format.split("+")[0].split("-")[0].lower()
    if base in _LATEX_FORMATS:
        return "latex"
    if base in _HTML_FORMATS:
        return "html"
    if base in _DOCX_FORMATS:
        return "docx"
    return None


def annotate(doc: pf.Doc, check: DocumentCheck, output_format: str) -> int:
    """Decorate every flagged citation of `doc` for `output_format`; return how many."""
    from citecore.annotate import docx, html, latex

    family = output_family(output_format)
    annotators: dict[str, Callable[[pf.Doc, Sequence[tuple[CiteGroup, Flag]]], None]] = {
        "latex": latex.annotate,
        "html": html.annotate,
        "docx": docx.annotate,
    }
    if family is None:
        return 0
    flagged = flags_for(check)
    annotators[family](doc, flagged)
    return len(flagged)


def append_header_include(doc: pf.Doc, block: pf.Block) -> None:
    """Add `block` to `header-includes`, keeping whatever the writer put there."""
    existing = doc.metadata.content.get("header-includes")
    items: list[pf.MetaValue] = []
    if isinstance(existing, pf.MetaList):
        items.extend(existing.content)
    elif existing is not None:
        items.append(existing)
    items.append(pf.MetaBlocks(block))
    doc.metadata["header-includes"] = pf.MetaList(*items)


def insert_around(element: pf.Element, before: pf.Element | None, after: pf.Element | None) -> None:
    """Put inlines directly before and after `element` in its container."""
    container = element.container
    index = container.index(element)
    if after is not None:
        container.insert(index + 1, after)
    if before is not None:
        container.insert(index, before)
