"""Reference lists set the way production lines set them around the body of a paper, generated:
a body in one or two columns with the list below it on the same page in one, two or three
columns (Cell Press sets a three-column list under a two-column body); a body that fills the
first column, the list's heading at the top of the next; full-width tables whose header row has
a "References" column, before or after the list; running feet in the list's type; numbered
styles that print no article titles (RSC's "A. Smith, B. Jones, J. Tests, 2019, 12, 345.").
Running heads in the list's own type break entries across pages. The reader must give back
exactly the entries, whole and in order."""

from __future__ import annotations

import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf
import pytest

from citecore.bib.reflist.pdf_entries import pdf_entries
from citecore.bib.reflist.pdf_lines import pdf_lines
from tests.pdf_text import wrap

_FAMILIES = ["Andrews", "Lüdecke", "Zhang", "Kruschke", "Nguyen", "Smith", "Okafor", "Silva"]
_WORDS = "bayesian model data analysis learning network climate protein survey method".split()
_JOURNALS = ["J. Tests", "Chem. Sci.", "Nat. Methods", "Anal. Chem.", "Cell Rep."]
_BODY = (
    "The results above agree with earlier work on the same question and extend it to "
    "a wider range of conditions than were studied before in the field"
).split()

_WIDTH, _HEIGHT, _MARGIN, _GUTTER = 595.0, 842.0, 50.0, 16.0
_SIZE, _LEADING = 8.0, 10.0


def titled_entry(rng: random.Random) -> str:
    """An author–year journal article with its title."""
    authors = [rng.choice(_FAMILIES) for _ in range(rng.randint(1, 5))]
    names = ", ".join(f"{a}, {rng.choice('ABCDEJKM')}." for a in authors)
    title = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(3, 12)))
    year, volume = rng.randint(1960, 2025), rng.randint(1, 99)
    return f"{names} ({year}). {title.capitalize()}. {rng.choice(_JOURNALS)} {volume}."


def untitled_entry(rng: random.Random) -> str:
    """RSC's form: initials and family names, the journal's abbreviation, year, volume, page."""
    authors = [rng.choice(_FAMILIES) for _ in range(rng.randint(1, 4))]
    names = ", ".join(f"{rng.choice('ABCDEJKM')}. {a}" for a in authors)
    journal = rng.choice(_JOURNALS)
    year, volume, page = rng.randint(1960, 2025), rng.randint(1, 99), rng.randint(1, 9999)
    return f"{names}, {journal}, {year}, {volume}, {page}."


def page_layout(rng: random.Random) -> dict[str, Any]:
    """How the body and the list are set around each other, drawn with `rng`."""
    titled = rng.random() < 0.5
    entry = titled_entry if titled else untitled_entry
    return {
        "entries": [entry(rng) for _ in range(rng.randint(3, 45))],
        "numbered": True if not titled else rng.random() < 0.5,
        "body_columns": rng.choice([1, 2]),
        "list_columns": rng.choice([1, 2, 3]),
        "body_lines": rng.randint(4, 120),
        "table": rng.choice(["", "before", "after"]),
        "feet": rng.random() < 0.5,
        # A running head in the list's own type (OUP's) or smaller.
        "head_size": rng.choice([7.0, _SIZE]),
    }


def _wrap(text: str, width: float) -> list[str]:
    return wrap(text, width, _SIZE)


@dataclass
class _Pages:
    """Where the next line goes: a band of the page set in `columns` columns from `band_top`."""

    document: Any
    spec: dict[str, Any]
    columns: int = 1
    page: Any = None
    column: int = 0
    y: float = 0.0
    band_top: float = 0.0
    lowest: float = 0.0  # the lowest line set in the band so far

    @property
    def width(self) -> float:
        return (_WIDTH - 2 * _MARGIN - _GUTTER * (self.columns - 1)) / self.columns

    def new_page(self) -> None:
        self.page = self.document.new_page(width=_WIDTH, height=_HEIGHT)
        self.column, self.y = 0, _MARGIN + 20
        self.band_top = self.lowest = self.y
        head = "Journal of Tests 12 (2024) 1-20"
        self.page.insert_text((_MARGIN, 32), head, fontsize=self.spec.get("head_size", 7.0))

    def band(self, columns: int) -> None:
        """Start a band of `columns` columns below everything set on the page so far."""
        self.columns, self.column = columns, 0
        self.y = self.band_top = max(self.lowest, self.y) + 12
        if self.y > _HEIGHT * 0.8:
            self.new_page()

    def put(self, text: str, x: float = 0.0, font: str = "helv", size: float = _SIZE) -> None:
        if self.y > _HEIGHT * 0.86:
            if self.column + 1 < self.columns:
                self.column, self.y = self.column + 1, self.band_top
            else:
                self.new_page()
        left = _MARGIN + self.column * (self.width + _GUTTER)
        self.page.insert_text((left + x, self.y), text, fontname=font, fontsize=size)
        self.lowest = max(self.lowest, self.y)
        self.y += _LEADING


def _table(pages: _Pages) -> None:
    """A full-width table with a "References" column, its header row in bold."""
    pages.band(1)
    pages.put("Table 1. Studies of the question", font="hebo", size=9)
    columns = [0.0, 130.0, 300.0]  # the table's own columns, not the list's
    rows = [["Study", "References", "Design"]] + [
        [f"{family} cohort", f"{family} et al. (201{n})", "randomised"]
        for n, family in enumerate(_FAMILIES[:4])
    ]
    for number, row in enumerate(rows):
        for x, cell in zip(columns, row, strict=True):
            font = "hebo" if number == 0 else "helv"
            pages.page.insert_text((_MARGIN + x, pages.y), cell, fontname=font, fontsize=_SIZE)
        pages.lowest = max(pages.lowest, pages.y)
        pages.y += _LEADING


def typeset(spec: dict[str, Any], path: Path) -> None:
    """Write the PDF that `spec` describes."""
    document = pymupdf.open()
    pages = _Pages(document, spec)
    pages.new_page()
    if spec["table"] == "before":
        _table(pages)
    pages.band(spec["body_columns"])
    pages.put("Discussion", font="hebo", size=10)
    for n in range(spec["body_lines"]):
        pages.put(" ".join(_BODY[n % 5 : n % 5 + 12]) if pages.columns > 1 else " ".join(_BODY))
    pages.band(spec["list_columns"])
    pages.put("References", font="hebo", size=10)
    label_width = 14.0 if spec["numbered"] else 0.0
    for number, text in enumerate(spec["entries"], 1):
        lines = _wrap(text, pages.width - label_width - 8)
        if spec["numbered"]:
            pages.put(f"{number}", 0)
            pages.y -= _LEADING  # the label shares the first line's baseline
        for index, line in enumerate(lines):
            pages.put(line, label_width + (8 if index and not spec["numbered"] else 0))
    if spec["table"] == "after":
        _table(pages)
    if spec["feet"]:  # a running foot in the list's own type
        for page in document:
            foot = "doi:10.5555/tests.2024 | Tests"
            page.insert_text((_MARGIN, _HEIGHT * 0.9), foot, fontsize=_SIZE)
    document.save(path)
    document.close()


# The pages drawn by these seeds, the same on every machine (Hypothesis's derandomised draws
# were not: a full run drew other pages than the file alone). `python
# bench/reflist_layouts.py` and a driver over `page_layout(random.Random())` explore further.
# Pages these seeds draw that are still read wrong, each a class not yet handled (strict: a fix
# turns them into failures to be moved back among the others).
_KNOWN = {
    48: "a three-column list's short last column set beside a full one, lines interleaved",
    49: "a list's last entry run from the foot of one column to the next after a table",
    53: "a numbered list's last entry split across columns under a table and a running foot",
}


@pytest.mark.parametrize(
    "seed",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason=_KNOWN[n], strict=True))
        if n in _KNOWN
        else n
        for n in range(80)
    ],
)
def test_the_list_is_found_wherever_the_page_sets_it(seed: int) -> None:
    spec = page_layout(random.Random(seed))
    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "paper.pdf"
        typeset(spec, pdf)
        found = [e.text for e in pdf_entries(pdf_lines(pdf))]
    assert found == [" ".join(e.split()) for e in spec["entries"]]
