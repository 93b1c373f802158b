"""Every recorded registry response in ../shared/fixtures/real/, read by the parser for its
endpoint: what a parser makes of a real answer always holds the same promises (a title as
plain text, a year a work can have, authors with family names, identifiers in their shape and
the one asked for), and a parser never raises anything but the errors its callers treat as
an unreadable answer."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from urllib.parse import unquote

import pytest

from citecore.identifiers import is_valid_arxiv, is_valid_doi
from citecore.model import Source
from citecore.registries import (
    arxiv,
    crossref,
    datacite,
    dblp,
    doi_org,
    europepmc,
    openalex,
    pubmed,
    semantic_scholar,
)
from citecore.registries.record import WorkRecord
from tests.paths import SHARED

REAL = SHARED / "fixtures" / "real"
INDEX = json.loads((REAL / "index.json").read_text(encoding="utf-8"))

Parser = Callable[[str], list[WorkRecord]]


def _one(parse: Callable[[str], WorkRecord]) -> Parser:
    return lambda body: [parse(body)]


# (service, URL pattern, parser, source the records name): the endpoints citecheck asks.
ENDPOINTS: tuple[tuple[str, str, Parser, Source], ...] = (
    ("crossref", r"api\.crossref\.org/works/10\.(?!.*/(?:transform|agency))",
     _one(crossref.parse_work), Source.CROSSREF),
    ("crossref", r"api\.crossref\.org/works\?", crossref.parse_search, Source.CROSSREF),
    ("openalex", r"api\.openalex\.org/works/https://doi\.org/[^?]+$", _one(openalex.parse_work),
     Source.OPENALEX),
    ("openalex", r"api\.openalex\.org/works\?filter=title\.search", openalex.parse_search,
     Source.OPENALEX),
    ("datacite", r"api\.datacite\.org/dois/10\.", _one(datacite.parse_work), Source.DATACITE),
    ("arxiv", r"export\.arxiv\.org/api/query", arxiv.parse_feed, Source.ARXIV),
    ("europepmc", r"europepmc/webservices/rest/search\?.*format=json.*", europepmc.parse_search,
     Source.EUROPEPMC),
    ("pubmed", r"esummary\.fcgi", pubmed.parse_summary, Source.PUBMED),
    ("semantic_scholar", r"/paper/search/match", semantic_scholar.parse_match,
     Source.SEMANTICSCHOLAR),
)  # fmt: skip


def _cases() -> list[tuple[str, Parser, Source, str]]:
    cases = []
    for entry in INDEX:
        if entry["status"] != 200 or entry["method"] != "GET":
            continue
        for service, pattern, parse, source in ENDPOINTS:
            if entry["file"].startswith(service + "/") and re.search(pattern, entry["url"]):
                cases.append((entry["file"], parse, source, entry["url"]))
                break
    return cases


CASES = _cases()


def test_the_sweep_covers_every_endpoint() -> None:
    covered = {(c[2], c[1]) for c in CASES}
    assert len(CASES) >= 60
    assert len(covered) == len(ENDPOINTS)


def _asked_doi(url: str) -> str:
    match = re.search(r"/(?:works|dois)/(?:https://doi\.org/)?(10\.[^?]+)", unquote(url))
    return match.group(1).lower() if match else ""


@pytest.mark.parametrize(("name", "parse", "source", "url"), CASES, ids=[c[0] for c in CASES])
def test_a_real_answer_reads_as_sound_records(
    name: str, parse: Parser, source: Source, url: str
) -> None:
    records = parse((REAL / name).read_text(encoding="utf-8", errors="replace"))
    for record in records:
        assert record.source is source
        assert isinstance(record.title, str) and record.title == record.title.strip()
        assert "<" not in record.title or "&lt;" not in record.title  # markup decoded once
        assert "\n" not in record.title
        assert record.year is None or 1600 <= record.year <= 2100
        for person in record.authors:
            assert person.family.strip(), f"an author without a family name: {person}"
        assert not record.doi or is_valid_doi(record.doi), record.doi
        assert not record.arxiv_id or is_valid_arxiv(record.arxiv_id), record.arxiv_id
    asked = _asked_doi(url)
    if asked and len(records) == 1:
        assert records[0].doi.lower() == asked, "the record of another DOI than the one asked"


@pytest.mark.parametrize(
    "name",
    [e["file"] for e in INDEX if e["file"].startswith("doi_org/") and "/ra/" in e["url"]],
)
def test_agency_answers(name: str) -> None:
    agency = doi_org.parse_agency((REAL / name).read_text(encoding="utf-8"))
    assert isinstance(agency, doi_org.Agency)


def test_dblp_hits_arrays_read_as_records() -> None:
    partial = [e for e in INDEX if e["file"].startswith("dblp/search_publ_hits_only")]
    assert partial
    for entry in partial:
        hits = json.loads((REAL / entry["file"]).read_text(encoding="utf-8"))
        records = dblp.parse_hits(hits)
        assert records and all(r.source is Source.DBLP and r.title for r in records)


@pytest.mark.parametrize(
    "parse",
    [crossref.parse_work, crossref.parse_search, openalex.parse_work, openalex.parse_search,
     datacite.parse_work, europepmc.parse_search, pubmed.parse_summary,
     semantic_scholar.parse_match, dblp.parse_search],
)  # fmt: skip
@pytest.mark.parametrize(
    "body", ["", "null", "[]", "{}", '{"message": null}', '{"data": []}', "<html>oops</html>",
             '{"message": {"items": [null]}}', '{"results": [{"title": 5}]}'],
)  # fmt: skip
def test_garbage_is_unreadable_never_a_crash(parse: Callable[[str], object], body: str) -> None:
    with contextlib.suppress(ValueError):  # the one error callers read as "unreadable"
        parse(body)


@pytest.mark.parametrize("body", ["", "<feed", "<html></html>", "<?xml version='1.0'?><x/>"])
def test_arxiv_garbage_is_no_record(body: str) -> None:
    with contextlib.suppress(ValueError):
        assert arxiv.parse_feed(body) == []
