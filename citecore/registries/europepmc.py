"""Europe PMC REST search (`/europepmc/webservices/rest/search`), by title.

Europe PMC asks for at most 2 requests per second and `Retry-After` to be obeyed.
"""

from __future__ import annotations

import json
import re
from typing import Any

from citecore.model import Person, Source
from citecore.registries.answers import answer_parser
from citecore.registries.record import WorkRecord
from citecore.registries.registry import Registry, SourcePolicy, TitleSearch
from citecore.registries.request import RegistryRequest

_SEARCH = "/europepmc/webservices/rest/search"


def search_request(title: str, rows: int = 5) -> RegistryRequest:
    """Works whose title matches the cited title as a phrase."""
    words = " ".join(re.sub(r'["\\]', " ", title).split())
    return RegistryRequest(
        Source.EUROPEPMC,
        _SEARCH,
        (
            ("query", f'TITLE:"{words}"'),
            ("format", "json"),
            ("resultType", "core"),
            ("pageSize", str(rows)),
        ),
    )


def _authors(item: dict[str, Any]) -> tuple[Person, ...]:
    people = []
    for author in (item.get("authorList") or {}).get("author", []):
        if author.get("lastName"):
            people.append(Person(author["lastName"], author.get("firstName", "")))
        elif author.get("collectiveName"):
            people.append(Person(author["collectiveName"], is_organization=True))
    return tuple(people)


@answer_parser
def parse_search(body: str) -> list[WorkRecord]:
    """The results of a search answer."""
    records = []
    for item in (json.loads(body).get("resultList") or {}).get("result", []):
        year = str(item.get("pubYear", ""))
        journal_info = (item.get("journalInfo") or {}).get("journal") or {}
        journal = journal_info.get("title", "")
        short = (journal_info.get(k) for k in ("isoabbreviation", "medlineAbbreviation"))
        records.append(
            WorkRecord(
                source=Source.EUROPEPMC,
                title=" ".join(str(item.get("title", "")).split()).rstrip("."),
                authors=_authors(item),
                year=int(year) if year.isdigit() else None,
                venue=str(journal or item.get("journalTitle", "")),
                venue_names=tuple(dict.fromkeys(str(name) for name in short if name)),
                doi=str(item.get("doi", "")).lower(),
                pmid=str(item.get("pmid", "")),
                work_type=str(item.get("pubType", "")),
                is_preprint=item.get("source") == "PPR",
            )
        )
    return records


def open_access_request(doi: str = "", pmid: str = "") -> RegistryRequest:
    """The Europe PMC record of one DOI (else PMID): whether its full text is open."""
    query = f'DOI:"{doi}"' if doi else f"EXT_ID:{pmid} AND SRC:MED"
    return RegistryRequest(
        Source.EUROPEPMC,
        _SEARCH,
        (("query", query), ("format", "json"), ("resultType", "core"), ("pageSize", "1")),
    )


def full_text_path(pmcid: str) -> str:
    """The API path of an open-access article's full text (JATS XML)."""
    return f"/europepmc/webservices/rest/{pmcid}/fullTextXML"


@answer_parser
def parse_open_access(body: str) -> tuple[str, str]:
    """(PMCID, licence) of the first hit when its full text is open access in Europe PMC, else
    ("", "")."""
    hits = (json.loads(body).get("resultList") or {}).get("result") or []
    for hit in hits[:1]:
        pmcid = str(hit.get("pmcid") or "")
        if pmcid and hit.get("isOpenAccess") == "Y" and hit.get("inEPMC") == "Y":
            return pmcid, str(hit.get("license") or "")
    return "", ""


TITLE_SEARCH = TitleSearch(search_request, parse_search)
REGISTRY = Registry(
    Source.EUROPEPMC,
    "https://www.ebi.ac.uk",
    SourcePolicy(2.0, 2),
    title_search=TITLE_SEARCH,
)
