"""`sources fetch` end to end over the loopback emulator: each registry's answer names a copy
the emulator serves, in the order of quality; what fails falls through to the next; the
manifest says where each file came from; a second run asks nothing."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from citecore.cache import Cache
from citecore.fetch.manifest import read_manifest
from citecore.fetch.records import Origin
from citecore.fetch.run import FetchPlan, fetch_sources
from citecore.model import Reference, SourceLocation
from citecore.registries import europepmc, openalex, semantic_scholar, unpaywall
from tests.emulator import RegistryEmulator, Reply
from tests.fetch.made import jats_of, pdf_of
from tests.fetch.test_download import settings_for


def reference(key: str, doi: str = "", arxiv_id: str = "", pmid: str = "") -> Reference:
    location = SourceLocation("refs.bib", 1)
    return Reference(
        key, "article", location, title=f"On {key}", doi=doi, arxiv_id=arxiv_id, pmid=pmid
    )


def epmc_hit(pmcid: str, open_access: bool = True) -> Reply:
    hit = {"pmcid": pmcid, "isOpenAccess": "Y" if open_access else "N", "inEPMC": "Y",
           "license": "cc by"}  # fmt: skip
    return Reply(body=json.dumps({"hitCount": 1, "resultList": {"result": [hit]}}))


def unpaywall_answer(*urls: str) -> Reply:
    locations = [{"url": u, "url_for_pdf": u, "license": "cc-by", "version": "acceptedVersion"}
                 for u in urls]  # fmt: skip
    body = {"is_oa": True, "best_oa_location": locations[0], "oa_locations": locations}
    return Reply(body=json.dumps(body))


def openalex_answer(url: str) -> Reply:
    location = {"is_oa": True, "pdf_url": url, "license": "cc-by", "version": "publishedVersion"}
    return Reply(body=json.dumps({"id": "W1", "title": "x", "best_oa_location": location}))


@pytest.fixture
def emulator() -> Iterator[RegistryEmulator]:
    with RegistryEmulator(strict=False) as server:
        yield server


def test_each_registry_in_its_turn(emulator: RegistryEmulator, tmp_path: Path) -> None:
    arxiv_pdf = pdf_of("A preprint about sparse attention in our own words.")
    emulator.serve_path("/pdf/2205.01068", Reply(raw=arxiv_pdf))
    emulator.serve(europepmc.open_access_request("10.1/epmc"), epmc_hit("PMC7"))
    xml = jats_of(
        "A trial of an old drug",
        {
            "Methods": ["Four hundred patients were randomised to the drug or to a placebo."],
            "Results": ["Mortality fell by a fifth in the treated arm over one year."],
        },
    )
    emulator.serve_path("/europepmc/webservices/rest/PMC7/fullTextXML", Reply(body=xml))
    unpaywall_pdf = pdf_of("A repository copy of an accepted manuscript.")
    landing = emulator.serve_path("/landing", Reply(body="<html>landing</html>"))
    good = emulator.serve_path("/repo/accepted.pdf", Reply(raw=unpaywall_pdf))
    emulator.serve(unpaywall.oa_request("10.1/unp"), unpaywall_answer(landing, good))
    openalex_pdf = pdf_of("The publisher's open version.")
    url = emulator.serve_path("/pub/oa.pdf", Reply(raw=openalex_pdf))
    emulator.serve(openalex.work_request("10.1/oa"), openalex_answer(url))
    s2_pdf = pdf_of("Semantic Scholar's copy.")
    url = emulator.serve_path("/s2/copy.pdf", Reply(raw=s2_pdf))
    emulator.serve(
        semantic_scholar.open_access_request("10.1/s2"),
        Reply(body=json.dumps({"openAccessPdf": {"url": url, "status": "GREEN"}})),
    )
    references = [
        reference("opt", arxiv_id="2205.01068"),
        reference("trial", doi="10.1/epmc"),
        reference("accepted", doi="10.1/unp"),
        reference("published", doi="10.1/oa"),
        reference("s2", doi="10.1/s2"),
        reference("closed", doi="10.1/closed"),
        reference("bare"),
    ]
    sources = tmp_path / "sources"
    plan = FetchPlan(sources, settings=settings_for(emulator))
    with Cache(tmp_path / "cache.sqlite") as cache:
        outcome = fetch_sources(references, plan, cache)
    origins = {s.key: (s.origin, s.file) for s in outcome.stored}
    assert origins == {
        "opt": (Origin.ARXIV, "opt.pdf"),
        "trial": (Origin.EUROPEPMC, "trial.md"),
        "accepted": (Origin.UNPAYWALL, "accepted.pdf"),
        "published": (Origin.OPENALEX, "published.pdf"),
        "s2": (Origin.SEMANTICSCHOLAR, "s2.pdf"),
    }
    assert (sources / "opt.pdf").read_bytes() == arxiv_pdf
    assert "Mortality fell by a fifth" in (sources / "trial.md").read_text()
    missing = {m.key: m for m in outcome.missing}
    assert missing["closed"].reason == "no open-access copy known"
    assert missing["bare"].reason.startswith("no identifier")
    accepted = next(s for s in outcome.stored if s.key == "accepted")
    assert accepted.license == "cc-by" and accepted.version == "acceptedVersion"
    assert accepted.sha256 == hashlib.sha256(unpaywall_pdf).hexdigest()
    manifest = read_manifest(sources)
    assert set(manifest.stored) == set(origins) and set(manifest.missing) == {"closed", "bare"}
    written = json.loads((sources / "sources.json").read_text())
    assert written["schema_version"] == 1 and written["sources"][0]["key"] == "accepted"
    # The landing page Unpaywall named first was refused and the next location taken.
    assert any(key.startswith('["/landing"') for _, key in emulator.log)

    # A rebuild: every key has a file or was looked for today: no request at all.
    before = emulator.requests()
    with Cache(tmp_path / "cache.sqlite") as cache:
        again = fetch_sources(references, plan, cache)
    assert emulator.requests() == before
    assert set(again.present) == set(origins) and {m.key for m in again.missing} == {
        "closed",
        "bare",
    }


def test_a_miss_the_hosts_may_mend_is_looked_for_again(
    emulator: RegistryEmulator, tmp_path: Path
) -> None:
    emulator.serve_path("/pdf/2401.00001", Reply(503, "busy"), Reply(raw=pdf_of("Now it works.")))
    plan = FetchPlan(tmp_path / "sources", settings=settings_for(emulator))
    first = fetch_sources([reference("p", arxiv_id="2401.00001")], plan)
    assert first.missing and "HTTP 503" in first.missing[0].tried[0]
    assert first.missing[0].checked == ""  # not a finding about the work: look again
    second = fetch_sources([reference("p", arxiv_id="2401.00001")], plan)
    assert [s.key for s in second.stored] == ["p"]


def test_keys_that_are_no_file_names_are_stored_safely(
    emulator: RegistryEmulator, tmp_path: Path
) -> None:
    emulator.serve_path("/pdf/2401.00002", Reply(raw=pdf_of("On ../../evil:key")))
    plan = FetchPlan(tmp_path / "sources", settings=settings_for(emulator))
    outcome = fetch_sources([reference("../../evil:key", arxiv_id="2401.00002")], plan)
    (stored,) = outcome.stored
    assert stored.file == "_.._evil_key.pdf" and (tmp_path / "sources" / stored.file).is_file()
    assert not (tmp_path / "evil:key.pdf").exists()
    # The name it was stored under is the name it is found by: the next run asks nothing.
    before = emulator.requests()
    again = fetch_sources([reference("../../evil:key", arxiv_id="2401.00002")], plan)
    assert again.present == ("../../evil:key",) and emulator.requests() == before


def test_a_file_of_another_work_is_refused(emulator: RegistryEmulator, tmp_path: Path) -> None:
    # The entry names the arXiv id of another paper (a wrong identifier, as in the tour): the
    # file fetched by it is not the cited work, and the next copy is tried.
    emulator.serve_path("/pdf/2204.14198", Reply(raw=pdf_of("Flamingo: a Visual Language Model")))
    right = pdf_of("Random Feature Attention\n\nWe propose random feature attention.")
    url = emulator.serve_path("/oa/rfa.pdf", Reply(raw=right))
    emulator.serve(openalex.work_request("10.48550/arXiv.2204.14198"), openalex_answer(url))
    rfa = Reference(
        "peng2021rfa",
        "inproceedings",
        SourceLocation("tour.bib", 32),
        title="Random Feature Attention",
        doi="10.48550/arXiv.2204.14198",
    )
    plan = FetchPlan(tmp_path / "sources", settings=settings_for(emulator))
    (stored,) = fetch_sources([rfa], plan).stored
    assert stored.origin is Origin.OPENALEX
    alone = FetchPlan(tmp_path / "alone", settings=settings_for(emulator))
    emulator.serve(openalex.work_request("10.48550/arXiv.2204.14198"), Reply(404, "{}"))
    (missing,) = fetch_sources([rfa], alone).missing
    assert "another work" in missing.tried[0]


def test_an_entry_named_by_its_pmid(emulator: RegistryEmulator, tmp_path: Path) -> None:
    # PubMed exports name entries `PMID_<n>` and carry no identifier field (the wild corpus's
    # pmid-keys bibliography): the PMID finds the full text, whose title is then checked.
    title = "Exploring the new world of the genome with DNA microarrays"
    emulator.serve(europepmc.open_access_request(pmid="9915498"), epmc_hit("PMC11"))
    xml = jats_of(title, {"Body": ["Microarrays measure the expression of thousands of genes."]})
    emulator.serve_path("/europepmc/webservices/rest/PMC11/fullTextXML", Reply(body=xml))
    entry = Reference("PMID_9915498", "article", SourceLocation("refs.bib", 2), title=title)
    plan = FetchPlan(tmp_path / "sources", settings=settings_for(emulator))
    (stored,) = fetch_sources([entry], plan).stored
    assert stored.origin is Origin.EUROPEPMC and stored.file == "PMID_9915498.md"
