"""Never a traceback on a printed reference list: arbitrary text, arbitrary page layouts and
arbitrary server answers are read into references or refused with an InputError, and what is
read holds to its own promises (keys readable and unique, fields absent rather than wrong)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.bib.reflist.grobid import references_from_tei
from citecore.bib.reflist.pdf_entries import pdf_entries
from citecore.bib.reflist.pdf_lines import PdfLine, without_page_furniture
from citecore.bib.reflist.read import references_from_list_file, references_from_text
from citecore.bib.reflist.refparse import parse_reference_text
from citecore.bib.reflist.text import join_lines
from citecore.errors import InputError
from citecore.model import SourceLocation

_SETTINGS = settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)

# Text that looks enough like references to reach every branch of the reader.
_PIECES = st.sampled_from(
    [
        "Smith, J.", "J. Smith", "Smith J", "van der Walt, S.", "et al.", "and", "&", ",", ".",
        "(2019)", "2019.", "2019;3:1-2.", "“A quoted title,”", "‘Single’", "Title words here",
        "In Proceedings of X", "doi:10.1000/xyz", "https://doi.org/10.1/a-", "arXiv:1706.03762",
        "[1]", "12.", "(3)", "\n", "\n\n", "    ", "R Core Team", "OECD", "?", "!", ";", ":",
        "pp. 1–7", "vol. 3", "(Eds.)", "[Internet]", "Ünïcödé", "\x00", "\ufeff", "–", "-",
    ]
)  # fmt: skip
_TEXT = st.lists(st.one_of(_PIECES, st.text(max_size=12)), max_size=40).map(" ".join)


@_SETTINGS
@given(_TEXT)
def test_any_text_list_reads_without_a_traceback(text: str) -> None:
    references = references_from_list_file(text, "refs.txt")
    keys = [r.key for r in references]
    assert len(set(keys)) == len(keys)
    for number, reference in enumerate(references, 1):
        assert re.fullmatch(rf"ref{number}(-[a-z]*\d*)?", reference.key)
        assert reference.text and reference.text == " ".join(reference.text.split())
        assert reference.year is None or 1500 <= reference.year <= 2099


@_SETTINGS
@given(_TEXT)
def test_any_entry_parses_to_fields_it_holds(text: str) -> None:
    reference = parse_reference_text(text, "k", SourceLocation("x"))
    assert reference.title in text or not reference.title or "’" in text or "“" in text
    if reference.doi:
        assert reference.doi.lower() in text.lower()
    if reference.year is not None:
        assert str(reference.year) in text


@_SETTINGS
@given(st.lists(st.text(max_size=30), max_size=8))
def test_joined_lines_keep_every_word(lines: list[str]) -> None:
    joined = join_lines(lines)
    letters = "".join(c for line in lines for c in line if c.isalnum())
    assert "".join(c for c in joined if c.isalnum()) == letters


_LINE = st.builds(
    PdfLine,
    text=st.one_of(_PIECES, _TEXT, st.just("References")),
    page=st.integers(1, 3),
    column=st.integers(0, 1),
    x0=st.floats(0, 600),
    x1=st.floats(0, 600),
    top=st.floats(0, 800),
    bottom=st.floats(0, 800),
    size=st.sampled_from([8.0, 9.0, 10.0, 12.0]),
    bold=st.booleans(),
    italic=st.lists(st.text(max_size=10), max_size=2).map(tuple),
    starts_italic=st.booleans(),
    ends_italic=st.booleans(),
)


@_SETTINGS
@given(st.lists(_LINE, max_size=40))
def test_any_page_layout_reads_without_a_traceback(lines: list[PdfLine]) -> None:
    kept = without_page_furniture(lines, {page: (612.0, 792.0) for page in (1, 2, 3)})
    for entry in pdf_entries(kept):
        assert entry.text and entry.page in (1, 2, 3)


@_SETTINGS
@given(
    st.one_of(
        st.text(max_size=200),
        st.builds(
            "<TEI xmlns='http://www.tei-c.org/ns/1.0'><listBibl>{}</listBibl></TEI>".format,
            st.text(alphabet="<>/biblStructanalytic titlepersNamesurname date when='2019'\"x",
                    max_size=200),
        ),
    )
)  # fmt: skip
def test_any_grobid_answer_is_read_or_refused(answer: str) -> None:
    try:
        references = references_from_tei(answer, "paper.pdf")
    except InputError as error:
        assert "paper.pdf" in str(error)
    else:
        assert all(r.location.file == "paper.pdf" for r in references)


def test_numbered_keys_follow_the_list() -> None:
    text = "1. Doe J. First. 1999.\n2. A book with no author read. 2001.\n"
    assert [r.key for r in references_from_text(text, "x.txt")] == ["ref1-doe1999", "ref2-2001"]
