"""DBLP publication search (`/search/publ/api`), for computer science titles; optional."""

from __future__ import annotations

import json
import re
from typing import Any

from citecore.bib.names import parse_display_name
from citecore.model import Person, Source
from citecore.registries.answers import answer_parser
from citecore.registries.record import WorkRecord
from citecore.registries.registry import Registry, SourcePolicy, TitleSearch
from citecore.registries.request import RegistryRequest


def search_request(title: str, rows: int = 5) -> RegistryRequest:
    """Publications matching the title's words."""
    words = " ".join(re.sub(r"[^\w\s-]", " ", title).split())
    return RegistryRequest(
        Source.DBLP, "/search/publ/api", (("q", words), ("format", "json"), ("h", str(rows)))
    )


def _authors(info: dict[str, Any]) -> tuple[Person, ...]:
    authors = (info.get("authors") or {}).get("author") or []
    if isinstance(authors, dict):
        authors = [authors]
    people = []
    for author in authors:
        name = author.get("text", "") if isinstance(author, dict) else str(author)
        people.append(parse_display_name(name))  # DBLP's "0001" is read off there
    return tuple(people)


def _listed(value: Any) -> list[str]:
    """A field DBLP gives as one value, or as a list where the record has several (a paper
    in two venues, several `ee` links)."""
    values = value if isinstance(value, list) else [value] if value else []
    return [" ".join(str(v).split()) for v in values if v]


@answer_parser
def parse_hits(hits: list[dict[str, Any]]) -> list[WorkRecord]:
    """Records from DBLP `hit` objects."""
    records = []
    for hit in hits:
        info = hit.get("info") or {}
        year = str(info.get("year", ""))
        venues = _listed(info.get("venue"))
        links = [*_listed(info.get("ee")), *_listed(info.get("url"))]
        records.append(
            WorkRecord(
                source=Source.DBLP,
                title=" ".join(str(info.get("title", "")).split()).rstrip("."),
                authors=_authors(info),
                year=int(year) if year.isdigit() else None,
                venue=venues[0] if venues else "",
                venue_names=tuple(venues[1:]),
                doi=str(info.get("doi", "")).lower(),
                url=links[0] if links else "",
                work_type=str(info.get("type", "")),
                is_preprint=venues == ["CoRR"],
            )
        )
    return records


@answer_parser
def parse_search(body: str) -> list[WorkRecord]:
    """A search answer (the full envelope)."""
    hits = ((json.loads(body).get("result") or {}).get("hits") or {}).get("hit") or []
    return parse_hits(hits)


TITLE_SEARCH = TitleSearch(search_request, parse_search)
# dblp's FAQ: "You should always be fine when waiting for at least one or two second between two
# consecutive requests"; excess is answered 429 with Retry-After.
REGISTRY = Registry(
    Source.DBLP,
    "https://dblp.org",
    SourcePolicy(1.0, 1),
    title_search=TITLE_SEARCH,
)
