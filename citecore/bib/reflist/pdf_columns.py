"""A page's text spans by column, in reading order: two or three columns read left to right, and
a page whose columns change partway down (a two-column body above a list set in one or three
columns, a full-width table above two columns) read band by band from the top."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from citecore.bib.reflist.text import is_heading


@dataclass(slots=True)
class Span:
    """A run of text in one font on one line of a page, with its box."""

    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold: bool
    italic: bool = False


_WORD = re.compile(r"[^\W\d_]{2}")


# A list's label on its own: "20", "[3]", "12.", "(4)", and alphabetic boxes ("Lüd01.",
# "van+03.", "CFG+20.").
_LABEL_ONLY = re.compile(r"[\[(]?[^\s\[\]()]{0,8}?\d{1,4}[a-z]?[\])]?[.:,]?")


def _after_labels(spans: Sequence[Span], x: float) -> bool:
    """Whether what ends just left of `x` is mostly a list's labels ("20", "[3]", "Lüd01.")."""
    before = [s for s in spans if x - 12 < s.x1 <= x + 2]
    labels = sum(1 for s in before if _LABEL_ONLY.fullmatch(s.text.strip()))
    # One will do: a column may hold only the list's last entry ("7") or two ("17", "18").
    return bool(before) and labels * 2 > len(before)


def _column_split(spans: Sequence[Span], low: float, high: float) -> float | None:
    """The middle of the gutter between two columns in the stretch from `low` to `high`, when
    it has them: of the x in the stretch's middle third that (almost) no span crosses, the one
    the fewest cross, weighed against its distance from the stretch's middle, that is no
    strip between a list's labels and its entries, with words on both sides. In one column
    nearly every line crosses."""
    if len(spans) < 10:
        return None
    width, middle = high - low, (low + high) / 2
    first, last = int(low + width * 0.35), int(low + width * 0.65)
    crossings = [
        (count, abs(x - middle), float(x))
        for x, count in zip(range(first, last), _crossing_counts(spans, first, last), strict=True)
    ]
    # An overfull line (a long URL) may cross the real gutter once: a point off-centre costs
    # as much as a crossing every ten points.
    limit = max(1, 0.03 * len(spans))
    clear = sorted((c for c in crossings if c[0] <= limit), key=lambda c: c[0] + c[1] / 10)
    worded = [s for s in spans if _WORD.search(s.text)]
    return next((x for count, _, x in clear if _gutter(spans, worded, x, count)), None)


def _crossing_counts(spans: Sequence[Span], first: int, last: int) -> list[int]:
    """For each whole x from `first` to `last` (not included), how many spans cross it, give or
    take two points (x0 - 2 < x < x1 + 2): counted by where each span's stretch opens and
    closes, not span by span for every x."""
    changes = [0] * (last - first + 1)
    for span in spans:
        opens = max(first, math.floor(span.x0 - 2) + 1)
        closes = min(last, math.ceil(span.x1 + 2))  # the first x it no longer crosses
        if opens < closes:
            changes[opens - first] += 1
            changes[closes - first] -= 1
    return list(itertools.accumulate(changes[:-1]))


def _gutter(spans: Sequence[Span], worded: Sequence[Span], x: float, crossing: int) -> bool:
    """Whether a strip at `x` that `crossing` spans cross is a gutter: words on both sides
    (not only a list's labels standing in their own strip left of the entries: a strip that
    only labels stand left of is no gutter, however central); a clear strip with a few lines
    beyond it is a last column that is nearly empty."""
    if _after_labels(spans, x):
        return False
    left = sum(1 for s in worded if s.x1 <= x)
    right = sum(1 for s in worded if s.x0 >= x)
    return left >= 5 and right >= (1 if crossing == 0 else 5)


_MOST_SPLITS = 2  # columns are split in two, and each half once more: up to four columns


def _columns(
    spans: list[Span], low: float, high: float, height: float, depth: int = 0
) -> list[list[Span]]:
    """The spans by column, left to right: split at the gutter between two columns, then each
    side again (a three-column page's gutters are off its middle). Running heads and feet (a
    centred page number) are left out of the search: they cross any gutter."""
    body = [s for s in spans if s.top > height * 0.07 and s.bottom < height * 0.93]
    split = _column_split(body, low, high) if depth < _MOST_SPLITS else None
    if split is None:
        # One side of a split may still change its columns partway down.
        bands = _bands(spans, low, high) if depth == 1 else []
        if len(bands) < 2:
            return [spans]
        last = _MOST_SPLITS - 1
        return _joined_runs([_columns(band, low, high, height, last) for *_, band in bands])
    left = [s for s in spans if (s.x0 + s.x1) / 2 < split]
    right = [s for s in spans if (s.x0 + s.x1) / 2 >= split]
    return [
        *_columns(left, low, split, height, depth + 1),
        *_columns(right, split, high, height, depth + 1),
    ]


def page_columns(spans: list[Span], low: float, high: float, height: float) -> list[list[Span]]:
    """The page's spans by column in reading order. A page whose columns do not run its whole
    height — a body in two columns above a list in one or three, a full-width table above two
    columns — is read band by band from the top, each band by its own columns: a page that
    does not split, or whose split leaves one side only a short stretch of the other's height
    (a table's last column above a list)."""
    body = [s for s in spans if s.top > height * 0.07 and s.bottom < height * 0.93]
    split = _column_split(body, low, high)
    bands = _bands(spans, low, high)
    # Two bands of many rows set in a different number of columns (two above three) are read
    # apart; bands of a few rows (a running head, a heading) and rows of one column (two
    # columns whose baselines do not line up) say nothing of it.
    kinds = [gutters for rows_in, gutters, _ in bands if rows_in >= _BAND_ROWS and gutters]
    unlike = any(_apart(a, b) for a in kinds for b in kinds)
    banded = (split is None and kinds) or (split is not None and _lopsided(body, split)) or unlike
    if len(bands) < 2 or not banded:
        return _columns(spans, low, high, height)
    # A band of a few rows is read as one column: the gaps of justified lines may line up
    # for a row or three (a river), and no columns are set in so few.
    return _joined_runs(
        [
            _columns(band, low, high, height) if rows_in >= _BAND_ROWS else [band]
            for rows_in, _, band in bands
        ]
    )


def _joined_runs(banded: list[list[list[Span]]]) -> list[list[Span]]:
    """The columns of bands read in turn, bands of one column next to each other read as one
    column (what was one column before the page was cut stays one: a list's first line and a
    line a template left above it are told apart by where they stand in one column)."""
    columns: list[list[Span]] = []
    single_before = False
    for band in banded:
        single = len(band) == 1
        if single and single_before:
            columns[-1] = [*columns[-1], *band[0]]
        else:
            columns += band
        single_before = single
    return columns


_BAND_ROWS = 4


Gutters = tuple[tuple[float, float], ...]


def _apart(gutters: Gutters, others: Gutters) -> bool:
    """Whether two bands are set in a different number of columns (two above three). Where
    their gutters lie is no sign: a column's right-aligned labels ("[dVSH+ 18]") and the lines
    beside them move the strip a band leaves clear by tens of points."""
    return len(gutters) != len(others)


def _lopsided(spans: Sequence[Span], split: float) -> bool:
    """Whether the text on one side of a split runs less than a third of the other's height."""
    sides = [[s for s in spans if ((s.x0 + s.x1) / 2 < split) == left] for left in (True, False)]
    heights = [max(s.bottom for s in side) - min(s.top for s in side) for side in sides if side]
    return len(heights) == 2 and min(heights) < max(heights) / 3


# Gutters are looked for across the stretch, every two points; a gutter is at least this many
# steps clear in every row of its band.
_STEP = 2.0
_GUTTER_STEPS = 3


def _bands(spans: list[Span], low: float, high: float) -> list[tuple[int, Gutters, list[Span]]]:
    """The rows of a stretch grouped into bands that share their gutters, top to bottom: a row
    with no gutter in common with the band above (one column under two, three under two)
    opens a band, and so does a reference list's heading set alone in its row (the list is
    where a layout changes its columns). A row that only interrupts a band's gutter (an
    overfull URL line) stays in it when the row after it keeps the gutter. Each band as (its
    rows, the strips its gutters leave clear, left to right, and its spans)."""
    start = low
    positions = int((high - low) / _STEP)
    full = (1 << positions) - 1

    def free(row: list[Span]) -> int:
        covered = 0
        for span in row:
            first = max(0, int((span.x0 - 2 - start) / _STEP))
            last = min(positions - 1, int((span.x1 + 2 - start) / _STEP) + 1)
            if last >= first:
                covered |= ((1 << (last - first + 1)) - 1) << first
        return full & ~covered

    known: dict[int, list[int]] = {}

    def gutters(clear: int) -> list[int]:
        # Each clear run with covered positions on both sides, as a mask: a run reaching the
        # stretch's edge is an empty side (a column's short last lines), not a gutter.
        if clear not in known:
            bits = format(clear, f"0{positions}b")
            known[clear] = [
                ((1 << (run.end() - run.start())) - 1) << (positions - run.end())
                for run in _GUTTER_RUN.finditer(bits)
            ]
        return known[clear]

    def gutter(clear: int) -> bool:
        return bool(gutters(clear))

    def keeps(band: int, row: int) -> bool:
        # The row leaves every gutter of the band clear enough (it crosses none).
        found = gutters(band)
        return bool(found) and all(_clear_run(row & g) for g in found)

    ordered = rows(spans)
    frees = [free(row) for row in ordered]
    bands: list[list[list[Span]]] = []
    commons: list[int] = []
    clears: list[list[int]] = []
    common = 0
    for index, row in enumerate(ordered):
        joined = common & frees[index]
        following = frees[index + 1] if index + 1 < len(frees) else 0
        kept = keeps(common, frees[index])
        # Neither has a gutter (one column), or the row only interrupts the band's gutter.
        alike = not (gutter(common) or gutter(frees[index]))
        overfull = keeps(common, following)
        if bands and not _opens_band(row) and (kept or alike or overfull):
            bands[-1].append(row)
            clears[-1].append(frees[index])
            common = joined if kept or alike else common
            commons[-1] = common
        else:
            bands.append([row])
            clears.append([frees[index]])
            common = frees[index]
            commons.append(common)

    def spans_of(band: int, clear: list[int], spans: list[Span]) -> tuple[tuple[float, float], ...]:
        # A gutter has text on both sides in many of the band's rows, not in one (a running
        # head's page number far right of a one-column page's ragged lines); a list's last
        # column may hold only its last entry, three rows beside a full column.
        places = []
        enough = max(3, len(clear) // 4)
        for mask in sorted(gutters(band)):
            first = (mask & -mask).bit_length() - 1
            left = sum(1 for row in clear if ~row & full & ((1 << first) - 1))
            right = sum(1 for row in clear if (~row & full) >> mask.bit_length())
            strip = (low + first * _STEP, low + mask.bit_length() * _STEP)
            # Never the strip between a list's labels and its entries, however few the labels.
            if (
                min(left, right) >= 3
                and max(left, right) >= enough
                and not _after_labels(spans, strip[0])
            ):
                places.append(strip)
        return tuple(places)

    return [
        (len(band), spans_of(common, clear, spans), spans)
        for band, common, clear in zip(bands, commons, clears, strict=True)
        for spans in [[span for row in band for span in row]]
    ]


def _clear_run(clear: int) -> bool:
    """Whether clear positions hold a run at least `_GUTTER_STEPS` wide."""
    run = clear
    for _ in range(_GUTTER_STEPS - 1):
        run &= run >> 1
    return run != 0


_GUTTER_RUN = re.compile(rf"(?<=0)1{{{_GUTTER_STEPS},}}(?=0)")


def _opens_band(row: list[Span]) -> bool:
    """A reference list's heading set alone in its row: the list may change the columns."""
    text = " ".join(" ".join(span.text for span in row).split())
    return is_heading(text)


def rows(spans: list[Span]) -> list[list[Span]]:
    """Spans grouped by baseline: a span joins a row when its vertical middle lies within the
    row's first span. Larger type is placed first, so a raised "+" or footnote mark joins the
    line it is set in rather than opening a line of its own."""
    rows: list[list[Span]] = []
    for span in sorted(spans, key=lambda s: (-round(s.size), s.bottom, s.x0)):
        middle = (span.top + span.bottom) / 2
        for row in reversed(rows):
            head = row[0]
            if head.top <= middle <= head.bottom and span.size <= head.size * 1.5:
                row.append(span)
                break
        else:
            rows.append([span])
    return sorted(rows, key=lambda row: (row[0].bottom, min(s.x0 for s in row)))
