"""Identifiers as writers type them, and their shapes (whether one exists is for registries)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecore.identifiers import (
    arxiv_from_doi,
    arxiv_in_text,
    doi_in_url,
    is_valid_arxiv,
    is_valid_doi,
    is_valid_isbn,
    is_valid_pmcid,
    is_valid_pmid,
    normalize_arxiv,
    normalize_doi,
    normalize_isbn,
)
from citecore.normalize import fold, normalized_title


@pytest.mark.parametrize(
    ("given", "doi"),
    [
        ("10.1038/nature14539", "10.1038/nature14539"),
        ("  doi:10.1038/nature14539 ", "10.1038/nature14539"),
        ("DOI: 10.1038/nature14539", "10.1038/nature14539"),
        ("https://doi.org/10.1109/CVPR.2016.90", "10.1109/CVPR.2016.90"),  # case kept
        ("http://dx.doi.org/10.1002/asi.23329.", "10.1002/asi.23329"),  # sentence full stop
        ("doi.org/10.7554/eLife.01567", "10.7554/eLife.01567"),
        ("", ""),
    ],
)
def test_normalize_doi(given: str, doi: str) -> None:
    assert normalize_doi(given) == doi


@pytest.mark.parametrize(
    ("doi", "valid"),
    [
        ("10.1038/nature14539", True),
        ("10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI3>3.0.CO;2-0", True),
        ("10.48550/arXiv.1706.03762", True),
        ("10.1000.10/abc", True),  # a sub-divided registrant code
        ("10.1145-3571730", False),
        ("10.12/x", False),  # a registrant code has four digits at least
        ("11.1038/nature14539", False),
        ("10.1038/", False),
        ("10.1038/a b", False),
    ],
)
def test_doi_shape(doi: str, valid: bool) -> None:
    assert is_valid_doi(doi) is valid


def test_doi_in_url_only_from_a_resolver() -> None:
    assert doi_in_url("https://doi.org/10.1038/nature14539") == "10.1038/nature14539"
    assert doi_in_url("https://example.org/10.1038/nature14539") == ""


@pytest.mark.parametrize(
    ("arxiv_id", "valid"),
    [
        ("1706.03762", True),
        ("1706.03762v5", True),
        ("0704.0001", True),  # the first new-style id
        ("0703.0001", False),  # before April 2007 ids were old-style
        ("1413.0001", False),  # month 13
        ("1412.00001", False),  # five digits only from 2015
        ("1501.0001", False),  # four digits only up to 2014
        ("hep-th/9901001", True),
        ("math.GT/0309136", True),
        ("arXiv:1706.03762", False),  # the prefix is the normalizer's job
    ],
)
def test_arxiv_shape(arxiv_id: str, valid: bool) -> None:
    assert is_valid_arxiv(arxiv_id) is valid


@pytest.mark.parametrize(
    ("given", "arxiv_id"),
    [
        ("arXiv:1706.03762", "1706.03762"),
        ("https://arxiv.org/abs/1706.03762v5", "1706.03762v5"),
        ("https://arxiv.org/pdf/1706.03762.pdf", "1706.03762"),
        (" hep-th/9901001 ", "hep-th/9901001"),
    ],
)
def test_normalize_arxiv(given: str, arxiv_id: str) -> None:
    assert normalize_arxiv(given) == arxiv_id


def test_arxiv_ids_in_text_and_dois() -> None:
    assert arxiv_in_text("arXiv preprint arXiv:1706.03762, 2017") == "1706.03762"
    assert arxiv_in_text("see https://arxiv.org/abs/hep-th/9901001v2") == "hep-th/9901001v2"
    assert arxiv_in_text("a 1706.03762 without its name") == ""
    assert arxiv_from_doi("10.48550/arXiv.1706.03762") == "1706.03762"
    assert arxiv_from_doi("10.1038/nature14539") == ""


@pytest.mark.parametrize(
    ("check", "value", "valid"),
    [
        (is_valid_pmid, "27933103", True),
        (is_valid_pmid, "1234567890", False),
        (is_valid_pmid, "PMC123", False),
        (is_valid_pmcid, "PMC4842201", True),
        (is_valid_pmcid, "pmc4842201", True),
        (is_valid_pmcid, "4842201", False),
    ],
)
def test_pubmed_ids(check: object, value: str, valid: bool) -> None:
    assert callable(check) and check(value) is valid


@pytest.mark.parametrize(
    ("field", "isbn", "valid"),
    [
        ("978-0-262-03561-3", "9780262035613", True),
        ("0-262-03561-7", "0262035617", False),  # a wrong check digit
        ("0-8044-2957-X", "080442957X", True),
        ("978-0-262-03561-3, 978-0-262-33737-3 (e-book)", "9780262035613 9780262337373", True),
        ("9780262035614", "9780262035614", False),
    ],
)
def test_isbn(field: str, isbn: str, valid: bool) -> None:
    assert normalize_isbn(field) == isbn
    assert all(is_valid_isbn(one) for one in isbn.split()) is valid


def test_folding_ignores_case_accents_punctuation_and_space() -> None:
    assert fold("  Déjà-Vu:  THE   Ångström_Effect! ") == "deja vu the angstrom effect"
    assert normalized_title("Pre-trained Models") == normalized_title("Pretrained models")
    assert normalized_title("BERT: Pre‑training") == "bert pretraining"  # a non-breaking hyphen


@given(st.text(max_size=80))
def test_folding_is_idempotent_and_normalizers_never_grow(text: str) -> None:
    assert fold(fold(text)) == fold(text)
    assert normalized_title(normalized_title(text)) == normalized_title(text)
    assert len(normalize_doi(text)) <= len(text)
    assert len(normalize_arxiv(text)) <= len(text)


def test_letters_copied_from_pdfs_fold_like_plain_ones() -> None:
    assert fold("𝓐ttention 𝐈s All You Need") == fold("Attention is all you need")
