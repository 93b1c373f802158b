"""Every source parser on real recorded responses (../shared/fixtures/real/, see PROVENANCE.md)."""

from __future__ import annotations

import pytest

from citecore.model import Person, Source
from citecore.registries import arxiv, crossref, datacite, doi_org
from citecore.registries.record import Update
from tests.emulator import recorded


def read(name: str) -> str:
    return recorded(name).read_text(encoding="utf-8")


def test_crossref_work() -> None:
    record = crossref.parse_work(read("crossref/works_10.7554_elife.01567.json"))
    assert record.source is Source.CROSSREF
    assert record.title.startswith("Automated quantitative histology reveals vascular")
    assert record.authors[0] == Person("Sankar", "Martial")
    assert (record.year, record.venue, record.doi) == (2014, "eLife", "10.7554/elife.01567")
    assert record.updates == frozenset()


def test_crossref_correction_notice_is_an_update() -> None:
    record = crossref.parse_work(read("crossref/works_10.1371_journal.pone.0033693.json"))
    assert record.updates == frozenset({Update.CORRECTION})


def test_crossref_update_to_new_version_is_not_a_retraction() -> None:
    record = crossref.parse_work(
        read("crossref/works_10.1371_journal.ppat.1008184_update-to_new_version.json")
    )
    assert not record.updates & {Update.RETRACTION, Update.WITHDRAWAL}


def test_crossref_preprint_knows_its_published_version() -> None:
    record = crossref.parse_work(read("crossref/works_10.1101_2024.04.01.587366.json"))
    assert record.is_preprint
    assert record.related_dois == ("10.1016/j.xgen.2025.100814",)


def test_crossref_retraction_built_from_the_documented_shape() -> None:
    """No real single-record response carries `updated-by` of type retraction (PROVENANCE.md,
    "Gaps"); this one is the eLife record with the field added in Crossref's documented form."""
    import json

    message = json.loads(read("crossref/works_10.7554_elife.01567.json"))["message"]
    message["updated-by"] = [
        {
            "DOI": "10.7554/elife.99999",
            "type": "retraction",
            "label": "Retraction",
            "source": "publisher",
            "updated": {"date-parts": [[2020, 1, 1]]},
        }
    ]
    assert crossref.parse_item(message).updates == frozenset({Update.RETRACTION})


def test_crossref_search_results() -> None:
    records = crossref.parse_search(
        read("crossref/works_search_query.title_attention_is_all_you_need_with_author_select.json")
    )
    assert records[0].title == "Self-Attention with Relative Position Representations"
    assert records[0].venue.startswith("Proceedings of the 2018 Conference of the North American")
    empty = crossref.parse_search(read("crossref/works_search_query.title_no_results.json"))
    assert empty == []


@pytest.mark.parametrize(
    ("name", "title", "year", "arxiv_id", "preprint"),
    [
        (
            "dois_10.48550_arxiv.1902.02534.json",
            "Crowdsourcing open citations with CROCI",
            2019,
            "1902.02534",
            True,
        ),
        ("dois_10.5281_zenodo.1196821.json", "", None, "", False),
        ("dois_10.5061_dryad.8515.json", "", None, "", False),
    ],
)
def test_datacite_records(
    name: str, title: str, year: int | None, arxiv_id: str, preprint: bool
) -> None:
    record = datacite.parse_work(read(f"datacite/{name}"))
    assert record.source is Source.DATACITE
    assert record.title
    if title:
        assert record.title.startswith(title) and record.year == year
    assert record.arxiv_id == arxiv_id
    assert record.is_preprint is preprint


def test_arxiv_feeds() -> None:
    (record,) = arxiv.parse_feed(read("arxiv/query_id_list_1605.08386.xml"))
    assert (record.title, record.year, record.arxiv_id) == (
        "Heat-bath random walks with Markov bases",
        2016,
        "1605.08386v1",
    )
    assert record.authors == (Person("Stanley", "Caprice"), Person("Windisch", "Tobias"))
    old = arxiv.parse_feed(read("arxiv/query_id_list_astro-ph_0601001.xml"))
    assert old and old[0].arxiv_id.startswith("astro-ph/0601001")
    assert arxiv.parse_feed(read("arxiv/query_id_list_0000.0000_no_results.xml")) == []
    assert arxiv.parse_feed(read("arxiv/query_id_list_abc_400_error.xml")) == []
    two = arxiv.parse_feed(read("arxiv/query_id_list_0808.05394_1707.08567.xml"))
    assert len(two) >= 1


@pytest.mark.parametrize(
    ("name", "agency"),
    [
        ("ra_10.48550.json", doi_org.Agency.DATACITE),
        ("ra_10.5281.json", doi_org.Agency.DATACITE),
        ("ra_10.53731.json", doi_org.Agency.CROSSREF),
        ("ra_10.99999_does_not_exist.json", doi_org.Agency.NONE),
    ],
)
def test_doi_agency(name: str, agency: doi_org.Agency) -> None:
    assert doi_org.parse_agency(read(f"doi_org/{name}")) is agency
