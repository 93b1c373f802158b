"""The registries' open-access answers as recorded from the real services, and whatever else a
host may send: copies read where the services put them, and a body of any shape read to a
value (an unreadable answer is a ValueError, never another exception)."""

from __future__ import annotations

import contextlib
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.fetch.jats import NotFullTextError, jats_to_markdown
from citecore.fetch.zotero import items_from_api
from citecore.model import Source
from citecore.registries import europepmc, openalex, semantic_scholar, unpaywall
from citecore.registries.record import OpenAccessCopy
from tests.emulator import recorded


def read(path: str) -> str:
    return recorded(path).read_text(encoding="utf-8")


def test_unpaywall_locations_with_a_pdf_best_first() -> None:
    copies = unpaywall.parse_copies(read("unpaywall/v2_10.1073_pnas.1414271111.json"))
    # The second location (PubMed Central) names a landing page only: no file to fetch.
    assert copies == (
        OpenAccessCopy(
            Source.UNPAYWALL,
            "https://www.pnas.org/content/pnas/111/45/E4832.full.pdf",
            version="publishedVersion",
        ),
    )
    assert unpaywall.parse_copies(read("unpaywall/v2_10.1007_s40278-023-41815-2.json")) == ()


def test_openalex_best_location() -> None:
    copies = openalex.parse_copies(read("openalex/works_doi_10.1371_journal.pone.0000030.json"))
    assert copies[0].url.startswith("https://journals.plos.org/plosone/article/file?id=")
    assert copies[0].license == "cc-by" and copies[0].version == "publishedVersion"


def test_semantic_scholar_open_access_pdf() -> None:
    body = read("semantic_scholar/paper_DOI_10.48550_arxiv.2312.07559_full_fields.json")
    assert semantic_scholar.parse_copies(body) == ()  # `"url": ""`: none known
    body = json.dumps({"openAccessPdf": {"url": "http://arxiv.org/pdf/2301.10035"}})
    assert semantic_scholar.parse_copies(body)[0].url == "http://arxiv.org/pdf/2301.10035"
    request = semantic_scholar.open_access_request(arxiv_id="2301.10035")
    assert request.path == "/graph/v1/paper/ARXIV:2301.10035"


def test_europepmc_full_text_only_when_open() -> None:
    hits = json.loads(read("europepmc/search_cancer_core.json"))["resultList"]["result"]
    open_hit = next(h for h in hits if h.get("isOpenAccess") == "Y")
    closed_hit = next(h for h in hits if h.get("pmcid") and h.get("isOpenAccess") == "N")
    answer = {"resultList": {"result": [open_hit]}}
    assert europepmc.parse_open_access(json.dumps(answer)) == (open_hit["pmcid"], "cc by-nc-nd")
    answer = {"resultList": {"result": [closed_hit]}}
    assert europepmc.parse_open_access(json.dumps(answer)) == ("", "")
    assert europepmc.parse_open_access(read("europepmc/search_no_results.json")) == ("", "")


NAMES = st.sampled_from(
    ["is_oa", "best_oa_location", "oa_locations", "url_for_pdf", "pdf_url", "openAccessPdf",
     "url", "resultList", "result", "pmcid", "license", "isOpenAccess", "inEPMC", "locations",
     "data", "key", "itemType", "parentItem", "contentType", "linkMode", "extra", "DOI"]
)  # fmt: skip
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(NAMES, children, max_size=5),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_any_answer_is_read_or_refused(value: object) -> None:
    body = json.dumps(value)
    for parse in (
        unpaywall.parse_copies,
        openalex.parse_copies,
        semantic_scholar.parse_copies,
        europepmc.parse_open_access,
    ):
        with contextlib.suppress(ValueError):
            parse(body)
    if isinstance(value, list):
        items_from_api(value)  # the local API's list, whatever its items hold


XML = st.lists(
    st.sampled_from(["<article>", "</article>", "<body>", "</body>", "<sec>", "</sec>",
                     "<title>", "</title>", "<p>", "</p>", "<list>", "</list>", "<ref-list>",
                     "text ", "&amp;", "<", "&", "<fig><caption><p>x</p></caption></fig>",
                     '<abstract abstract-type="graphical">', "</abstract>"]),
    max_size=40,
).map("".join)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(XML)
def test_any_xml_is_full_text_or_refused(xml: str) -> None:
    try:
        text = jats_to_markdown(xml)
    except NotFullTextError:
        return
    assert text.endswith("\n")
