"""PubMed, Europe PMC, OpenAlex, Semantic Scholar, DBLP and Unpaywall parsers on recorded bodies."""

from __future__ import annotations

import json

from citecore.model import Person
from citecore.registries import dblp, europepmc, openalex, pubmed, semantic_scholar, unpaywall
from citecore.registries.record import Update
from tests.emulator import recorded


def read(name: str) -> str:
    return recorded(name).read_text(encoding="utf-8")


def test_pubmed_summary() -> None:
    (record,) = pubmed.parse_summary(read("pubmed/esummary_pubmed_27933103_retmode_json.json"))
    assert record.title.startswith("Programmatic conversion of crystal structures")
    assert record.authors[0] == Person("Scalfani", "VF")
    assert (record.year, record.doi, record.pmid) == (2016, "10.1186/s13321-016-0181-z", "27933103")
    assert record.venue == "Journal of cheminformatics"


def test_pubmed_retracted_publication_type_built_from_the_documented_shape() -> None:
    """No recorded summary of a retracted article exists; the real one gets the documented
    publication type added."""
    data = json.loads(read("pubmed/esummary_pubmed_27933103_retmode_json.json"))
    data["result"]["27933103"]["pubtype"].append("Retracted Publication")
    (record,) = pubmed.parse_summary(json.dumps(data))
    assert Update.RETRACTION in record.updates


def test_pubmed_search_ids() -> None:
    ids = pubmed.parse_search(read("pubmed/esearch_pubmed_term_darwin_au_retmode_json.json"))
    assert ids and all(i.isdigit() for i in ids)


def test_europepmc_search() -> None:
    records = europepmc.parse_search(read("europepmc/search_cancer_core.json"))
    first = records[0]
    assert first.title.startswith("Abscopal response in a patient")
    assert first.authors[0] == Person("Schoenfeld", "Jonathan D")
    assert first.pmid == "39709209" and first.doi == "10.1016/s0140-6736(24)02600-x"
    assert europepmc.parse_search(read("europepmc/search_no_results.json")) == []


def test_openalex_work() -> None:
    record = openalex.parse_work(read("openalex/works_doi_10.1073_pnas.1414271111.json"))
    assert record.doi == "10.1073/pnas.1414271111"
    assert record.year == 2014
    assert record.venue == "Proceedings of the National Academy of Sciences"
    assert record.authors[0] == Person("Makris", "Eleftherios")
    assert record.updates == frozenset()
    retracted = json.loads(read("openalex/works_doi_10.1073_pnas.1414271111.json"))
    retracted["is_retracted"] = True  # the documented flag; no retracted work was recorded
    assert openalex.parse_work(json.dumps(retracted)).updates == frozenset({Update.RETRACTION})


def test_openalex_title_search() -> None:
    (record,) = openalex.parse_search(read("openalex/works_filter_title.search_paperqa.json"))
    assert record.title.startswith("PaperQA: Retrieval-Augmented Generative Agent")
    assert record.doi == "10.48550/arxiv.2312.07559" and record.year == 2023


def test_semantic_scholar_match() -> None:
    (record,) = semantic_scholar.parse_match(
        read("semantic_scholar/paper_search_match_copper_thin_film_full_fields.json")
    )
    assert record.title.startswith("Effect of native oxide layers on copper thin-film")
    assert record.doi == "10.1063/1.4938384" and record.year == 2015
    assert record.authors[1] == Person("Quesnel", "D.")


def test_dblp_hits() -> None:
    hits = json.loads(
        read("dblp/search_publ_hits_only_deep_residual_learning_for_image_recognition.json")
    )
    records = dblp.parse_hits(hits)
    assert any(r.title == "Deep Residual Learning for Image Recognition" for r in records)
    assert all(not r.authors or r.authors[0].family for r in records)


def test_dblp_fields_given_as_lists() -> None:
    # A hit's repeated fields come as lists (a paper in two venues, several `ee` links): the
    # first is the venue and the link, never the list's text.
    hit = {
        "info": {
            "title": "A Paper in Two Venues.",
            "venue": ["ACL (1)", "ACL"],
            "ee": ["https://doi.org/10.18653/v1/x", "https://arxiv.org/abs/2001.00001"],
            "year": "2020",
            "type": "Conference and Workshop Papers",
        }
    }
    (record,) = dblp.parse_hits([hit])
    assert (record.venue, record.venue_names) == ("ACL (1)", ("ACL",))
    assert record.url == "https://doi.org/10.18653/v1/x" and not record.is_preprint
    (preprint,) = dblp.parse_hits([{"info": {"title": "T", "venue": "CoRR"}}])
    assert preprint.is_preprint and preprint.venue == "CoRR"


def test_unpaywall() -> None:
    url = unpaywall.parse_oa_url(read("unpaywall/v2_10.1073_pnas.1414271111.json"))
    assert url == "https://www.pnas.org/content/pnas/111/45/E4832.full.pdf"
