"""PDF reference lists laid out by a generator that knows every entry: one or two columns,
hanging indents or numbered labels, running heads, page numbers and margin line numbers,
entries that run across columns and pages, and an appendix after the list. The reader must
give back exactly the entries, whole and in order."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pymupdf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.bib.reflist.pdf_entries import pdf_entries
from citecore.bib.reflist.pdf_lines import pdf_lines
from citecore.bib.reflist.read import references_from_pdf
from citecore.bib.reflist.text import join_lines
from tests.pdf_text import wrap

_FAMILIES = ["Andrews", "Lüdecke", "Zhang", "van der Walt", "Kruschke", "Nguyen", "Smith"]
_WORDS = "bayesian model data analysis learning network climate protein survey method".split()


@st.composite
def entry(draw: st.DrawFn) -> str:
    """One author–year reference as a typesetter would receive it."""
    authors = draw(st.lists(st.sampled_from(_FAMILIES), min_size=1, max_size=6))
    names = ", ".join(f"{a}, {draw(st.sampled_from('ABCDEJKM'))}." for a in authors)
    title = " ".join(draw(st.lists(st.sampled_from(_WORDS), min_size=2, max_size=14))).capitalize()
    year = draw(st.integers(1960, 2025))
    volume, first = draw(st.integers(1, 99)), draw(st.integers(1, 900))
    return f"{names} ({year}). {title}. Journal of Tests, {volume}, {first}-{first + 9}."


@st.composite
def layout(draw: st.DrawFn) -> dict[str, Any]:
    """How the list is set."""
    return {
        "entries": draw(st.lists(entry(), min_size=2, max_size=40)),
        "two_columns": draw(st.booleans()),
        "numbered": draw(st.booleans()),
        "alpha": draw(st.booleans()),  # (unnumbered lists) "BB08." / "CFG+20." label boxes
        "superscript": draw(st.booleans()),  # (numbered lists) the number set raised and small
        "doi_lines": draw(st.booleans()),  # each entry's DOI on a line of its own
        "hanging": draw(st.booleans()),  # (unnumbered lists) else every line set flush
        "stray": draw(st.booleans()),  # a line set left of the list before and after it
        "furniture": draw(st.booleans()),
        "line_numbers": draw(st.booleans()),
        "appendix": draw(st.booleans()),
    }


_SIZE = 9.0
_LEADING = 11.0


def _wrap(text: str, width: float) -> list[str]:
    return wrap(text, width, _SIZE)


@dataclass
class _Cursor:
    """Where the next line goes."""

    document: Any
    spec: dict[str, Any]
    page: Any = None
    column: int = 0
    y: float = 0.0
    line: int = 0

    @property
    def columns(self) -> int:
        return 2 if self.spec["two_columns"] else 1

    @property
    def column_width(self) -> float:
        return (_WIDTH - 2 * _MARGIN - _GUTTER * (self.columns - 1)) / self.columns

    def new_page(self) -> None:
        self.page = self.document.new_page(width=_WIDTH, height=_HEIGHT)
        self.column, self.y = 0, _MARGIN + 20
        if self.spec["furniture"]:
            self.page.insert_text((_MARGIN, 35), "Journal of Tests 12 (2024) 1-20", fontsize=8)
            number = str(self.document.page_count)
            self.page.insert_text((_WIDTH / 2 - 5, _HEIGHT - 30), number, fontsize=8)
            # A foot set high above a wide bottom margin, at the text's own size.
            foot = f"Graph theory in tests page {number} of 9"
            self.page.insert_text((_MARGIN, _HEIGHT * 0.895), foot, fontsize=_SIZE)

    def put(self, text: str, x_offset: float, font: str = "helv", size: float = _SIZE) -> None:
        if self.y > _HEIGHT * 0.84:
            if self.column + 1 < self.columns:
                self.column, self.y = self.column + 1, _MARGIN + 20
            else:
                self.new_page()
        x = _MARGIN + self.column * (self.column_width + _GUTTER)
        self.page.insert_text((x + x_offset, self.y), text, fontname=font, fontsize=size)
        if self.spec["line_numbers"] and self.column == 0:
            self.line += 1
            self.page.insert_text((20, self.y), str(self.line), fontsize=7)
        self.y += _LEADING


_WIDTH, _HEIGHT, _MARGIN, _GUTTER = 595.0, 842.0, 60.0, 20.0


def _alpha_label(cursor: _Cursor, number: int, text: str, indent: float) -> None:
    """An alphabetic label in the box before an entry ("Smi07.", "AZK+19." with its "+" set
    raised and small, as LaTeX's alpha styles print it), on the first line's baseline."""
    family = text.split(",")[0].replace(" ", "")[:3]
    year = f"{number % 100:02d}."
    if number % 3 == 0:
        cursor.put(family, indent)
        cursor.y -= _LEADING
        x = indent + pymupdf.get_text_length(family, "helv", _SIZE)
        cursor.page.insert_text(
            (_MARGIN + cursor.column * (cursor.column_width + _GUTTER) + x, cursor.y - 3),
            "+",
            fontsize=6,
        )
        cursor.put(year, x + pymupdf.get_text_length("+", "helv", 6))
    else:
        cursor.put(family + year, indent)
    cursor.y -= _LEADING  # the entry's text shares the label's baseline


def _doi(number: int) -> str:
    return f"doi:10.5555/tests.{number}"


def printed(spec: dict[str, Any]) -> list[str]:
    """The entries as `typeset` prints them: with their DOI line where the layout has one."""
    return [
        " ".join(f"{text} {_doi(number)}".split() if spec["doi_lines"] else text.split())
        for number, text in enumerate(spec["entries"], 1)
    ]


def typeset(spec: dict[str, Any], path: Path) -> None:
    """Write the PDF that `spec` describes."""
    document = pymupdf.open()
    cursor = _Cursor(document, spec)
    cursor.new_page()
    for sentence in ["Body text of the paper, citing [1] and others.", "More prose here."]:
        cursor.put(sentence, 0)
    cursor.y += 8
    cursor.put("References", 0, font="hebo", size=12)
    width = cursor.column_width
    indent = 30 if spec["stray"] else 0  # room for what a template left outside the list
    if spec["stray"]:  # an R chunk knitr never ran, a LaTeX group's end
        cursor.put('{r refs} r_refs(file = "paper.bib")', 0)
    for number, text in enumerate(spec["entries"], 1):
        doi = [_doi(number)] if spec["doi_lines"] else []
        if spec["numbered"] and spec["superscript"]:
            cursor.put(str(number), indent, size=6)
            cursor.y -= _LEADING - 3  # the text's baseline a little below the raised number
            for line in [*_wrap(text, width - indent - 12), *doi]:
                cursor.put(line, indent + 12)
        elif spec["numbered"]:
            cursor.put(f"[{number}]", indent)
            cursor.y -= _LEADING  # the label shares the first line's baseline
            for line in [*_wrap(text, width - indent - 22), *doi]:
                cursor.put(line, indent + 22)
        elif spec["alpha"]:
            _alpha_label(cursor, number, text, indent)
            for line in [*_wrap(text, width - indent - 40), *doi]:
                cursor.put(line, indent + 40)
        else:
            hang = 12 if spec["hanging"] else 0
            first, *rest = _wrap(text, width - indent)
            cursor.put(first, indent)
            for line in [*(_wrap(" ".join(rest), width - indent - hang) if rest else []), *doi]:
                cursor.put(line, indent + hang)
    if spec["stray"]:
        cursor.put("\\endgroup", 0)
    if spec["appendix"]:
        cursor.y += 10
        cursor.put("Appendix A. Proofs", 0, font="hebo", size=12)
        cursor.put("Lemma 1 (2019). Every bounded sequence has a convergent subsequence.", 0)
    document.save(path)
    document.close()


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(layout())
def test_generated_layouts_give_back_every_entry(spec: dict[str, Any]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "paper.pdf"
        typeset(spec, pdf)
        found = [e.text for e in pdf_entries(pdf_lines(pdf))]
    assert found == printed(spec)


def test_lines_join_as_printed() -> None:
    assert join_lines(["Savage–Dickey meth-", "od for psycho-", "logists."]) == (
        "Savage–Dickey method for psychologists."
    )
    assert join_lines(["Object-", "Oriented Software"]) == "Object-Oriented Software"
    assert join_lines(["https://doi.org/10.1111/bm", "sp.12004"]) == (
        "https://doi.org/10.1111/bmsp.12004"
    )
    assert join_lines(["see https: //CRAN.R-", "project.org/package=x"])  # no crash on odd URLs
    assert join_lines(["https://example.org/a.", "Accessed 2020"]) == (
        "https://example.org/a. Accessed 2020"
    )


def _line_of_runs(page: Any, y: float, runs: list[tuple[str, str]]) -> None:
    x = _MARGIN
    for text, font in runs:
        page.insert_text((x, y), text, fontname=font, fontsize=_SIZE)
        x += pymupdf.get_text_length(text, font, _SIZE)


def test_italic_venues_and_book_titles_bound_the_title(tmp_path: Path) -> None:
    """APA sets the journal (and a book's title) in italic: where a title has sentences of its
    own, the italic venue after it is what ends it."""
    document = pymupdf.open()
    page = document.new_page(width=_WIDTH, height=_HEIGHT)
    page.insert_text((_MARGIN, 80), "References", fontname="hebo", fontsize=12)
    entries = [
        [
            ("Kostogryz, N. (2022). Stellar limb darkening. A new library for passbands. ", "helv"),
            ("Astronomy & Astrophysics, 666", "heit"),
            (", A60.", "helv"),
        ],
        [
            ("Federer, W. T. (1955). ", "helv"),
            ("Experimental design. Theory and application", "heit"),
            (". Macmillan.", "helv"),
        ],
        [
            ("Sankar, M. (2014). Vascular growth in ", "helv"),
            ("Arabidopsis", "heit"),
            (" hypocotyls. ", "helv"),
            ("eLife, 3", "heit"),
            (", e01567.", "helv"),
        ],
        [  # the title's own period after a part number does not hide the journal after it
            ("Zadeh, L.A. (1975) The concept of a linguistic variable - I. ", "helv"),
            ("Information Sciences", "heit"),
            (". [Online] 8 (3), 199–249.", "helv"),
        ],
    ]
    for number, runs in enumerate(entries):
        _line_of_runs(page, 100 + number * 14, runs)
    pdf = tmp_path / "italics.pdf"
    document.save(pdf)
    document.close()
    read = [(r.title, r.venue) for r in references_from_pdf(pdf)]
    assert read == [
        ("Stellar limb darkening. A new library for passbands", "Astronomy & Astrophysics"),
        ("Experimental design. Theory and application", ""),  # a book: no venue
        ("Vascular growth in Arabidopsis hypocotyls", "eLife"),
        ("The concept of a linguistic variable - I", "Information Sciences"),
    ]


def test_accents_set_before_their_letter_are_put_back() -> None:
    import unicodedata

    from citecore.bib.reflist.pdf_lines import _attach_accents

    printed = unicodedata.normalize("NFKC", "Lo\u00a8\u0131c Barrault and Jos\u00b4e Smith")
    assert _attach_accents(printed) == "Loïc Barrault and José Smith"
    assert _attach_accents("naïve and café") == "naïve and café"
