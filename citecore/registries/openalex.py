"""OpenAlex works by DOI (cheap, no key needed) — the source of `is_retracted`.

OpenAlex asks for at most 10 requests per second; title search needs `OPENALEX_API_KEY`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from citecore.bib.names import parse_display_name
from citecore.model import Person, Source
from citecore.registries.answers import answer_parser
from citecore.registries.record import OpenAccessCopy, Update, WorkRecord
from citecore.registries.registry import (
    DoiLookup,
    Identity,
    Keyless,
    Registry,
    Signature,
    SourcePolicy,
    TitleSearch,
)
from citecore.registries.request import RegistryRequest, quote_doi


def work_request(doi: str) -> RegistryRequest:
    """The OpenAlex work of one DOI."""
    return RegistryRequest(Source.OPENALEX, f"/works/doi:{quote_doi(doi)}")


def _person(authorship: dict[str, Any]) -> Person:
    return parse_display_name(str((authorship.get("author") or {}).get("display_name", "")))


def search_request(title: str, rows: int = 5) -> RegistryRequest:
    """Works whose title matches (`filter=title.search:`; needs `OPENALEX_API_KEY`)."""
    words = " ".join(re.sub(r"[,:|]", " ", title).split())
    return RegistryRequest(
        Source.OPENALEX, "/works", (("filter", f"title.search:{words}"), ("per-page", str(rows)))
    )


@answer_parser
def parse_search(body: str) -> list[WorkRecord]:
    """The results of a works list answer."""
    return [_record(item) for item in json.loads(body).get("results", [])]


@answer_parser
def parse_work(body: str) -> WorkRecord:
    """A work answer."""
    return _record(json.loads(body))


def _record(item: dict[str, Any]) -> WorkRecord:
    source = (item.get("primary_location") or {}).get("source") or {}
    doi = str(item.get("doi") or "").lower().removeprefix("https://doi.org/")
    open_access = (item.get("open_access") or {}).get("oa_url") or ""
    return WorkRecord(
        source=Source.OPENALEX,
        title=" ".join(str(item.get("title") or item.get("display_name") or "").split()),
        authors=tuple(_person(a) for a in item.get("authorships", [])),
        year=item.get("publication_year"),
        venue=str(source.get("display_name") or ""),
        venue_names=tuple(
            str(name)
            for name in (source.get("abbreviated_title"), *(source.get("alternate_titles") or ()))
            if name
        ),
        doi=doi,
        url=str(open_access),
        work_type=str(item.get("type", "")),
        is_preprint=item.get("type") == "preprint",
        updates=frozenset({Update.RETRACTION}) if item.get("is_retracted") else frozenset(),
        abstract=_abstract(item.get("abstract_inverted_index")),
    )


def _abstract(inverted: Any) -> str:
    """OpenAlex's inverted-index abstract as text."""
    if not isinstance(inverted, dict):
        return ""
    positions = sorted((p, word) for word, places in inverted.items() for p in places)
    return " ".join(word for _, word in positions)


@answer_parser
def parse_copies(body: str) -> tuple[OpenAccessCopy, ...]:
    """The work's open-access PDFs: `best_oa_location` first, then every other open location
    that names a PDF."""
    item = json.loads(body)
    locations = [item.get("best_oa_location") or {}, *(item.get("locations") or [])]
    copies: dict[str, OpenAccessCopy] = {}
    for location in locations:
        url = str((location or {}).get("pdf_url") or "")
        if url and location.get("is_oa") and url not in copies:
            copies[url] = OpenAccessCopy(
                Source.OPENALEX,
                url,
                license=str(location.get("license") or ""),
                version=str(location.get("version") or ""),
            )
    return tuple(copies.values())


def _identified(identity: Identity) -> Signature:
    params = []
    if KEY_VARIABLE in identity.api_keys:
        params.append(("api_key", identity.api_keys[KEY_VARIABLE]))
    if identity.email:
        params.append(("mailto", identity.email))
    return Signature(tuple(params))


TITLE_SEARCH = TitleSearch(search_request, parse_search, without_key=Keyless.NEVER)
DOI_LOOKUP = DoiLookup(work_request, parse_work)
KEY_VARIABLE = "OPENALEX_API_KEY"
REGISTRY = Registry(
    Source.OPENALEX,
    "https://api.openalex.org",
    SourcePolicy(10.0, 5),
    key_variable=KEY_VARIABLE,
    sign=_identified,
    title_search=TITLE_SEARCH,
    doi_lookup=DOI_LOOKUP,
)
