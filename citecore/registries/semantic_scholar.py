"""Semantic Scholar Graph API `/paper/search/match`: the best title match (needs `S2_API_KEY`
to be used routinely; without a key only as a last resort, at 1 request per second)."""

from __future__ import annotations

import json
from typing import Any

from citecore.bib.names import parse_display_name
from citecore.identifiers import normalize_arxiv
from citecore.model import Person, Source
from citecore.registries.answers import answer_parser
from citecore.registries.record import OpenAccessCopy, WorkRecord
from citecore.registries.registry import (
    Identity,
    Keyless,
    Registry,
    Signature,
    SourcePolicy,
    TitleSearch,
)
from citecore.registries.request import RegistryRequest, quote_doi

_FIELDS = "title,authors,year,venue,externalIds,publicationTypes"


def match_request(title: str) -> RegistryRequest:
    """The paper whose title best matches."""
    return RegistryRequest(
        Source.SEMANTICSCHOLAR,
        "/graph/v1/paper/search/match",
        (("query", title), ("fields", _FIELDS)),
    )


def _person(author: dict[str, Any]) -> Person:
    return parse_display_name(str(author.get("name", "")))


@answer_parser
def parse_match(body: str) -> list[WorkRecord]:
    """The matched paper, or none ("Title match not found" answers 404, handled upstream)."""
    records = []
    for item in json.loads(body).get("data") or []:
        ids = item.get("externalIds") or {}
        records.append(
            WorkRecord(
                source=Source.SEMANTICSCHOLAR,
                title=" ".join(str(item.get("title", "")).split()),
                authors=tuple(_person(a) for a in item.get("authors") or []),
                year=item.get("year"),
                venue=str(item.get("venue") or ""),
                doi=str(ids.get("DOI", "")).lower(),
                arxiv_id=normalize_arxiv(str(ids.get("ArXiv", ""))),
                pmid=str(ids.get("PubMed", "")),
            )
        )
    return records


def open_access_request(doi: str = "", arxiv_id: str = "") -> RegistryRequest:
    """The open-access PDF Semantic Scholar knows for a DOI (else an arXiv id)."""
    paper = f"DOI:{quote_doi(doi)}" if doi else f"ARXIV:{arxiv_id}"
    return RegistryRequest(
        Source.SEMANTICSCHOLAR, f"/graph/v1/paper/{paper}", (("fields", "openAccessPdf"),)
    )


@answer_parser
def parse_copies(body: str) -> tuple[OpenAccessCopy, ...]:
    """The paper's `openAccessPdf`, if it names one."""
    pdf = json.loads(body).get("openAccessPdf") or {}
    url = str(pdf.get("url") or "")
    return (
        (OpenAccessCopy(Source.SEMANTICSCHOLAR, url, license=str(pdf.get("license") or "")),)
        if url
        else ()
    )


def _keyed(identity: Identity) -> Signature:
    key = identity.api_keys.get(KEY_VARIABLE)
    return Signature(headers=(("x-api-key", key),) if key else ())


TITLE_SEARCH = TitleSearch(match_request, parse_match, without_key=Keyless.LAST_RESORT)
KEY_VARIABLE = "S2_API_KEY"
REGISTRY = Registry(
    Source.SEMANTICSCHOLAR,
    "https://api.semanticscholar.org",
    SourcePolicy(1.0, 1),
    key_variable=KEY_VARIABLE,
    sign=_keyed,
    title_search=TITLE_SEARCH,
)
