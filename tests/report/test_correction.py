"""Corrections: the registry's record under the writer's key, shown and never applied."""

from __future__ import annotations

from citecore.bib.bibtex import parse_bibtex
from citecore.model import (
    FieldMismatch,
    Match,
    Reference,
    ReferenceFlag,
    ReferenceResult,
    ReferenceVerdict,
    Source,
)
from citecore.report.bibtex import annotate_bibtex
from citecore.report.correction import corrected_bibtex, corrected_fields

BIB = (
    "@inproceedings{wu2023fednp,\n  title = {FedNP: Towards Non-IID Federated Learning via "
    "Federated Neural Propagation},\n  author = {Wu, Xueyang and others},\n  booktitle = {ICML},\n"
    "  year = {2023},\n  doi = {10.99999/fednp}\n}\n"
)
RECORD = Match(
    source=Source.CROSSREF,
    title="FedNP: Towards Non-IID Federated Learning via Federated Neural Propagation",
    authors=("Wu, Xueyang", "Huang, Hengguan", "Ding, Youlong"),
    year=2023,
    venue="Proceedings of the AAAI Conference on Artificial Intelligence",
    doi="10.1609/aaai.v37i9.26237",
    url="https://doi.org/10.1609/aaai.v37i9.26237",
)


def reference() -> Reference:
    return parse_bibtex(BIB, "refs.bib").references[0]


def result(**changes: object) -> ReferenceResult:
    values: dict[str, object] = {
        "key": "wu2023fednp",
        "verdict": ReferenceVerdict.MISMATCH,
        "mismatches": (
            FieldMismatch("doi", "10.99999/fednp", RECORD.doi, "this DOI does not exist"),
            FieldMismatch("venue", "ICML", RECORD.venue, "ICML is not AAAI"),
        ),
        "match": RECORD,
        "suggested": RECORD,
        "flags": frozenset({ReferenceFlag.SUGGESTED}),
    }
    values.update(changes)
    return ReferenceResult(**values)  # type: ignore[arg-type]


def test_the_corrected_entry_keeps_the_writers_key_and_type() -> None:
    entry = corrected_bibtex(reference(), result())
    assert entry.startswith("@inproceedings{wu2023fednp,\n")
    assert "  booktitle = {Proceedings of the AAAI Conference on Artificial Intelligence}" in entry
    assert "  doi = {10.1609/aaai.v37i9.26237}" in entry
    assert "author = {Wu, Xueyang and Huang, Hengguan and Ding, Youlong}" in entry


def test_the_fix_names_only_the_fields_that_differ() -> None:
    fix = corrected_fields(reference(), result())
    assert fix == (
        "booktitle = Proceedings of the AAAI Conference on Artificial Intelligence; "
        "doi = 10.1609/aaai.v37i9.26237"
    )


def test_no_correction_from_a_record_of_another_work() -> None:
    other = Match(source=Source.CROSSREF, title="Deep learning", doi="10.1038/nature14539")
    unrelated = result(
        suggested=None,
        match=other,
        mismatches=(FieldMismatch("title", "FedNP: …", "Deep learning", "title similarity 0.1"),),
    )
    assert corrected_bibtex(reference(), unrelated) == ""
    assert (
        corrected_bibtex(reference(), result(verdict=ReferenceVerdict.VERIFIED, suggested=None))
        == ""
    )


def test_bibtex_output_carries_the_fix_and_a_rerun_replaces_it() -> None:
    results = {"wu2023fednp": result()}
    references = {"wu2023fednp": reference()}
    once = annotate_bibtex(BIB, results, references)
    assert "  cite_check_fix = {booktitle = Proceedings of the AAAI" in once
    assert annotate_bibtex(once, results, references) == once
    assert once.replace(once[once.index("\n") : once.index("  title")], "\n") == BIB
