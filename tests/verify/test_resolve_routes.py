"""Routing by identifier when the likely registry is not the right one, and when an answer
cannot be read: the branches a librarian would name ("whose DOI is it?", "that PMID does not
exist", "the server answered something unreadable") over real HTTP to the loopback emulator."""

from __future__ import annotations

import json

from citecore.model import ReferenceFlag, ReferenceVerdict
from citecore.registries import arxiv, crossref, datacite, doi_org, pubmed, unpaywall
from tests.emulator import RegistryEmulator, Reply, fixture, recorded
from tests.verify.test_resolve import ELIFE, NO_HITS_ARXIV, no_hits, reference, serve_elife, verify

# DataCite's answer for a DOI it does not hold (arXiv ids are asked there first).
NOT_IN_DATACITE = fixture("datacite/dois_404_10.4124_05f6c379.json")

CROSSREF_404 = "crossref/works_404_10.1371_notarealdoi.txt"
THOR = (
    "@misc{thor2015, title = {Technical and Human Infrastructure for Open Research (THOR)}, "
    "author = {Farquhar, Adam and Aryani, Amir and Brown, Josh and others}, year = {2015}, "
    "doi = {10.5438/6423}}"
)


def agency(doi: str, name: str) -> Reply:
    """doi.org's `/ra/` answer in its documented shape (the recorded ones are for prefixes)."""
    return Reply(200, json.dumps([{"DOI": doi, "RA": name}]))


def test_a_datacite_doi_outside_the_known_prefixes_is_found_through_doi_org(
    emulator: RegistryEmulator,
) -> None:
    emulator.serve(crossref.work_request("10.5438/6423"), fixture(CROSSREF_404))
    emulator.serve(doi_org.agency_request("10.5438/6423"), agency("10.5438/6423", "DataCite"))
    emulator.serve(
        datacite.work_request("10.5438/6423"), fixture("datacite/dois_10.5438_6423.json")
    )
    result = verify(emulator, reference(THOR))
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert result.match is not None and result.match.doi == "10.5438/6423"
    assert result.sources == ("crossref", "doi", "datacite")


def test_a_doi_of_an_agency_whose_metadata_is_not_read_never_verifies_alone(
    emulator: RegistryEmulator,
) -> None:
    ref = reference(
        "@article{k, title = {A Study Registered with mEDRA}, author = {Rossi, Maria}, "
        "year = 2019, doi = {10.3280/example-2019-001}}"
    )
    emulator.serve(crossref.work_request("10.3280/example-2019-001"), fixture(CROSSREF_404))
    emulator.serve(
        doi_org.agency_request("10.3280/example-2019-001"),
        agency("10.3280/example-2019-001", "mEDRA"),
    )
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    # The DOI exists (doi.org knows its agency): not a "DOI that does not exist" accusation.
    assert not any(m.field == "doi" for m in result.mismatches)
    assert result.verdict is not ReferenceVerdict.VERIFIED
    assert any("agency whose metadata is not read" in note for note in result.notes)


def test_a_doi_its_own_agency_has_no_metadata_for_is_said_so(
    emulator: RegistryEmulator,
) -> None:
    ref = reference(
        "@article{k, title = {A Paper Crossref Registered Without Metadata}, "
        "author = {Doe, Jane}, year = 2020, doi = {10.53731/missing-record}}"
    )
    emulator.serve(crossref.work_request("10.53731/missing-record"), fixture(CROSSREF_404))
    emulator.serve(
        doi_org.agency_request("10.53731/missing-record"),
        agency("10.53731/missing-record", "Crossref"),
    )
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert not any(m.field == "doi" for m in result.mismatches)
    assert result.verdict is not ReferenceVerdict.VERIFIED
    assert any("registered with crossref, which has no metadata" in n for n in result.notes)


def test_an_unreadable_doi_org_answer_is_an_error_not_an_accusation(
    emulator: RegistryEmulator,
) -> None:
    ref = reference(THOR)
    emulator.serve(crossref.work_request("10.5438/6423"), fixture(CROSSREF_404))
    emulator.serve(
        doi_org.agency_request("10.5438/6423"), Reply(200, "<html>Service notice</html>")
    )
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.ERROR
    assert result.mismatches == ()


def test_an_unreadable_datacite_record_is_an_error(emulator: RegistryEmulator) -> None:
    ref = reference(THOR)
    emulator.serve(crossref.work_request("10.5438/6423"), fixture(CROSSREF_404))
    emulator.serve(doi_org.agency_request("10.5438/6423"), agency("10.5438/6423", "DataCite"))
    emulator.serve(datacite.work_request("10.5438/6423"), Reply(200, '{"data": '))
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.ERROR


def unknown_pmid_summary(pmid: str) -> Reply:
    """esummary's answer for a PMID it does not hold: the recorded envelope with the item
    replaced by the documented `error` entry."""
    body = json.loads(recorded("pubmed/esummary_pubmed_27933103_retmode_json.json").read_text())
    body["result"] = {"uids": [pmid], pmid: {"uid": pmid, "error": "cannot get document summary"}}
    return Reply(200, json.dumps(body))


def test_a_pmid_that_does_not_exist_is_a_mismatch(emulator: RegistryEmulator) -> None:
    ref = reference(
        "@article{k, title = {A Clinical Trial Nobody Ran}, author = {Doe, Jane}, year = 2021, "
        "pmid = {99999999}}"
    )
    emulator.serve(pubmed.summary_request("99999999"), unknown_pmid_summary("99999999"))
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.MISMATCH
    assert ("pmid", "this PMID does not exist") in [(m.field, m.reason) for m in result.mismatches]


def test_an_unreadable_pubmed_summary_is_an_error(emulator: RegistryEmulator) -> None:
    ref = reference(
        "@article{k, title = {A Clinical Trial}, author = {Doe, Jane}, year = 2021, "
        "pmid = {27933103}}"
    )
    emulator.serve(pubmed.summary_request("27933103"), Reply(200, "{not json"))
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.ERROR
    assert not any(m.field == "pmid" for m in result.mismatches)


def test_an_arxiv_id_that_does_not_exist_is_a_mismatch(emulator: RegistryEmulator) -> None:
    ref = reference(
        "@misc{k, title = {A Preprint Nobody Posted}, author = {Doe, Jane}, year = 2023, "
        "eprint = {2312.99999}, archivePrefix = {arXiv}}"
    )
    emulator.serve(datacite.work_request("10.48550/arxiv.2312.99999"), NOT_IN_DATACITE)
    emulator.serve(arxiv.id_request("2312.99999"), fixture(NO_HITS_ARXIV))
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.MISMATCH
    assert [(m.field, m.reason) for m in result.mismatches] == [
        ("arxiv", "this arXiv id does not exist")
    ]


def test_an_unreadable_arxiv_feed_is_an_error(emulator: RegistryEmulator) -> None:
    ref = reference(
        "@misc{stanley2016, title = {Heat-bath random walks with {Markov} bases}, "
        "author = {Stanley, Caprice and Windisch, Tobias}, year = {2016}, "
        "eprint = {1605.08386}, archivePrefix = {arXiv}}"
    )
    emulator.serve(datacite.work_request("10.48550/arxiv.1605.08386"), NOT_IN_DATACITE)
    emulator.serve(arxiv.id_request("1605.08386"), Reply(200, "<feed><entry>"))
    no_hits(emulator, ref)
    result = verify(emulator, ref)
    assert result.verdict is ReferenceVerdict.ERROR
    assert result.mismatches == ()


PNAS = (
    "@article{makris2014, title = {Developing functional musculoskeletal tissues through hypoxia "
    "and lysyl oxidase-induced collagen cross-linking}, author = {Makris, Eleftherios A. and "
    "Responte, Donald J. and Paschos, Nikolaos K. and Hu, Jerry C. and Athanasiou, Kyriacos A.}, "
    "journal = {Proceedings of the National Academy of Sciences}, year = 2014, "
    "doi = {10.1073/pnas.1414271111}}"
)


def test_an_open_access_copy_is_added_from_unpaywall_when_asked_and_an_email_is_set(
    emulator: RegistryEmulator,
) -> None:
    emulator.serve(
        crossref.work_request("10.1073/pnas.1414271111"),
        fixture("crossref/works_10.1073_pnas.1414271111.json"),
    )
    emulator.serve(
        unpaywall.oa_request("10.1073/pnas.1414271111"),
        fixture("unpaywall/v2_10.1073_pnas.1414271111.json"),
    )
    result = verify(emulator, reference(PNAS), open_access=True, email="writer@example.org")
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert ReferenceFlag.OA_URL in result.flags
    pdf = "https://www.pnas.org/content/pnas/111/45/E4832.full.pdf"
    assert f"open-access copy: {pdf}" in result.notes


def test_an_unreadable_unpaywall_answer_costs_only_the_courtesy(
    emulator: RegistryEmulator,
) -> None:
    serve_elife(emulator)
    emulator.serve(unpaywall.oa_request("10.7554/elife.01567"), Reply(200, "<html>"))
    result = verify(emulator, reference(ELIFE), open_access=True, email="writer@example.org")
    assert result.verdict is ReferenceVerdict.VERIFIED
    assert ReferenceFlag.OA_URL not in result.flags


def test_unpaywall_is_not_asked_when_no_report_shows_a_link(emulator: RegistryEmulator) -> None:
    serve_elife(emulator)  # the strict emulator fails on a request to Unpaywall
    result = verify(emulator, reference(ELIFE), email="writer@example.org")
    assert result.verdict is ReferenceVerdict.VERIFIED
