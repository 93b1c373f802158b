"""The entries of a PDF's reference list, found from the page layout.

The list is what follows the last References/Bibliography heading, up to the next heading
(an appendix, supplementary material, biographies), told by a larger or bold short line. Entry
boundaries come, in this order, from consecutive numbers at line starts (`[12]`, `12.`, `(12)`),
from the indentation (hanging: an entry's first line sits at the column's left edge and its
continuations further right), from extra space between entries, and from a period ending a line
followed by a line that opens like a name list. Lines are then joined: a word hyphenated at a
line end is mended, a URL or DOI broken across lines is put back together.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from citecore.bib.reflist.pdf_lines import PdfLine
from citecore.bib.reflist.text import (
    LINK_LABELS,
    NUMBERED,
    ends_entry,
    has_marker,
    is_heading,
    join_lines,
    list_number,
    numbered_starts,
    opens_entry,
    opens_like_names,
)


@dataclass(frozen=True, slots=True)
class PdfEntry:
    """One entry of a PDF reference list: its text on one line, the page it starts on, and the
    runs of it set in italic (a journal or a book title; runs broken across lines joined)."""

    text: str
    page: int
    italic: tuple[str, ...] = ()


_END_HEADING = re.compile(
    r"^(?:[A-Z](?:\.\d+)*\.?\s+)?(?:appendix|appendices|supplementary|supplemental|supporting "
    r"information|author biograph|biograph|about the authors?|checklist|acknowledg)",
    re.IGNORECASE,
)


# What follows a list in the list's own type: statements and dates an article ends with
# (Frontiers' "Conflict of Interest Statement: …", "Received: …", "Citation: …").
_BACK_MATTER = re.compile(
    r"^(?:Conflicts? of [Ii]nterests?(?: [Ss]tatement)?|Competing [Ii]nterests|Received|"
    r"Accepted|Published online|Citation|Copyright|Funding|Authors?['’]? [Cc]ontributions|"
    r"Data [Aa]vailability(?: [Ss]tatement)?|Publisher['’]s [Nn]ote|Ethics [Ss]tatement|"
    r"Supplementary [Mm]aterials?)\s*[:©]|^©"
)
_SIZE_SAMPLE = 40


def _section(lines: Sequence[PdfLine]) -> list[PdfLine]:
    """The lines of the last reference section (empty when no heading names one)."""
    headings = [i for i, line in enumerate(lines) if is_heading(line.text)]
    if not headings:
        return []
    body = list(lines[headings[-1] + 1 :])
    if not body:
        return []
    # The list's type size, from its start: figures and tables may follow it for pages.
    size = statistics.median(line.size for line in body[:_SIZE_SAMPLE])
    index = 0
    while index < len(body):
        line = body[index]
        if index and _BACK_MATTER.match(line.text) and ends_entry(body[index - 1].text):
            body = body[:index]  # the article's back matter, set in the list's type
            break
        short = len(line.text.split()) <= 8
        larger = line.size > size + 0.9
        if short and (larger or (line.bold and _END_HEADING.match(line.text))):
            # The larger type just before it is part of what interrupts the list.
            start = index
            while start and body[start - 1].size > size + 0.9:
                start -= 1
            resumes = _resumed(body, start, size)
            if resumes is None:
                body = body[:index]
                break
            body = body[:start] + body[resumes:]  # an inset (a box, an advert) in the list
            index = start
        index += 1
    # Smaller type inside the list is a footnote run on from the text above, not an entry.
    return _without_strays(_without_feet([line for line in body if line.size >= size - 1.2]))


# How far past an inset a numbered list may resume (lines: a journal's box fills a column foot).
_INSET_LINES = 60


def _resumed(body: Sequence[PdfLine], end: int, size: float) -> int | None:
    """Where the list goes on after what looked like its end at `end` (a journal's box, the
    text of the paper set beside the list): the line in another column or page, soon after,
    that opens the entry numbered next ("20." after "19."), or, in a list without numbers,
    the first line in the list's type that opens like a list of names after an entry's end.
    None when nothing resumes it (the list did end there)."""
    before = body[:end]
    if not before:
        return None
    numbers = [list_number(found) for line in before if (found := NUMBERED.match(line.text))]
    for index in range(end + 1, min(len(body), end + _INSET_LINES)):
        line = body[index]
        moved = (line.page, line.column) != (before[-1].page, before[-1].column)
        if not moved or abs(line.size - size) > 0.5:
            continue
        if numbers:
            found = NUMBERED.match(line.text)
            if found and list_number(found) == numbers[-1] + 1:
                return index
        elif opens_like_names(line.text) and ends_entry(before[-1].text):
            return index
    return None


def _without_feet(body: list[PdfLine]) -> list[PdfLine]:
    """`body` less a page's foot that no repetition gave away (a one-page list): the last line
    in its page's column, set apart from the line above by more than two lines' height, with
    no date, identifier or link, that does not open like a list of names."""
    feet = set()
    for index, line in enumerate(body[1:], 1):
        above = body[index - 1]
        last = index + 1 == len(body) or (body[index + 1].page, body[index + 1].column) != (
            line.page,
            line.column,
        )
        apart = (above.page, above.column) == (line.page, line.column) and (
            line.top - above.bottom > 2 * (line.bottom - line.top)
        )
        plain = not (has_marker(line.text) or opens_like_names(line.text))
        if last and apart and plain:
            feet.add(index)
    return [line for index, line in enumerate(body) if index not in feet]


def _without_strays(body: list[PdfLine]) -> list[PdfLine]:
    """`body` less what a template left before or after the list (an R chunk knitr never ran,
    "\\endgroup"): a first or last line set left of every line between them in its page's
    column, with no label, date, identifier or link, that does not open like a list of
    names."""
    inner = body[1:-1]

    def stray(line: PdfLine) -> bool:
        others = [
            other.x0 for other in inner if (other.page, other.column) == (line.page, line.column)
        ]
        left = bool(others) and line.x0 < min(others) - 2
        text = line.text
        labelled = _LABEL.match(text) or NUMBERED.match(text)  # right-aligned: the widest
        return left and not (labelled or has_marker(text) or opens_like_names(text))

    while body and stray(body[0]):
        body = body[1:]
    while body and stray(body[-1]):
        body = body[:-1]
    return body


def _margins(lines: Sequence[PdfLine]) -> dict[tuple[int, int], float]:
    """The left edge of the list in each page's column: the column's edge over all left or all
    right pages (a column that holds only the indented tail of an entry still has its edge
    elsewhere), or the page's own where the page sets the column elsewhere (a first page, a
    narrower page)."""
    # Left and right pages may set their columns at different places: edges by parity.
    edges: dict[tuple[int, int], float] = {}
    starts: dict[tuple[int, int], set[int]] = {}
    for line in lines:
        side = (line.page % 2, line.column)
        edges[side] = min(edges.get(side, line.x0), line.x0)
        starts.setdefault((line.page, line.column), set()).add(round(line.x0))
    margins = {}
    for key, xs in starts.items():
        own, edge = min(xs), edges[(key[0] % 2, key[1])]
        # One x only: nothing on this page tells flush from indented; trust the other pages.
        single = max(xs) - own <= 2
        margins[key] = edge if single or own - edge <= 15 else float(own)
    return margins


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
_LABEL = re.compile(r"^\[[^\[\]]{1,16}\](?:\s|(?=[^\W\d_]))")


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
    labelled = [i for i, line in enumerate(lines) if _LABEL.match(line.text)]
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


def _entry_starts(lines: Sequence[PdfLine]) -> list[int]:
    texts = [line.text for line in lines]
    numbered = numbered_starts(texts)
    if len(numbered) >= 2 and len(numbered) * 6 >= len(lines) / 2:
        return numbered
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
    section = _section(lines)
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
    entries = []
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(section)
        lines = section[start:end]
        texts = [line.text for line in lines]
        if start in boxed:
            texts[0] = texts[0][len(lines[0].label) :]
        text = _LABEL.sub("", NUMBERED.sub("", join_lines(texts)))
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
