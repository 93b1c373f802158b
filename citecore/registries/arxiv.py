"""arXiv API (`/api/query`): records by id list, and title search.

Terms of use (https://info.arxiv.org/help/api/tou.html): no more than one request every three
seconds, one connection at a time.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from email.utils import parsedate_to_datetime
from typing import Any

from citecore.bib.names import parse_display_name
from citecore.model import Person, Source
from citecore.registries.answers import answer_parser
from citecore.registries.record import WorkRecord
from citecore.registries.registry import Registry, SourcePolicy, TitleSearch
from citecore.registries.request import RegistryRequest

_ATOM = "{http://www.w3.org/2005/Atom}"
_ARXIV = "{http://arxiv.org/schemas/atom}"


def id_request(arxiv_id: str) -> RegistryRequest:
    """The record of one arXiv id (with or without version)."""
    return RegistryRequest(
        Source.ARXIV,
        "/api/query",
        (("id_list", arxiv_id), ("max_results", "1")),
        accept="application/atom+xml",
    )


def search_request(title: str, rows: int = 5) -> RegistryRequest:
    """A title search (`ti:` with the title's words as a phrase)."""
    words = " ".join(re.sub(r"[^\w\s-]", " ", title).split())
    return RegistryRequest(
        Source.ARXIV,
        "/api/query",
        (("search_query", f'ti:"{words}"'), ("max_results", str(rows))),
        accept="application/atom+xml",
    )


def _name(author: ElementTree.Element) -> Person:
    return parse_display_name(author.findtext(f"{_ATOM}name") or "")


def _entry(entry: ElementTree.Element) -> WorkRecord:
    identifier = entry.findtext(f"{_ATOM}id") or ""
    arxiv_id = re.sub(r"^https?://arxiv\.org/abs/", "", identifier)
    published = entry.findtext(f"{_ATOM}published") or ""
    doi = entry.findtext(f"{_ARXIV}doi") or ""
    return WorkRecord(
        source=Source.ARXIV,
        title=" ".join((entry.findtext(f"{_ATOM}title") or "").split()),
        authors=tuple(_name(a) for a in entry.findall(f"{_ATOM}author")),
        year=int(published[:4]) if published[:4].isdigit() else None,
        venue=" ".join((entry.findtext(f"{_ARXIV}journal_ref") or "").split()),
        doi=doi.lower(),
        arxiv_id=arxiv_id,
        url=f"https://arxiv.org/abs/{arxiv_id}" if arxiv_id else "",
        work_type="preprint",
        is_preprint=True,
        abstract=" ".join((entry.findtext(f"{_ATOM}summary") or "").split()),
    )


def parse_metadata(data: dict[str, Any]) -> WorkRecord:
    """One work of arXiv's metadata snapshot (the JSON-lines file arXiv publishes: `id`,
    `title`, `authors_parsed`, `versions`, `doi`, `journal-ref`, `abstract` …), as the API's
    record of it reads: the year of its first version, the published version's DOI and
    journal reference. ValueError for an object that is no such work."""
    arxiv_id = str(data.get("id") or "")
    parsed = data.get("authors_parsed")
    if not arxiv_id or not isinstance(parsed, list):
        raise ValueError("not a work of arXiv's metadata snapshot")
    authors = tuple(
        Person(family=str(name[0]).strip(), given=str(name[1]).strip() if len(name) > 1 else "")
        for name in parsed
        if isinstance(name, list) and name and str(name[0]).strip()
    )
    versions = data.get("versions") or []
    created = versions[0].get("created", "") if versions and isinstance(versions[0], dict) else ""
    try:
        year: int | None = parsedate_to_datetime(created).year if created else None
    except (TypeError, ValueError):
        year = None
    return WorkRecord(
        source=Source.ARXIV,
        title=" ".join(str(data.get("title") or "").split()),
        authors=authors,
        year=year,
        venue=" ".join(str(data.get("journal-ref") or "").split()),
        doi=str(data.get("doi") or "").split()[0].lower() if data.get("doi") else "",
        arxiv_id=arxiv_id,
        url=f"https://arxiv.org/abs/{arxiv_id}",
        work_type="preprint",
        is_preprint=True,
        # No abstract: a snapshot answers verification, and 2.5 million abstracts would
        # double its size.
    )


@answer_parser
def parse_feed(body: str) -> list[WorkRecord]:
    """The entries of an Atom feed (an error feed has none with an arXiv id)."""
    root = ElementTree.fromstring(body)
    records = [_entry(e) for e in root.findall(f"{_ATOM}entry")]
    return [r for r in records if r.arxiv_id and "api/errors" not in r.arxiv_id]


TITLE_SEARCH = TitleSearch(search_request, parse_feed)
# arXiv's API terms: one request every three seconds, on a single connection.
REGISTRY = Registry(
    Source.ARXIV,
    "https://export.arxiv.org",
    SourcePolicy(1 / 3, 1),
    title_search=TITLE_SEARCH,
)
