"""Extraction from pandoc's AST, field by field, on the scenario in cases/syntax/."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.extract.locate import SourceFile
from citecore.extract.markdown import extract_citations, is_crossref, nocite_keys
from citecore.model import Citation, CitationMode, Signal
from citecore.pandoc.reader import read_markdown
from tests.conftest import CASES

N, T, S = CitationMode.NORMAL, CitationMode.AUTHOR_IN_TEXT, CitationMode.SUPPRESS_AUTHOR

# key, mode, line, prefix, locator, signal, note, context, cited_with, claim
EXPECTED = [
    ("abs2020", T, 4, "", "", None, None, "metadata", (), "The abstract cites @abs2020 too."),
    ("alpha2020", N, 9, "", "", None, None, "body", (), "A plain claim holds [@alpha2020]."),
    (
        "alpha2020",
        N,
        9,
        "",
        "",
        None,
        None,
        "body",
        ("beta2019",),
        "Two sources agree [@alpha2020; @beta2019].",
    ),
    (
        "beta2019",
        N,
        9,
        "",
        "",
        None,
        None,
        "body",
        ("alpha2020",),
        "Two sources agree [@alpha2020; @beta2019].",
    ),
    (
        "gamma2018",
        T,
        10,
        "",
        "",
        None,
        None,
        "body",
        (),
        "@gamma2018 showed that Fig. 2 is right, i.e. the effect is 3.5 times larger.",
    ),
    (
        "beta2019",
        S,
        11,
        "",
        "",
        None,
        None,
        "body",
        (),
        "A suppressed author claim [-@beta2019] stands.",
    ),
    (
        "alpha2020",
        N,
        13,
        "see",
        "p. 42",
        Signal.SEE,
        None,
        "body",
        (),
        "Signals matter [see @alpha2020, p. 42] and [see also @beta2019, pp. 3–5; "
        "cf. @gamma2018, chap. 3].",
    ),
    ("beta2019", N, 13, "see also", "pp. 3–5", Signal.SEE_ALSO, None, "body", ("gamma2018",), None),
    ("gamma2018", N, 13, "cf.", "chap. 3", Signal.CF, None, "body", ("beta2019",), None),
    (
        "delta2017",
        N,
        14,
        "but see",
        "",
        Signal.BUT_SEE,
        None,
        "body",
        (),
        "Contrary views exist [but see @delta2017].",
    ),
    (
        "beta2019",
        T,
        14,
        "",
        "p. 7",
        None,
        1,
        "note",
        (),
        "A footnote claim rests on @beta2019, p. 7.",
    ),
    (
        "delta2017",
        N,
        16,
        "",
        "",
        None,
        None,
        "body",
        (),
        "Et al. survives: Smith et al. found it first [@delta2017].",
    ),
    (
        "alpha2020",
        N,
        34,
        "e.g.,",
        "",
        Signal.EG,
        2,
        "note",
        (),
        "The long note cites [e.g., @alpha2020].",
    ),
    ("alpha2020", N, 18, "", "", None, None, "list", (), "A list item claim [@alpha2020]."),
    ("gamma2018", N, 20, "", "", None, None, "quote", (), "A quoted claim [@gamma2018]."),
    ("delta2017", N, 26, "", "", None, None, "caption", (), "A table caption cites [@delta2017]."),
    ("beta2019", N, 24, "", "", None, None, "table", (), "[@beta2019]"),
]


@pytest.fixture(scope="module")
def citations() -> tuple[Citation, ...]:
    path = CASES / "syntax" / "paper.md"
    source = SourceFile(str(path), path.read_text())
    return extract_citations(read_markdown(path), [source]).citations


def test_every_citation_is_found_in_reading_order(citations: tuple[Citation, ...]) -> None:
    assert [(c.key, c.location.line) for c in citations] == [(e[0], e[2]) for e in EXPECTED]


@pytest.mark.parametrize("index", range(len(EXPECTED)))
def test_citation_fields(citations: tuple[Citation, ...], index: int) -> None:
    key, mode, line, prefix, locator, signal, note, context, cited_with, claim = EXPECTED[index]
    citation = citations[index]
    assert citation.key == key
    assert citation.mode is mode
    assert citation.location == citation.location.__class__(
        str(CASES / "syntax" / "paper.md"), line
    )
    assert citation.prefix == prefix
    assert citation.locator == locator
    assert citation.signal is signal
    assert citation.note_number == note
    assert citation.in_note is (note is not None)
    assert citation.context.value == context
    assert citation.cited_with == cited_with
    if claim is not None:
        assert citation.claim == claim


def test_code_comments_and_emails_are_not_citations(citations: tuple[Citation, ...]) -> None:
    keys = {c.key for c in citations}
    assert not keys & {"notacitation", "hidden2000", "alsohidden", "example.com"}


def test_nocite_keys_are_read() -> None:
    doc = read_markdown(CASES / "syntax" / "paper.md")
    assert nocite_keys(doc) == (["nocited2019"], False)


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("fig-accuracy", True),
        ("tbl-scores", True),
        ("sec-results", True),
        ("eq-loss", True),
        ("lst-code", True),
        ("thm-main", True),
        ("fig:old", True),
        ("tip-towel", True),  # Quarto 1.4's callout references
        ("wrn-tea", True),
        ("nte-vogon", True),
        ("figueroa2020", False),
        ("secord1999", False),
        ("tipton2019", False),
        ("wrn:x", False),
    ],
)
def test_quarto_cross_references_are_recognized(key: str, expected: bool) -> None:
    assert is_crossref(key) is expected


def test_quarto_cross_references_are_not_citations() -> None:
    path = CASES / "quarto-crossref" / "paper.qmd"
    extraction = extract_citations(read_markdown(path), [SourceFile(str(path), path.read_text())])
    assert [(c.key, c.location.line) for c in extraction.citations] == [
        ("he2016deep", 8),
        ("lecun2015deep", 9),
        ("missing2020", 9),
        ("he2016deep", 17),
    ]
    assert not extraction.unmapped


def test_without_sources_places_are_unknown(tmp_path: Path) -> None:
    path = CASES / "syntax" / "paper.md"
    extraction = extract_citations(read_markdown(path))
    assert all(c.location.line is None for c in extraction.citations)
    assert {c.location.file for c in extraction.citations} == {"<stdin>"}
    assert not extraction.unmapped
