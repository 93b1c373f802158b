"""Routing and verdicts, end to end over real HTTP to the loopback emulator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import citecore.verify.registry as registry_module
from citecore.bib.bibtex import parse_bibtex
from citecore.model import Reference, ReferenceFlag, ReferenceResult, ReferenceVerdict, Source
from citecore.registries import arxiv, crossref, datacite, dblp, doi_org, europepmc
from citecore.registries.registry import SourcePolicy
from citecore.registries.settings import ClientSettings
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator, Reply, dblp_hits, dblp_no_hits, fixture, recorded

FAST = {source: SourcePolicy(50.0, 4) for source in Source}
NO_HITS_CROSSREF = "crossref/works_search_query.title_no_results.json"
NO_HITS_ARXIV = "arxiv/query_id_list_0000.0000_no_results.xml"
NO_HITS_EUROPEPMC = "europepmc/search_no_results.json"


def reference(bib: str) -> Reference:
    return parse_bibtex(bib, "refs.bib").references[0]


def verify(
    emulator: RegistryEmulator,
    ref: Reference,
    cache: Path | None = None,
    open_access: bool = False,
    **overrides: object,
) -> ReferenceResult:
    values: dict[str, object] = {"policies": FAST, "backoff_base": 0.01, "max_attempts": 2}
    values.update(overrides)
    settings = ClientSettings.from_environment(emulator.environment(), **values)
    return RegistryVerifier(settings, cache, open_access=open_access).verify([ref])[ref.key]


def no_hits(emulator: RegistryEmulator, ref: Reference) -> None:
    first = ref.authors[0].family if ref.authors else ""
    emulator.serve(crossref.search_request(ref.title, first), fixture(NO_HITS_CROSSREF))
    emulator.serve(europepmc.search_request(ref.title), fixture(NO_HITS_EUROPEPMC))
    emulator.serve(arxiv.search_request(ref.title), fixture(NO_HITS_ARXIV))
    emulator.serve(dblp.search_request(ref.title), dblp_no_hits())


ELIFE = (
    "@article{sankar2014, title = {Automated quantitative histology reveals vascular "
    "morphodynamics during {Arabidopsis} hypocotyl secondary growth}, author = {Sankar, Martial "
    "and Nieminen, Kaisa and Ragni, Laura and Xenarios, Ioannis and Hardtke, Christian S.}, "
    "journal = {eLife}, year = {2014}, "
    "doi = {10.7554/eLife.01567}}"
)


def serve_elife(emulator: RegistryEmulator) -> None:
    emulator.serve(
        crossref.work_request("10.7554/elife.01567"),
        fixture("crossref/works_10.7554_elife.01567.json"),
    )


def test_doi_verified_through_its_agency(emulator: RegistryEmulator) -> None:
    serve_elife(emulator)
    result = verify(emulator, reference(ELIFE))
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert result.match is not None and result.match.doi == "10.7554/elife.01567"
    assert result.sources == ("crossref",)  # Crossref knew it: doi.org was not needed


def test_a_doi_that_does_not_exist_is_a_mismatch(emulator: RegistryEmulator) -> None:
    ref = reference("@article{k, title = {A paper}, author = {Doe, J.}, doi = {10.99999/nope}}")
    emulator.serve(
        crossref.work_request("10.99999/nope"),
        fixture("crossref/works_404_10.1371_notarealdoi.txt"),
    )
    emulator.serve(
        doi_org.agency_request("10.99999/nope"), fixture("doi_org/ra_10.99999_does_not_exist.json")
    )
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.MISMATCH
    assert [(m.field, m.reason) for m in result.mismatches] == [("doi", "this DOI does not exist")]


def test_arxiv_doi_through_datacite(emulator: RegistryEmulator) -> None:
    ref = reference(
        "@misc{heibi2019, title = {Crowdsourcing open citations with {CROCI} -- An analysis of "
        "the current status of open citations, and a proposal}, author = {Heibi, Ivan and "
        "Peroni, Silvio and Shotton, David}, year = {2019}, doi = {10.48550/arXiv.1902.02534}}"
    )
    # A known DataCite prefix: doi.org is not asked whose DOI it is.
    emulator.serve(
        doi_org.agency_request("10.48550/arxiv.1902.02534"),
        fixture("doi_org/ra_10.48550.json"),
        unused_ok=True,
    )
    emulator.serve(
        datacite.work_request("10.48550/arxiv.1902.02534"),
        fixture("datacite/dois_10.48550_arxiv.1902.02534.json"),
    )
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert result.sources == ("datacite",)  # the arXiv id inside the DOI is not asked again
    assert emulator.routes[next(k for k in emulator.routes if "/ra/" in k)].hits == 0


def test_arxiv_id_verified_with_open_access_copy(emulator: RegistryEmulator) -> None:
    ref = reference(
        "@misc{stanley2016, title = {Heat-bath random walks with {Markov} bases}, "
        "author = {Stanley, Caprice and Windisch, Tobias}, year = {2016}, "
        "eprint = {1605.08386}, archivePrefix = {arXiv}}"
    )
    # DataCite does not hold it (an id arXiv registered no DOI for): arXiv's own API answers.
    emulator.serve(
        datacite.work_request("10.48550/arxiv.1605.08386"),
        fixture("datacite/dois_404_10.4124_05f6c379.json"),
    )
    emulator.serve(arxiv.id_request("1605.08386"), fixture("arxiv/query_id_list_1605.08386.xml"))
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert ReferenceFlag.OA_URL in result.flags
    assert "open-access copy: https://arxiv.org/abs/1605.08386v1" in result.notes


def test_an_arxiv_id_datacite_settles_costs_arxiv_nothing(emulator: RegistryEmulator) -> None:
    ref = reference(
        "@misc{heibi2019, title = {Crowdsourcing open citations with {CROCI} -- An analysis of "
        "the current status of open citations, and a proposal}, author = {Heibi, Ivan and "
        "Peroni, Silvio and Shotton, David}, year = {2019}, eprint = {1902.02534v2}, "
        "archivePrefix = {arXiv}}"
    )
    emulator.serve(
        datacite.work_request("10.48550/arxiv.1902.02534"),
        fixture("datacite/dois_10.48550_arxiv.1902.02534.json"),
    )
    result = verify(emulator, ref)  # the strict emulator fails on any request to arXiv
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert result.match is not None and result.match.source is Source.DATACITE


def test_title_search_verifies_without_identifiers(emulator: RegistryEmulator) -> None:
    ref = reference(
        "@inproceedings{shaw2018, title = {Self-Attention with Relative Position "
        "Representations}, author = {Shaw, Peter and Uszkoreit, Jakob and Vaswani, Ashish}, "
        "booktitle = {NAACL}, year = {2018}}"
    )
    emulator.serve(
        crossref.search_request(ref.title, "Shaw"),
        fixture(
            "crossref/works_search_query.title_attention_is_all_you_need_with_author_select.json"
        ),
    )
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert result.match is not None and result.match.doi == "10.18653/v1/n18-2074"
    assert result.mismatches == ()  # "NAACL" is the record's North American Chapter of the ACL


def test_a_neurips_paper_is_looked_for_where_it_can_be(emulator: RegistryEmulator) -> None:
    # NeurIPS papers have no DOIs, so Crossref cannot hold one; DBLP, the index of computing
    # conferences, is asked before Europe PMC's life sciences. The strict emulator refuses
    # any request not declared here.
    ref = reference(
        "@inproceedings{christiano2017, title = {Deep Reinforcement Learning from Human "
        "Preferences}, author = {Christiano, Paul F. and Leike, Jan and Brown, Tom B. and "
        "Martic, Miljan and Legg, Shane and Amodei, Dario}, booktitle = {Advances in Neural "
        "Information Processing Systems}, year = {2017}}"
    )
    emulator.serve(
        dblp.search_request(ref.title),
        dblp_hits(
            "dblp/search_publ_hits_only_deep_reinforcement_learning_from_human_preferences.json"
        ),
    )
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert result.sources == ("dblp",)


def test_a_conference_paper_nobody_holds_is_searched_everywhere_else(
    emulator: RegistryEmulator,
) -> None:
    ref = reference(
        "@inproceedings{k, title = {A Workshop Talk Nobody Indexed}, author = {Doe, Jane}, "
        "booktitle = {Proceedings of a Small Workshop}, year = 2019}"
    )
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.NOT_FOUND
    assert result.sources == ("crossref", "dblp", "europepmc", "arxiv")


def test_not_found_only_when_every_source_answered(emulator: RegistryEmulator) -> None:
    ref = reference("@book{k, title = {A Book Nobody Indexed}, author = {Doe, Jane}, year = 1999}")
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.NOT_FOUND
    assert result.sources == ("crossref", "europepmc", "dblp", "arxiv")
    assert "missing from the registries" in result.notes[-1]


def test_an_outage_is_an_error_never_not_found(emulator: RegistryEmulator) -> None:
    ref = reference("@book{k, title = {A Book Nobody Indexed}, author = {Doe, Jane}, year = 1999}")
    emulator.serve(
        crossref.search_request(ref.title, "Doe"),
        fixture("crossref/journals_works_facet_504_gateway_timeout.html"),
    )
    emulator.serve(europepmc.search_request(ref.title), fixture(NO_HITS_EUROPEPMC))
    emulator.serve(arxiv.search_request(ref.title), fixture(NO_HITS_ARXIV))
    emulator.serve(dblp.search_request(ref.title), dblp_no_hits())
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.ERROR
    assert ReferenceFlag.COVERAGE_INCOMPLETE in result.flags


def test_offline_without_cache_is_unverifiable(emulator: RegistryEmulator) -> None:
    result = verify(emulator, reference(ELIFE), offline=True)
    assert result.verdict is ReferenceVerdict.UNVERIFIABLE
    assert emulator.requests() == 0


def test_a_doi_naming_another_work_is_a_title_mismatch(emulator: RegistryEmulator) -> None:
    ref = reference(
        "@article{k, title = {Deep learning}, author = {Sankar, Martial and others}, "
        "doi = {10.7554/elife.01567}}"
    )
    serve_elife(emulator)
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.MISMATCH
    assert [m.field for m in result.mismatches] == ["title"]


def test_retraction_is_reported_whatever_the_verdict(emulator: RegistryEmulator) -> None:
    """Built from Crossref's documented `updated-by` shape: no real single-record recording of a
    retracted work exists (fixtures PROVENANCE.md, "Gaps")."""
    body = json.loads(recorded("crossref/works_10.7554_elife.01567.json").read_text())
    body["message"]["updated-by"] = [
        {
            "DOI": "10.7554/elife.99999",
            "type": "retraction",
            "label": "Retraction",
            "source": "publisher",
        }
    ]
    emulator.serve(crossref.work_request("10.7554/elife.01567"), Reply(200, json.dumps(body)))
    result = verify(emulator, reference(ELIFE))
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert ReferenceFlag.RETRACTED in result.flags


def test_truncated_json_is_an_error(emulator: RegistryEmulator) -> None:
    body = recorded("crossref/works_10.7554_elife.01567.json").read_text()[:500]
    emulator.serve(crossref.work_request("10.7554/elife.01567"), Reply(200, body))
    ref = reference(ELIFE)
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.ERROR


def test_verdict_cache_and_logic_version(
    emulator: RegistryEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve_elife(emulator)
    ref = reference(ELIFE)
    cache = tmp_path / "c.sqlite3"
    verify(emulator, ref, cache)
    sent = emulator.requests()
    assert verify(emulator, ref, cache).verdict is ReferenceVerdict.VERIFIED
    assert emulator.requests() == sent  # the verdict came from the cache
    monkeypatch.setattr(registry_module, "LOGIC_VERSION", "test-bump")
    assert verify(emulator, ref, cache).verdict is ReferenceVerdict.VERIFIED
    assert emulator.requests() == sent  # re-judged, but from cached responses
    assert verify(emulator, ref, cache, refresh=True).verdict is ReferenceVerdict.VERIFIED
    assert emulator.requests() > sent


def test_an_unreachable_dblp_leaves_not_found_unsaid(emulator: RegistryEmulator) -> None:
    # DBLP may be the one index that holds a computing paper: while it is down, "not found" would
    # be an accusation without evidence (bench/chaos.py found two such).
    ref = reference("@book{k, title = {A Book Nobody Indexed}, author = {Doe, Jane}, year = 1999}")
    no_hits(emulator, ref)
    emulator.serve(dblp.search_request(ref.title), Reply(503, "down"))
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.ERROR
    assert ReferenceFlag.COVERAGE_INCOMPLETE in result.flags
    assert result.sources == ("crossref", "europepmc", "dblp", "arxiv")


def test_a_cited_preprint_with_a_published_version_is_verified_with_a_note(
    emulator: RegistryEmulator,
) -> None:
    ref = reference(
        "@misc{herger2024, title = {High-throughput screening of human genetic variants by "
        "pooled prime editing}, author = {Herger, Michael and Kajba, Christina M. and others}, "
        "year = 2024, "
        "doi = {10.1101/2024.04.01.587366}}"
    )
    emulator.serve(
        crossref.work_request("10.1101/2024.04.01.587366"),
        fixture("crossref/works_10.1101_2024.04.01.587366.json"),
    )
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert "a published version exists: 10.1016/j.xgen.2025.100814" in result.notes
