"""The local checks, one finding kind at a time."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from citecore.bib.bibtex import parse_bibtex
from citecore.findings import citation_findings, reference_findings, verdict_findings
from citecore.model import (
    Bibliography,
    Citation,
    CitationId,
    CitationMode,
    FieldMismatch,
    FindingKind,
    Match,
    ReferenceFlag,
    ReferenceResult,
    ReferenceVerdict,
    Severity,
    Source,
    SourceLocation,
)

TODAY = dt.date(2026, 11, 29)


def bibliography(text: str) -> Bibliography:
    parsed = parse_bibtex(text, "refs.bib")
    references = {}
    duplicates = list(parsed.duplicates)
    for reference in parsed.references:
        if reference.key in references:
            duplicates.append(reference)
        else:
            references[reference.key] = reference
    return Bibliography(("refs.bib",), references, tuple(duplicates), parsed.unparsed)


def kinds(text: str) -> list[tuple[FindingKind, str | None]]:
    return [(f.kind, f.key) for f in reference_findings(bibliography(text), TODAY)]


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ("@misc{ok, title = {Fine}, year = {2020}, doi = {10.1000/x}}", []),
        ("@misc{k, title = {T}, doi = {10.1000-x}}", [(FindingKind.MALFORMED_ID, "k")]),
        ("@misc{k, title = {T}, doi = {doi:10.1000/x}}", []),
        (
            "@misc{k, title = {T}, eprint = {1706.3762}, archiveprefix = {arXiv}}",
            [(FindingKind.MALFORMED_ID, "k")],
        ),
        ("@misc{k, title = {T}, eprint = {hep-th/9901001}, archiveprefix = {arXiv}}", []),
        ("@misc{k, title = {T}, eprint = {0801.1234}, archiveprefix = {arXiv}}", []),
        (
            "@misc{k, title = {T}, eprint = {2113.01234}, archiveprefix = {arXiv}}",
            [(FindingKind.MALFORMED_ID, "k")],
        ),
        ("@misc{k, title = {T}, isbn = {0-201-52983-2}}", [(FindingKind.MALFORMED_ID, "k")]),
        ("@misc{k, title = {T}, isbn = {978-0-201-52983-8}}", []),
        ("@misc{k, title = {T}, pmid = {PM123}}", [(FindingKind.MALFORMED_ID, "k")]),
        ("@misc{k, title = {T}, year = {2027}}", [(FindingKind.FUTURE_YEAR, "k")]),
        ("@misc{k, title = {T}, date = {2026-12-01}}", [(FindingKind.FUTURE_YEAR, "k")]),
        ("@misc{k, title = {T}, date = {2026-11-28}}", []),
        ("@misc{k, title = {T}, year = {20201}}", [(FindingKind.BAD_YEAR, "k")]),
        ("@misc{k, title = {T}, year = {0999}}", [(FindingKind.BAD_YEAR, "k")]),
        ("@misc{k, title = {T}, year = {in press}}", []),
        ("@misc{k, title = {T}, year = {n.d.}}", []),
        ("@misc{k, year = {2020}}", [(FindingKind.NO_TITLE, "k")]),
        ("@misc{k, title = {T}, year = ,}", [(FindingKind.UNPARSED, "k")]),
    ],
)
def test_reference_checks(entry: str, expected: list[tuple[FindingKind, str]]) -> None:
    assert kinds(entry) == expected


def test_duplicate_keys_and_likely_duplicates() -> None:
    found = reference_findings(
        bibliography(
            "@misc{a, title = {Deep Learning}, year = 2015, doi = {10.1038/nature14539}}\n"
            "@misc{b, title = {Other}, doi = {https://doi.org/10.1038/NATURE14539}}\n"
            "@misc{c, title = {Pre-trained Models: A Survey}, year = 2020}\n"
            "@misc{d, title = {Pretrained models -- a survey}}\n"
            "@misc{e, title = {Pretrained models: a survey}, year = 2021}\n"
            "@misc{a, title = {Again}}\n"
        ),
        TODAY,
    )
    summary = [(f.kind, f.key, f.location.line if f.location else None) for f in found]
    assert summary == [
        (FindingKind.DUPLICATE_KEY, "a", 6),
        (FindingKind.DUPLICATE_ENTRY, "b", 2),
        (FindingKind.DUPLICATE_ENTRY, "d", 4),
        (FindingKind.DUPLICATE_ENTRY, "e", 5),  # d gives no year, so nothing tells them apart
    ]
    assert "first defined at refs.bib:1" in found[0].message


def test_a_key_defined_again_after_a_definition_that_could_not_be_read() -> None:
    # Found by fuzzing a real bibliography: the first definition had a broken field, so the key
    # was in no entry read, and naming where it was first defined raised KeyError.
    found = reference_findings(
        bibliography(
            "@misc{a,\n  title = {First},\n  doi\ufeff = {10.5281/zenodo.53155}016,\n}\n"
            "@misc{a, title = {Again}}\n"
        ),
        TODAY,
    )
    summary = [(f.kind, f.key, f.location.line if f.location else None) for f in found]
    assert (FindingKind.UNPARSED, "a", 1) in summary
    assert (FindingKind.DUPLICATE_KEY, "a", 5) in summary
    duplicate = next(f for f in found if f.kind is FindingKind.DUPLICATE_KEY)
    assert "first defined at refs.bib:1" in duplicate.message


def _citation(key: str, line: int) -> Citation:
    return Citation(
        key,
        CitationMode.NORMAL,
        SourceLocation("doc.md", line),
        CitationId("doc.md", next(_ORDINALS)),
    )


_ORDINALS = itertools.count()


def test_undefined_is_reported_at_every_occurrence_and_unused_as_information() -> None:
    bib = bibliography(
        "@misc{used, title = {U}}\n@misc{unused, title = {V}}\n@misc{nocited, title = {W}}\n"
        "@misc{broken, title = {X}, year = ,}\n"
    )
    citations = [
        _citation("used", 1),
        _citation("ghost", 2),
        _citation("ghost", 5),
        _citation("broken", 6),
    ]
    found = citation_findings(citations, bib, nocite=["nocited", "ghost2"])
    assert [(f.kind, f.key, f.location.line if f.location else None) for f in found] == [
        (FindingKind.UNDEFINED, "ghost", 2),
        (FindingKind.UNDEFINED, "ghost", 5),
        (FindingKind.UNDEFINED, "ghost2", None),
        (FindingKind.UNUSED, "unused", 2),
    ]
    assert found[-1].severity is Severity.INFO
    assert all(
        f.kind is not FindingKind.UNUSED for f in citation_findings(citations, bib, nocite_all=True)
    )


def test_verifier_verdicts_become_findings_at_the_entry() -> None:
    bib = bibliography("@misc{a, title = {A}}\n@misc{b, title = {B}}\n@misc{c, title = {C}}\n")
    results = {
        "a": ReferenceResult(
            "a",
            ReferenceVerdict.MISMATCH,
            mismatches=(FieldMismatch("year", "2019", "2020"),),
            match=Match(Source.CROSSREF),
        ),
        "b": ReferenceResult(
            "b", ReferenceVerdict.VERIFIED, flags=frozenset({ReferenceFlag.RETRACTED})
        ),
        "c": ReferenceResult("c", ReferenceVerdict.NOT_FOUND, sources=("crossref", "arxiv")),
    }
    found = verdict_findings(results, bib)
    assert [(f.kind, f.key, f.location.line if f.location else None) for f in found] == [
        (FindingKind.MISMATCH, "a", 1),
        (FindingKind.RETRACTED, "b", 2),
        (FindingKind.NOT_FOUND, "c", 3),
    ]
    assert "year: cited '2019', the record has '2020'" in found[0].message
    assert "could not be confirmed in crossref, arxiv" in found[2].message
