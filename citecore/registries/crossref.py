"""Crossref REST API: `/works/{doi}` and bibliographic search.

Etiquette (https://api.crossref.org/swagger-ui/index.html, "Etiquette"): identify with `mailto`
to use the polite pool; at most 10 requests per second and 3 at a time; obey the
`x-rate-limit-*` headers and `Retry-After`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from citecore.model import Person, Source
from citecore.registries.answers import answer_parser
from citecore.registries.record import Update, WorkRecord
from citecore.registries.registry import (
    DoiLookup,
    Identity,
    Registry,
    Signature,
    SourcePolicy,
    TitleSearch,
)
from citecore.registries.request import RegistryRequest, quote_doi

_UPDATES = {
    "retraction": Update.RETRACTION,
    "removal": Update.WITHDRAWAL,
    "withdrawal": Update.WITHDRAWAL,
    "expression_of_concern": Update.EXPRESSION_OF_CONCERN,
    "expression-of-concern": Update.EXPRESSION_OF_CONCERN,
    "correction": Update.CORRECTION,
}
_DATE_FIELDS = ("issued", "published-print", "published-online", "published", "created")


def work_request(doi: str) -> RegistryRequest:
    """The Crossref record of one DOI."""
    return RegistryRequest(Source.CROSSREF, f"/works/{quote_doi(doi)}")


def search_request(title: str, author: str = "", rows: int = 5) -> RegistryRequest:
    """A bibliographic search by title (and first author's family name, when known)."""
    params = [("query.bibliographic", title), ("rows", str(rows))]
    if author:
        params.append(("query.author", author))
    return RegistryRequest(Source.CROSSREF, "/works", tuple(params))


def _first(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(str(value[0]).split()) if value else ""
    return " ".join(str(value).split()) if value else ""


def _year(item: Mapping[str, Any]) -> int | None:
    for name in _DATE_FIELDS:
        parts = (item.get(name) or {}).get("date-parts") or [[None]]
        if parts and parts[0] and isinstance(parts[0][0], int):
            return int(parts[0][0])
    return None


def _authors(item: Mapping[str, Any]) -> tuple[Person, ...]:
    people = []
    for author in item.get("author") or ():
        if author.get("family"):
            people.append(Person(family=author["family"], given=author.get("given", "")))
        elif author.get("name"):
            people.append(Person(family=author["name"], is_organization=True))
    return tuple(people)


def _updates(item: Mapping[str, Any]) -> frozenset[Update]:
    """Notices about this work: `updated-by` lists them on the work itself. (`update-to` sits on
    the notice and points at the work it updates, so it says nothing about this record.)"""
    found = set()
    for notice in item.get("updated-by") or ():
        update = _UPDATES.get(str(notice.get("type", "")).lower())
        if update is not None:
            found.add(update)
    return frozenset(found)


@answer_parser
def parse_item(item: Mapping[str, Any]) -> WorkRecord:
    """One Crossref work (a `message`, or an item of a search) as a WorkRecord."""
    relation = item.get("relation") or {}
    related = tuple(
        str(r["id"]).lower()
        for name in ("is-preprint-of", "has-preprint")
        for r in relation.get(name) or ()
        if r.get("id-type") == "doi"
    )
    subtype = str(item.get("subtype", ""))
    event = item.get("event") or {}
    names = [*(item.get("container-title") or ())[1:], *(item.get("short-container-title") or ())]
    names += [str(event[k]) for k in ("name", "acronym") if event.get(k)]
    return WorkRecord(
        source=Source.CROSSREF,
        title=_first(item.get("title")),
        authors=_authors(item),
        year=_year(item),
        venue=_first(item.get("container-title")) or _first(event.get("name")),
        venue_names=tuple(dict.fromkeys(" ".join(str(n).split()) for n in names if n)),
        doi=str(item.get("DOI", "")).lower(),
        url=str(item.get("URL", "")),
        work_type=str(item.get("type", "")),
        is_preprint=subtype == "preprint" or item.get("type") == "posted-content",
        updates=_updates(item),
        related_dois=related,
        abstract=" ".join(re.sub(r"<[^>]+>", " ", str(item.get("abstract") or "")).split()),
    )


@answer_parser
def parse_work(body: str) -> WorkRecord:
    """A `/works/{doi}` response body."""
    return parse_item(json.loads(body)["message"])


@answer_parser
def parse_search(body: str) -> list[WorkRecord]:
    """A `/works?query…` response body: its items, best first."""
    return [parse_item(item) for item in json.loads(body)["message"].get("items", [])]


def _polite(identity: Identity) -> Signature:
    """The polite pool: `mailto` names the sender."""
    return Signature((("mailto", identity.email),) if identity.email else ())


TITLE_SEARCH = TitleSearch(search_request, parse_search, request_with_author=search_request)
DOI_LOOKUP = DoiLookup(work_request, parse_work)
REGISTRY = Registry(
    Source.CROSSREF,
    "https://api.crossref.org",
    SourcePolicy(10.0, 3),
    sign=_polite,
    title_search=TITLE_SEARCH,
    doi_lookup=DOI_LOOKUP,
)
