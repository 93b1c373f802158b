"""The correction citecheck offers is a BibTeX entry the writer can paste: on generated records
(titles and names with braces, accents, ampersands, percent signs; preprints and published
works; every entry type) it always reads back as the record it came from, under the writer's key."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.bib.bibtex import parse_bibtex
from citecore.model import (
    FieldMismatch,
    Match,
    Reference,
    ReferenceResult,
    ReferenceVerdict,
    Source,
    SourceLocation,
)
from citecore.report.correction import corrected_bibtex, corrected_fields

EXAMPLES = int(os.environ.get("CITECHECK_FUZZ_EXAMPLES", "150"))
TEXT = (
    st.text(
        st.characters(categories=("L", "N", "Zs"), include_characters="&%{}:,."),
        min_size=1,
        max_size=60,
    )
    .map(lambda t: " ".join(t.split()))
    .filter(lambda t: any(c.isalnum() for c in t))
)
FAMILIES = st.sampled_from(("Smith", "Nguyen", "Müller", "García", "O'Neil", "van der Berg"))
GIVENS = st.sampled_from(("Ada", "Jean-Luc", "Zoë", "K."))


@st.composite
def record(draw: st.DrawFn) -> Match:
    authors = draw(st.lists(st.tuples(FAMILIES, GIVENS), min_size=1, max_size=4))
    preprint = draw(st.booleans())
    number = draw(st.integers(1000, 9999))
    return Match(
        source=Source.ARXIV if preprint else draw(st.sampled_from((Source.CROSSREF, Source.DBLP))),
        title=draw(TEXT),
        authors=tuple(f"{family}, {given}" for family, given in authors),
        year=draw(st.integers(1950, 2025)),
        venue="arXiv" if preprint else draw(TEXT),
        doi=f"10.48550/arxiv.2101.{number:05d}" if preprint else f"10.{number}/x.{number}",
        url=f"https://arxiv.org/abs/2101.{number:05d}" if preprint else "",
    )


@settings(max_examples=EXAMPLES, deadline=None)
@given(record(), st.sampled_from(("article", "inproceedings", "book", "misc", "paper-conference")))
def test_the_correction_reads_back_as_the_record(found: Match, entry_type: str) -> None:
    reference = Reference("writers-key", entry_type, SourceLocation("refs.bib", 1), title="x")
    result = ReferenceResult(
        "writers-key",
        ReferenceVerdict.MISMATCH,
        mismatches=(FieldMismatch("year", "1900", str(found.year)),),
        match=found,
        suggested=found,
    )
    text = corrected_bibtex(reference, result)
    parsed = parse_bibtex(text, "fix.bib")
    assert not parsed.unparsed, text
    (entry,) = parsed.references
    assert entry.key == "writers-key"
    clean = " ".join(found.title.replace("{", "").replace("}", "").split())
    assert entry.title.replace("{", "").replace("}", "") == clean.replace("\\", ""), text
    assert entry.year == found.year
    assert entry.doi == found.doi
    written = [f"{p.particle} {p.family}".strip() for p in entry.authors]
    assert written == [a.split(",")[0] for a in found.authors]
    if found.source is Source.ARXIV:
        assert entry.entry_type == "misc" and entry.arxiv_id == found.doi.split("arxiv.")[1]
    fix = corrected_fields(reference, result)
    assert f"year = {found.year}" in fix and "\n" not in fix and "{" not in fix
