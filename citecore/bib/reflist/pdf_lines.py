"""A PDF's text as lines in reading order, with the layout that carries a reference list's
structure: where each line starts, its font size and weight, its page and column.

pymupdf gives spans with positions; a printed line is the spans that share a baseline within one
column (a reference's "[12]" label and its text are separate boxes on the same baseline). Two
columns are read left then right. Running heads and feet (text repeated at the same height on
several pages), page numbers and line numbers in the margin are dropped: they would otherwise
land in the middle of an entry that runs across a page or column break.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citecore.bib.reflist.pdf_columns import Span, page_columns, rows
from citecore.errors import InputError
from citecore.pdf_errors import pdf_read_errors


@dataclass(frozen=True, slots=True)
class PdfLine:
    """One printed line: its text, page (1-based), column (0 left, 1 right), left and right
    edges, top and bottom, font size, whether most of it is bold, and the runs of it set in
    italic (a reference's venue or book title) in the order they appear. `label` is a short
    box at the line's start set apart from the rest by a wide gap (a list's "BB08." or "[3]"),
    and `body_x0` where the rest starts (`x0` when there is no such box)."""

    text: str
    page: int
    column: int
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold: bool
    italic: tuple[str, ...] = ()
    starts_italic: bool = False
    ends_italic: bool = False
    label: str = ""
    body_x0: float = 0.0


# Zero-width spaces and joiners: typesetters put them inside DOIs and URLs as places a line may
# break (Springer Nature's "10.1038/34446\u200b7a0"); they print nothing.
_INVISIBLE = re.compile("[\u200b\u200c\u200d\u2060\ufeff]")


def _spans(page_dict: dict[str, Any]) -> list[Span]:
    spans = []
    for block in page_dict.get("blocks", []):
        for line in block.get("lines", []):
            if line.get("dir", (1, 0))[1] != 0:  # rotated text: margins, arXiv stamps
                continue
            for span in line.get("spans", []):
                text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", span.get("text", "")))
                if not text.strip():
                    continue
                x0, top, x1, bottom = span["bbox"]
                font = span.get("font", "").lower()
                bold = bool(span.get("flags", 0) & 16) or "bold" in font
                italic = bool(span.get("flags", 0) & 2) or "italic" in font or "oblique" in font
                size = span.get("size", 0.0)
                spans.append(Span(text, x0, x1, top, bottom, size, bold, italic))
    return spans


# TeX sets an accent as a spacing mark before its letter ("Lo¨ıc"); NFKC turns the mark into a
# space and a combining one. Put it back on the letter: "Loïc".
_DETACHED_ACCENT = re.compile(r"\s([\u0300-\u036f])\s?(ı|[^\W\d_])")


def _attach_accents(text: str) -> str:
    def attach(match: re.Match[str]) -> str:
        letter = "i" if match.group(2) == "ı" else match.group(2)
        return unicodedata.normalize("NFC", letter + match.group(1))

    return _DETACHED_ACCENT.sub(attach, text)


def _line(row: list[Span], page: int, column: int) -> PdfLine:
    """One line of a page from its spans: their text joined, its box, body size, weight, its
    italic runs and its label box."""
    row.sort(key=lambda s: s.x0)
    body = max(row, key=lambda s: len(s.text.strip()))
    bold_chars = sum(len(s.text.strip()) for s in row if s.bold)
    worded = [s for s in row if s.text.strip()]
    label, body_x0 = _label_box(worded)
    return PdfLine(
        text=_attach_accents(" ".join(_joined(row).split())),
        page=page,
        column=column,
        x0=min(s.x0 for s in row),
        x1=max(s.x1 for s in row),
        top=min(s.top for s in row),
        bottom=max(s.bottom for s in row),
        size=round(body.size, 1),
        bold=bold_chars * 2 > sum(len(s.text.strip()) for s in row),
        italic=_italic_runs(row),
        starts_italic=bool(worded) and worded[0].italic,
        ends_italic=bool(worded) and worded[-1].italic,
        label=label,
        body_x0=body_x0,
    )


def _apart(left: Span, right: Span) -> bool:
    """A gap wider than a fifth of the font size: a space the PDF did not write."""
    return right.x0 - left.x1 > right.size * 0.2


def _joined(row: list[Span]) -> str:
    """The text of a row of spans (left to right), with the spaces their gaps stand for."""
    parts: list[str] = []
    for index, span in enumerate(row):
        gap = index > 0 and _apart(row[index - 1], span)
        if gap and not parts[-1].endswith(" ") and not span.text.startswith(" "):
            parts.append(" ")
        parts.append(span.text)
    return "".join(parts)


def _italic_runs(row: list[Span]) -> tuple[str, ...]:
    """The runs of italic text of a row (spans next to each other joined into one run)."""
    runs: list[list[str]] = []
    for index, span in enumerate(row):
        if not span.italic or not span.text.strip():
            continue
        if index and row[index - 1].italic and runs:
            runs[-1].append(" " + span.text if _apart(row[index - 1], span) else span.text)
        else:
            runs.append([span.text])
    return tuple(" ".join("".join(run).split()) for run in runs)


# A label box holds a few characters: "[12]", "BB08.", "vzGG13a.", "CFG+20.".
_LABEL_CHARS = 12


def _label_box(worded: Sequence[Span]) -> tuple[str, float]:
    """The text before the first gap of nearly an em or more in a line's first few characters,
    or a number set raised and small before the text (a superscript label), and where the rest
    starts; ("", x0) when the line has neither."""
    if not worded:
        return "", 0.0
    first, body = worded[0], max(worded, key=lambda s: len(s.text))
    raised = first.size < body.size * 0.85 and first.bottom < body.bottom - body.size * 0.15
    if len(worded) > 1 and raised and re.fullmatch(r"\s*\d{1,4}[.,]?\s*", first.text):
        return first.text.strip(), worded[1].x0
    for index in range(1, len(worded)):
        before = "".join(s.text for s in worded[:index]).strip()
        if len(before) > _LABEL_CHARS:
            break
        if worded[index].x0 - worded[index - 1].x1 > worded[index].size * 0.8:
            return " ".join(before.split()), worded[index].x0
    return "", worded[0].x0


def _without_line_numbers(spans: list[Span]) -> list[Span]:
    """`spans` less the line numbers of a review copy: bare numbers left of where any text
    with letters starts, or right of where it ends (they share the lines' baselines, so they
    must go before spans are joined into lines)."""
    worded = [s for s in spans if re.search(r"[^\W\d_]", s.text)]
    if not worded:
        return spans
    left = min(s.x0 for s in worded)
    right = max(s.x1 for s in worded)
    return [
        s
        for s in spans
        if not (re.fullmatch(r"\s*\d{1,4}\s*", s.text) and (s.x1 < left - 3 or s.x0 > right + 3))
    ]


def _page_lines(page_dict: dict[str, Any], page: int) -> list[PdfLine]:
    spans = _without_line_numbers(_spans(page_dict))
    width = float(page_dict.get("width", 612.0))
    columns = page_columns(spans, 0.0, width, float(page_dict.get("height", 792.0)))
    lines = []
    for column, members in enumerate(columns):
        lines += [_line(row, page, column) for row in rows(members)]
    return lines


_DIGITS = re.compile(r"\d+")
_MARGIN_NUMBER = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6}|page \d+( of \d+)?)$", re.IGNORECASE)


def _running_text(lines: Sequence[PdfLine], heights: dict[int, float]) -> set[tuple[int, str]]:
    """(rounded top, text with digits masked) of lines repeated at the same height on at least
    three pages, or on half the pages of a shorter document, in the top or bottom sixth (a
    foot set high above a wide bottom margin: "Graph theory applied in ecology page 14 of 20"),
    words and not only figures (a list's "####)." may recur at one height) unless bare figures
    recur on half the pages."""
    # Pages, not lines: two columns may end on the same entry text at one height.
    seen: Counter[tuple[int, str]] = Counter()
    for key in {
        (line.page, round(line.top), _DIGITS.sub("#", line.text))
        for line in lines
        if line.top < heights[line.page] * 0.15 or line.bottom > heights[line.page] * 0.85
    }:
        seen[key[1:]] += 1
    pages = len(heights)
    return {
        key
        for key, count in seen.items()
        if (count >= min(3, max(2, pages // 2)) and re.search(r"[^\W\d_]{3}", key[1]))
        # Bare figures on most pages: a publisher's mark (Springer's "1 3"), never a list's
        # labels, which carry their brackets or stops and recur on the list's few pages only.
        or (count >= max(3, pages // 2) and re.fullmatch(r"[#\s]+", key[1]))
    }


def _margin_number(line: PdfLine, width: float, height: float) -> bool:
    """A page number, or a line number in the margin of a review copy."""
    if not _MARGIN_NUMBER.match(line.text):
        return False
    in_margin = line.x1 < width * 0.12 or line.x0 > width * 0.88
    return in_margin or line.top < height * 0.1 or line.bottom > height * 0.9


def without_page_furniture(
    lines: Iterable[PdfLine], sizes: dict[int, tuple[float, float]]
) -> list[PdfLine]:
    """`lines` less running heads and feet, page numbers and margin line numbers; `sizes` maps
    each page to its width and height."""
    kept = list(lines)
    running = _running_text(kept, {page: size[1] for page, size in sizes.items()})
    # A bare number above or below everything else on its page is its page number, wherever
    # the page's margins are (an A4 page's foot may lie above a tenth of its height).
    edges: dict[int, list[PdfLine]] = {}
    for line in kept:
        edges.setdefault(line.page, []).append(line)
    outermost = {
        id(line)
        for page_lines in edges.values()
        for line in (
            min(page_lines, key=lambda other: other.top),
            max(page_lines, key=lambda other: other.bottom),
        )
        if _MARGIN_NUMBER.match(line.text)
    }
    return [
        line
        for line in kept
        if (round(line.top), _DIGITS.sub("#", line.text)) not in running
        and not _margin_number(line, *sizes[line.page])
        and id(line) not in outermost
    ]


def pdf_lines(path: Path) -> list[PdfLine]:
    """Every printed line of the PDF at `path` in reading order, page furniture removed.
    Raises InputError (naming the file) when the file cannot be read as a PDF."""
    try:
        import pymupdf  # start-up: ~600 ms to import: only PDF reading needs it
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise InputError("reading PDFs needs pymupdf (pip install pymupdf)") from exc
    lines: list[PdfLine] = []
    sizes: dict[int, tuple[float, float]] = {}
    try:
        with pymupdf.open(path) as document:
            if document.needs_pass:
                raise InputError(f"{path}: the PDF is encrypted; no text could be read from it")
            for number, page in enumerate(document, 1):
                page_dict = page.get_text("dict", flags=pymupdf.TEXTFLAGS_TEXT)
                sizes[number] = (page.rect.width, page.rect.height)
                lines += _page_lines(page_dict, number)
    except pdf_read_errors() as exc:
        raise InputError(f"{path}: cannot read this PDF: {exc}") from exc
    return without_page_furniture(lines, sizes)
