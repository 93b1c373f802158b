"""Identifiers in every form writers paste them (hypothesis): a DOI or arXiv id written with a
resolver prefix, as a URL (percent-encoded as browsers and reference managers copy it), with
surrounding space or a sentence's full stop, normalizes to the identifier itself; one named in
running text is found without the punctuation around it."""

from __future__ import annotations

from urllib.parse import quote

from hypothesis import given
from hypothesis import strategies as st

from citecore.identifiers import (
    arxiv_in_text,
    doi_in_url,
    is_valid_arxiv,
    is_valid_doi,
    normalize_arxiv,
    normalize_doi,
)

# Suffix characters of real DOIs: SICI DOIs carry parentheses, angle-free punctuation, ';'.
SUFFIX = st.text(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._;()/:",
    min_size=1,
    max_size=24,
).filter(lambda s: s[-1] not in "./:;" and s[0] != "/")
DOIS = st.builds(lambda r, s: f"10.{r}/{s}", st.integers(1000, 999999), SUFFIX)
NEW_ARXIV = st.builds(
    lambda y, m, n, v: f"{y:02d}{m:02d}.{n:05d}{v}",
    st.integers(15, 25),
    st.integers(1, 12),
    st.integers(1, 99999),
    st.sampled_from(["", "v1", "v3"]),
)
OLD_ARXIV = st.builds(
    lambda a, n: f"{a}/{n:07d}", st.sampled_from(["hep-th", "math.AG", "astro-ph", "cs"]),
    st.integers(9101001, 9912999),
)  # fmt: skip


@given(
    DOIS,
    st.sampled_from(
        [
            "",
            "doi:",
            "DOI: ",
            "https://doi.org/",
            "http://dx.doi.org/",
            "https://www.doi.org/",
            "doi.org/",
        ]
    ),
    st.sampled_from(["", ".", " "]),
)
def test_a_doi_in_any_written_form_normalizes_to_itself(doi: str, prefix: str, end: str) -> None:
    assert is_valid_doi(doi)
    assert normalize_doi(f" {prefix}{doi}{end}") == doi


@given(DOIS, st.sampled_from(["https://doi.org/", "http://dx.doi.org/", "https://www.doi.org/"]))
def test_a_doi_in_a_percent_encoded_url_is_the_doi(doi: str, resolver: str) -> None:
    assert doi_in_url(resolver + quote(doi, safe="/")) == doi
    assert normalize_doi(resolver + quote(doi, safe="")) == doi


@given(NEW_ARXIV | OLD_ARXIV, st.sampled_from(["", "arXiv:", "arxiv: ", "https://arxiv.org/abs/",
       "http://arxiv.org/pdf/", "https://www.arxiv.org/abs/", "https://export.arxiv.org/abs/"]),
       st.sampled_from(["", ".pdf"]))  # fmt: skip
def test_an_arxiv_id_in_any_written_form_normalizes_to_itself(
    arxiv_id: str, prefix: str, suffix: str
) -> None:
    assert is_valid_arxiv(arxiv_id)
    written = f"{prefix}{arxiv_id}{suffix if prefix.startswith('http') else ''}"
    assert normalize_arxiv(written) == arxiv_id


@given(NEW_ARXIV | OLD_ARXIV, st.sampled_from(["arXiv preprint arXiv:{}, 2017.",
       "(arXiv:{})", "available at https://arxiv.org/abs/{}.", "arXiv {}; see also"]))  # fmt: skip
def test_an_arxiv_id_in_running_text_is_found_without_its_punctuation(
    arxiv_id: str, sentence: str
) -> None:
    assert arxiv_in_text(sentence.format(arxiv_id)) == arxiv_id
