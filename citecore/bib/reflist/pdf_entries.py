"""The entries of a PDF's reference list, found from the page layout.

The list is what `pdf_section` finds after the last References/Bibliography heading. Entry
boundaries come, in this order, from consecutive numbers at line starts (`[12]`, `12.`, `(12)`,
and bare `12` counting up from 1), from the indentation (hanging: an entry's first line sits
at the column's left edge and its continuations further right), from extra space between
entries, and from a period ending a line followed by a line that opens like a name list. Lines
are then joined: a word hyphenated at a line end is mended, a URL or DOI broken across lines is
put back together.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from citecore.bib.reflist.pdf_lines import PdfLine
from citecore.bib.reflist.pdf_section import BARE_NUMBER, LABEL, reference_section
from citecore.bib.reflist.text import (
    LINK_LABELS,
    NUMBERED,
    ends_entry,
    has_marker,
    join_lines,
    numbered_starts,
    opens_entry,
)


@dataclass(frozen=True, slots=True)
class PdfEntry:
    """One entry of a PDF reference list: its text on one line, the page it starts on, and the
    runs of it set in italic (a journal or a book title; runs broken across lines joined)."""

    text: str
    page: int
    italic: tuple[str, ...] = ()


def _margins(lines: Sequence[PdfLine]) -> dict[tuple[int, int], float]:
    """The left edge of the list in each page's column: the column's edge over all left or all
    right pages (a column that holds only the indented tail of an entry still has its edge
    elsewhere; on the only page of its parity, the other pages'), or the page's own where the
    page sets the column elsewhere (a first page, a narrower page). A column is matched across
    pages by where it stands (a page read in bands numbers its columns on)."""
    starts: dict[tuple[int, int], set[int]] = {}
    middles: dict[tuple[int, int], list[float]] = {}
    for line in lines:
        key = (line.page, line.column)
        starts.setdefault(key, set()).add(round(line.x0))
        middles.setdefault(key, []).append((line.x0 + line.x1) / 2)
    where = {key: statistics.median(values) for key, values in middles.items()}
    margins = {}
    for key, xs in starts.items():
        own = min(xs)
        # One x only: nothing on this page tells flush from indented; trust the other pages.
        single = max(xs) - own <= 2
        alike = [other for other in starts if abs(where[other] - where[key]) < _SAME_COLUMN]
        # Left and right pages may set their columns at different places: edges by parity,
        # unless this is the only page of its parity and tells nothing itself.
        peers = [other for other in alike if other[0] % 2 == key[0] % 2]
        if single and all(other[0] == key[0] for other in peers):
            peers = alike
        edge = min(min(starts[other]) for other in peers)
        margins[key] = edge if single or own - edge <= 15 else float(own)
    return margins


_SAME_COLUMN = 40  # points between the middles of one column's lines on two pages


def _indent_starts(lines: Sequence[PdfLine]) -> list[int]:
    """Entry starts from indentation, when the list is set with hanging indents (or, rarely,
    first-line indents); empty when every line starts at the same place."""
    margins = _margins(lines)
    offsets = [line.x0 - margins[(line.page, line.column)] for line in lines]
    flush = [offset < 2.5 for offset in offsets]
    indented = [offset > 4.0 for offset in offsets]
    if not any(indented) or not any(flush):
        return []
    marks = flush if flush[0] else indented
    # A column whose lines all start at one x (it holds only the tail of an entry, or only
    # one-line entries) cannot tell flush from indented: there a line opens an entry only
    # after a line that ends one (a sentence, a link).
    xs: dict[tuple[int, int], set[int]] = {}
    for line in lines:
        xs.setdefault((line.page, line.column), set()).add(round(line.x0))
    return [
        i
        for i, marked in enumerate(marks)
        if marked
        and (
            i == 0
            or max(xs[(lines[i].page, lines[i].column)]) - min(xs[(lines[i].page, lines[i].column)])
            > 2
            or ends_entry(lines[i - 1].text)
        )
    ]


def _gap_starts(lines: Sequence[PdfLine]) -> list[int]:
    """Entry starts from extra vertical space between lines of the same page and column."""
    gaps = [
        (i, lines[i].top - lines[i - 1].bottom)
        for i in range(1, len(lines))
        if (lines[i].page, lines[i].column) == (lines[i - 1].page, lines[i - 1].column)
    ]
    if len(gaps) < 2:
        return []
    usual = statistics.median(gap for _, gap in gaps)
    wide = [i for i, gap in gaps if gap > usual + max(1.5, 0.25 * lines[i].size)]
    # Half the gaps wide: spacing says nothing; one wide gap alone may be the page's foot.
    if len(wide) < 2 or len(wide) * 2 > len(gaps):
        return []
    # Across a page or column break there is no gap to measure: a line that ends a sentence
    # followed by one that opens like a name list is the best evidence left.
    breaks = [
        i
        for i in range(1, len(lines))
        if (lines[i].page, lines[i].column) != (lines[i - 1].page, lines[i - 1].column)
        and opens_entry(lines[i - 1].text, lines[i].text)
    ]
    return sorted({0, *wide, *breaks})


def _sentence_starts(lines: Sequence[PdfLine]) -> list[int]:
    """Entry starts where a line ends a sentence and the next opens like a list of names: the
    last resort for lists set flush, unnumbered and without spacing."""
    return [0] + [i for i in range(1, len(lines)) if opens_entry(lines[i - 1].text, lines[i].text)]


# An alphabetic label in brackets ("[BDN+07]", "[dVSH+18]", "[B+16]" whose "+" was set raised),
# the text after it with or without a space ("[B16]Clément").


def _text_edges(lines: Sequence[PdfLine], leaving_out: set[int]) -> dict[tuple[int, int], int]:
    """The text's edge in each page's column: where most of its lines start, the lines at
    `leaving_out` (labelled lines, entry starts) aside."""
    edges: dict[tuple[int, int], Counter[int]] = {}
    for index, line in enumerate(lines):
        if index not in leaving_out:
            edges.setdefault((line.page, line.column), Counter())[round(line.x0)] += 1
    return {key: xs.most_common(1)[0][0] for key, xs in edges.items()}


def _label_starts(lines: Sequence[PdfLine]) -> list[int]:
    """Entry starts from bracketed labels at line starts, found by their alignment: a label
    line starts left of where the entry's other lines start (labels set flush, or right-aligned
    in a box before the hanging text). A bracket inside an entry ("[Online]") starts at the
    text's edge, not left of it."""
    labelled = [i for i, line in enumerate(lines) if LABEL.match(line.text)]
    if len(labelled) < 2 or len(labelled) * 12 < len(lines):
        return []
    edges = _text_edges(lines, set(labelled))
    starts = []
    for index in labelled:
        line = lines[index]
        edge = edges.get((line.page, line.column))
        if edge is None or line.x0 < edge - 2:
            starts.append(index)
    return starts if len(starts) >= 2 else []


def _box_x(lines: Sequence[PdfLine], indices: Sequence[int]) -> dict[tuple[int, int], int]:
    """Where the text after a label box starts, in each page's column: the most common x among
    the lines at `indices` that have a label box (a list's boxes all have the widest
    label's width)."""
    found: dict[tuple[int, int], Counter[int]] = {}
    for index in indices:
        line = lines[index]
        if line.label and line.text.startswith(line.label):
            found.setdefault((line.page, line.column), Counter())[round(line.body_x0)] += 1
    return {key: xs.most_common(1)[0][0] for key, xs in found.items()}


def _boxed(line: PdfLine, box_x: dict[tuple[int, int], int]) -> bool:
    key = (line.page, line.column)
    return bool(line.label) and key in box_x and abs(line.body_x0 - box_x[key]) <= 2


def _box_starts(lines: Sequence[PdfLine]) -> list[int]:
    """Entry starts from label boxes without brackets ("BB08.", "Woo.", "CFG+20."): lines set
    at the column's edge whose text after the box starts where the other boxed lines' does,
    the list's first line among them."""
    box_x = _box_x(lines, range(len(lines)))
    edges: dict[tuple[int, int], float] = {}
    for line in lines:
        key = (line.page, line.column)
        edges[key] = min(edges.get(key, line.x0), line.x0)
    starts = [
        index
        for index, line in enumerate(lines)
        if _boxed(line, box_x) and line.x0 <= edges[(line.page, line.column)] + 2
    ]
    # A labelled list opens with a label (boxes further down are a table's cells).
    found = len(starts) >= 2 and starts[0] == 0 and len(starts) * 12 >= len(lines)
    return starts if found else []


def _boxed_labels(lines: Sequence[PdfLine], starts: Sequence[int]) -> set[int]:
    """The entry starts whose line opens with a label box ("BB08.", "Woo.", "CFG+20.") set
    before the entry's text, which starts where the entry's other lines do: found when most
    entries are set so. (A label cannot be told from a surname by its letters alone.)"""
    edges = _text_edges(lines, set(starts))
    box_x = _box_x(lines, starts)
    boxed = set()
    for index in starts:
        line = lines[index]
        edge = edges.get((line.page, line.column))
        hangs = edge is None or abs(box_x.get((line.page, line.column), -9) - edge) <= 2
        if _boxed(line, box_x) and hangs:
            boxed.add(index)
    return boxed if len(boxed) * 3 >= len(starts) * 2 else set()


_MOST_LINES = 10


def _bare_starts(lines: Sequence[PdfLine]) -> list[int]:
    """Entry starts from bare numbers at line starts (RSC's and Cell Press's "12 A. Smith"),
    counting up by one from 1 with no number missing: a continuation line that opens with a
    figure ("2739.", "12, 345") is not the entry that number would be."""
    starts, expected = [], 1
    for index, line in enumerate(lines):
        found = BARE_NUMBER.match(line.text)
        if found and int(found.group(1)) == expected:
            starts.append(index)
            expected += 1
    return starts if len(starts) >= 3 and starts[0] == 0 else []


def _entry_starts(lines: Sequence[PdfLine]) -> list[int]:
    texts = [line.text for line in lines]
    numbered = numbered_starts(texts)
    if len(numbered) >= 2 and len(numbered) * 6 >= len(lines) / 2:
        return numbered
    bare = _bare_starts(lines)
    if bare and len(bare) * 6 >= len(lines) / 2:
        return bare
    for finder in (_label_starts, _indent_starts, _box_starts, _gap_starts):
        starts = finder(lines)
        # Entries of more than ten lines on average are no reference list's: the layout was
        # misread (a stray line set further left than the list, a figure's gap).
        if len(starts) >= 2 and len(lines) <= _MOST_LINES * len(starts):
            return starts
    return _sentence_starts(lines)


def pdf_entries(lines: Sequence[PdfLine]) -> list[PdfEntry]:
    """The entries of the last reference list in `lines` (a PDF's lines in reading order); an
    empty list when the PDF has no reference heading."""
    section = reference_section(lines)
    if not section:
        return []
    # A line of link labels ends its entry and is no part of it.
    kept: list[PdfLine] = []
    after_labels: set[int] = set()
    for line in section:
        if LINK_LABELS.match(line.text):
            after_labels.add(len(kept))
        else:
            kept.append(line)
    section = kept
    starts = sorted({*_entry_starts(section), *(i for i in after_labels if i < len(section))})
    boxed = _boxed_labels(section, starts)
    bare = set(_bare_starts(section)) & set(starts) if len(starts) >= 3 else set()
    entries = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(section)
        lines = section[start:end]
        texts = [line.text for line in lines]
        if start in boxed:
            texts[0] = texts[0][len(lines[0].label) :]
        elif start in bare:
            texts[0] = BARE_NUMBER.sub("", texts[0], count=1)
        text = LABEL.sub("", NUMBERED.sub("", join_lines(texts)))
        if has_marker(text):
            entries.append(PdfEntry(" ".join(text.split()), lines[0].page, _italic_runs(lines)))
    return entries


def _italic_runs(lines: Sequence[PdfLine]) -> tuple[str, ...]:
    """The italic runs of an entry's lines, a run that ends one line and starts the next
    joined as the lines are."""
    runs: list[list[str]] = []
    for index, line in enumerate(lines):
        for number, run in enumerate(line.italic):
            follows = index and number == 0 and line.starts_italic and lines[index - 1].ends_italic
            if follows and runs:
                runs[-1].append(run)
            else:
                runs.append([run])
    return tuple(join_lines(run) for run in runs)
