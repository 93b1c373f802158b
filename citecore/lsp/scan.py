"""Citations of an open document with their exact ranges, read while the writer types.

Markdown is scanned for `@key` outside code and comments (pandoc's own reading needs a saved file
and a subprocess; diagnostics must follow each keystroke); a citation's range is its bracketed
group `[see @key, p. 3]` when it has one. LaTeX is read with the same command reader as
`citecheck latex`; a citation's range is the whole command, `\\citep[p.~3]{key}`.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path

from citecore.extract.latex import ProjectMacros, citation_commands
from citecore.extract.locate import citation_keys
from citecore.extract.markdown import is_crossref
from citecore.pandoc.front_matter import field_spans
from citecore.pandoc.knitr import as_knitr_reads

LATEX_SUFFIXES = (".tex", ".ltx")


@dataclass(frozen=True, slots=True)
class Span:
    """A range of the text: 0-based line and character, end exclusive (LSP's convention)."""

    start_line: int
    start_character: int
    end_line: int
    end_character: int

    def holds(self, line: int, character: int) -> bool:
        """True when the position is inside the range (its end included, where a cursor rests
        after the last character)."""
        after_start = (line, character) >= (self.start_line, self.start_character)
        return after_start and (line, character) <= (self.end_line, self.end_character)


@dataclass(frozen=True, slots=True)
class CitedKey:
    """One key at one place: the key's own span and the citation's (group or command)."""

    key: str
    key_span: Span
    citation_span: Span
    group_text: str  # the citation as written, `[@a,@b]` or `\\cite{a,b}`


class _Positions:
    """Offsets of a text as LSP positions (UTF-16 code units, as LSP counts by default)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def span(self, start: int, end: int) -> Span:
        first, last = self._position(start), self._position(end)
        return Span(first[0], first[1], last[0], last[1])

    def _position(self, offset: int) -> tuple[int, int]:
        line = bisect_right(self.starts, offset) - 1
        before = self.text[self.starts[line] : offset]
        return line, len(before.encode("utf-16-le")) // 2


def _bracket_group(text: str, start: int, end: int) -> tuple[int, int]:
    """The `[...]` around a key on its line, or the key itself when it stands bare."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    opening = text.rfind("[", line_start, start)
    # `^[…]` is an inline note around the citation, not its group.
    if opening < 0 or "]" in text[opening:start] or text[opening - 1 : opening] == "^":
        return start, end
    closing = text.find("]", end, line_end)
    return (opening, closing + 1) if closing >= 0 else (start, end)


def markdown_citations(text: str) -> list[CitedKey]:
    """Every `@key` of a Markdown text, in order, with its citation group (the keys of the front
    matter's `nocite:` list entries: they cite nothing)."""
    positions = _Positions(text)
    listed = field_spans(text, _LISTING_FIELDS)
    found = []
    for key, start, end in citation_keys(text):
        if is_crossref(key):  # `@fig-plot`: a Quarto cross-reference, not a citation
            continue
        if any(low <= start < high for low, high in listed):
            continue
        at = text.index("@", start)
        group = _bracket_group(text, at, end)
        found.append(
            CitedKey(
                key, positions.span(at, end), positions.span(*group), text[group[0] : group[1]]
            )
        )
    return found


_LISTING_FIELDS = frozenset({"nocite"})


def markdown_nocite(text: str) -> tuple[list[str], bool]:
    """The keys a Markdown text's front matter lists with `nocite:`, and whether it lists every
    entry (`@*`)."""
    keys: list[str] = []
    every = False
    for low, high in field_spans(text, _LISTING_FIELDS):
        every = every or "@*" in text[low:high]
        keys += [key for key, _, _ in citation_keys(text[low:high])]
    return keys, every


def latex_citations(
    text: str, macros: ProjectMacros | None = None, path: Path | None = None
) -> list[CitedKey]:
    """Every key of every citation of a LaTeX text, in order: its commands and the uses of the
    project's citing macros (`macros`, from its main file, with the switches as they stand
    where the project inputs `path`)."""
    positions = _Positions(text)
    found = []
    for command in citation_commands(text, macros, path):
        if command.name.rstrip("*") == "nocite":  # lists entries; cites nothing here
            continue
        written = text[command.start : command.end]
        citation = positions.span(command.start, command.end)
        for key, _, _ in command.keys:
            where = re.search(rf"(?<![\w:.\-/]){re.escape(key)}(?![\w:.\-/])", written)
            offset = command.start + (where.start() if where else 0)
            key_span = positions.span(offset, offset + len(key)) if where else citation
            found.append(CitedKey(key, key_span, citation, written))
    return found


def citations_of(path_name: str, text: str, macros: ProjectMacros | None = None) -> list[CitedKey]:
    """The citations of a document by its kind (LaTeX by suffix, else Markdown)."""
    if path_name.lower().endswith(LATEX_SUFFIXES):
        return latex_citations(text, macros, Path(path_name))
    return markdown_citations(as_knitr_reads(path_name, text))


def latex_nocite(
    text: str, macros: ProjectMacros | None = None, path: Path | None = None
) -> tuple[list[str], bool]:
    """The keys a LaTeX text lists with `\\nocite`, and whether it says `\\nocite{*}`."""
    keys = [
        key
        for command in citation_commands(text, macros, path)
        if command.name.rstrip("*") == "nocite"
        for key, _, _ in command.keys
    ]
    return [k for k in keys if k != "*"], "*" in keys
