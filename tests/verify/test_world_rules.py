"""The verification rules end to end over the registry world of real works (tests/world.py):
every registry is a loopback server answering in its own format, as in a real run."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from citecore.bib.bibtex import parse_bibtex
from citecore.model import ReferenceFlag, ReferenceResult, ReferenceVerdict, Source
from citecore.registries import arxiv, crossref
from citecore.registries.registry import SourcePolicy
from citecore.registries.settings import ClientSettings
from citecore.registries.snapshot_build import build_snapshot
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator, Reply
from tests.world import World

FAST = {source: SourcePolicy(500.0, 8) for source in Source}


@cache
def world() -> World:
    return World.load()


@pytest.fixture
def registries() -> Iterator[RegistryEmulator]:
    with RegistryEmulator(strict=True, world=world()) as emulator:
        yield emulator


def verify(emulator: RegistryEmulator, bib: str, **keys: str) -> ReferenceResult:
    ref = parse_bibtex(bib, "refs.bib").references[0]
    environment = emulator.environment() | keys
    settings = ClientSettings.from_environment(environment, policies=FAST, max_attempts=1)
    result = RegistryVerifier(settings).verify([ref])[ref.key]
    assert not emulator.unexpected, emulator.unexpected
    return result


def fields(result: ReferenceResult) -> list[str]:
    return sorted({m.field for m in result.mismatches})


GOWAL = (
    "title = {Improving Robustness using Generated Data}, author = {Sven Gowal and "
    "Sylvestre-Alvise Rebuffi and Olivia Wiles and Florian Stimberg and Dan Andrei Calian and "
    "Tim Mann}, year = {2021}"
)
FEDNP = (
    "title = {FedNP: Towards Non-IID Federated Learning via Federated Neural Propagation}, "
    "author = {Xueyang Wu and Hengguan Huang and Youlong Ding and Hao Wang and Ye Wang and Qian "
    "Xu}, year = {2023}"
)
TAMBON = (
    "title = {Mutation Testing of Deep Reinforcement Learning Based on Real Faults}, author = "
    "{Florian Tambon and Vahid Majdinasab and Amin Nikanjam and Foutse Khomh and Giuliano "
    "Antoniol}, year = {2023}"
)


@pytest.mark.parametrize(
    ("bib", "verdict", "mismatched"),
    [
        # A conference cited by its acronym is compared through the table.
        (f"@inproceedings{{k, {FEDNP}, booktitle = {{AAAI}}}}", "verified", []),
        (f"@inproceedings{{k, {FEDNP}, booktitle = {{ICML}}}}", "mismatch", ["venue"]),
        (
            f"@inproceedings{{k, {FEDNP}, doi = {{10.1609/AAAI.V37I9.26237}}, "
            "booktitle = {Proceedings of the AAAI Conference on Artificial Intelligence}}",
            "verified",
            [],
        ),
        # The arXiv DOI of a NeurIPS paper: its venue is NeurIPS, not ICML.
        (
            f"@inproceedings{{k, {GOWAL}, booktitle = {{NeurIPS}}, "
            "doi = {10.48550/arXiv.2104.09425}}",
            "verified",
            [],
        ),
        (f"@inproceedings{{k, {GOWAL}, booktitle = {{ICML}}}}", "mismatch", ["venue"]),
        # A preprint cited as a preprint is verified; cited as published, it is a mismatch.
        (f"@misc{{k, {TAMBON}, doi = {{10.48550/arXiv.2301.05651}}}}", "verified", []),
        (f"@article{{k, {TAMBON}, journal = {{arXiv preprint arXiv:2301.05651}}}}", "verified", []),
        (f"@inproceedings{{k, {TAMBON}, booktitle = {{ICSE}}}}", "mismatch", ["venue"]),
        # arXiv DOIs carry no version: a pinned version names the same work.
        (f"@misc{{k, {TAMBON}, doi = {{10.48550/arXiv.2301.05651v2}}}}", "verified", []),
        # Authors: a list that stops early, and an author who is not on the record.
        (
            "@inproceedings{k, title = {Improving Robustness using Generated Data}, author = "
            "{Sven Gowal and Sylvestre-Alvise Rebuffi}, year = 2021, booktitle = {NeurIPS}}",
            "mismatch",
            ["authors"],
        ),
        (
            "@inproceedings{k, title = {Improving Robustness using Generated Data}, author = "
            "{Sven Gowal and Sylvestre-Alvise Rebuffi and others}, year = 2021, "
            "booktitle = {NeurIPS}}",
            "verified",
            [],
        ),
        (
            "@inproceedings{k, title = {Improving Robustness using Generated Data}, author = "
            "{Sven Gowal and Percy Liang and others}, year = 2021, booktitle = {NeurIPS}}",
            "mismatch",
            ["authors"],
        ),
        # A DOI that does not exist stays a mismatch though the title is found elsewhere.
        (f"@inproceedings{{k, {FEDNP}, doi = {{10.99999/fednp.2023}}}}", "mismatch", ["doi"]),
        (f"@misc{{k, {TAMBON}, doi = {{10.5281/zenodo.99999999}}}}", "mismatch", ["doi"]),
        # A journal cited by its NLM abbreviation (PubMed's MedlineTA).
        (
            "@article{k, title = {Developing functional musculoskeletal tissues through hypoxia "
            "and lysyl oxidase-induced collagen cross-linking}, author = {Makris, Eleftherios A. "
            "and others}, journal = {Proc Natl Acad Sci U S A}, year = 2014, pmid = {25349395}}",
            "verified",
            [],
        ),
        (
            "@article{k, title = {Formate assay in body fluids: application in methanol "
            "poisoning}, author = {Makar, A. B. and McMartin, K. E. and Palese, M. and Tephly, "
            "T. R.}, journal = {Biochem Med}, year = 1975, doi = {10.1016/0006-2944(75)90147-7}}",
            "verified",
            [],
        ),
    ],
)
def test_rules_over_the_world(
    registries: RegistryEmulator, bib: str, verdict: str, mismatched: list[str]
) -> None:
    result = verify(registries, bib)
    assert (result.verdict.value, fields(result)) == (verdict, mismatched), result


def test_a_preprint_only_work_cited_as_published_says_so(registries: RegistryEmulator) -> None:
    result = verify(registries, f"@inproceedings{{k, {TAMBON}, booktitle = {{ICSE}}}}")
    (venue,) = result.mismatches
    assert venue.reason == "no published version found: the registries know only the arXiv preprint"
    assert {"dblp", "semanticscholar"} <= set(result.sources)


def test_a_made_up_doi_is_corrected_by_the_found_record(registries: RegistryEmulator) -> None:
    result = verify(registries, f"@inproceedings{{k, {FEDNP}, doi = {{10.99999/fednp.2023}}}}")
    (doi,) = result.mismatches
    assert (doi.given, doi.found) == ("10.99999/fednp.2023", "10.1609/aaai.v37i9.26237")
    assert result.suggested is not None and ReferenceFlag.SUGGESTED in result.flags


def test_the_omitted_authors_are_counted(registries: RegistryEmulator) -> None:
    result = verify(
        registries,
        "@inproceedings{k, title = {Improving Robustness using Generated Data}, author = "
        "{Sven Gowal and Sylvestre-Alvise Rebuffi}, year = 2021, booktitle = {NeurIPS}}",
    )
    assert "stops after 2 of 6" in result.mismatches[0].reason
    assert "4 omitted" in result.mismatches[0].reason


def test_a_short_record_list_is_confirmed_with_another_source_before_accusing(
    registries: RegistryEmulator,
) -> None:
    """Crossref's record of FedNP keeps only its first author here (as Crossref sometimes does):
    the world's full list, found by the title search, decides."""
    line = world().by_doi["10.1609/aaai.v37i9.26237"].crossref
    assert line is not None
    short = dict(line, author=line["author"][:1])
    message = {"status": "ok", "message-type": "work", "message": short}
    registries.serve(
        crossref.work_request("10.1609/aaai.v37i9.26237"), Reply(200, json.dumps(message))
    )
    doi = "doi = {10.1609/AAAI.V37I9.26237}, booktitle = {AAAI}"
    real = verify(registries, f"@inproceedings{{k, {FEDNP}, {doi}}}")
    assert real.verdict is ReferenceVerdict.VERIFIED, real
    swapped = FEDNP.replace("Youlong Ding", "Yoshua Bengio")
    fake = verify(registries, f"@inproceedings{{k2, {swapped}, {doi}}}")
    assert fields(fake) == ["authors"] and "Bengio" in fake.mismatches[0].given


def test_the_world_as_a_snapshot_gives_the_same_verdicts(
    registries: RegistryEmulator, tmp_path: Path
) -> None:
    """`citecheck snapshot build` over the world's dump files, then verification with no
    registry asked at all for works the snapshot holds."""
    from tests.world import WORLD

    target = tmp_path / "world.sqlite3"
    imported = build_snapshot(
        [WORLD / "openalex-works.jsonl", WORLD / "crossref-works.jsonl"], target
    ).imported
    assert imported == 1086 + 483
    bib = (
        f"@inproceedings{{a, {FEDNP}, doi = {{10.1609/aaai.v37i9.26237}}, booktitle = {{AAAI}}}}\n"
        f"@inproceedings{{b, {FEDNP}, doi = {{10.1609/aaai.v37i9.26237}}, booktitle = {{ICML}}}}\n"
    )
    refs = parse_bibtex(bib, "refs.bib").references
    settings = ClientSettings.from_environment(registries.environment(), policies=FAST)
    results = RegistryVerifier(settings, snapshot_path=target).verify(refs)
    assert results["a"].verdict is ReferenceVerdict.VERIFIED
    assert fields(results["b"]) == ["venue"]
    assert registries.requests() == 0


def test_a_year_of_the_other_version_names_both_versions(registries: RegistryEmulator) -> None:
    """The arXiv version of the NeurIPS 2021 paper dated December 2020 (as a preprint submitted
    before the conference is): citing NeurIPS with the preprint's year names both versions."""
    from tests.world import _atom

    feed = _atom([world().by_doi["10.48550/arxiv.2104.09425"]]).replace(
        "<published>2021-04-01", "<published>2020-12-01"
    )
    registries.serve(arxiv.id_request("2104.09425"), Reply(200, feed))
    cited = GOWAL.replace("year = {2021}", "year = {2020}")
    result = verify(
        registries,
        f"@inproceedings{{k, {cited}, booktitle = {{NeurIPS}}, eprint = {{2104.09425}}}}",
    )
    (year,) = result.mismatches
    assert year.field == "year" and (year.given, year.found) == ("2020", "2021")
    assert "year of the preprint (arXiv:2104.09425v1, 2020)" in year.reason
    assert "published version (NeurIPS, 2021)" in year.reason
    as_preprint = verify(registries, f"@misc{{k, {cited}, eprint = {{2104.09425}}}}")
    assert as_preprint.verdict is ReferenceVerdict.VERIFIED
