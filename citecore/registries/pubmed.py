"""PubMed through NCBI E-utilities: `esummary` by PMID (JSON) and `esearch` by title.

Usage policy (https://www.ncbi.nlm.nih.gov/books/NBK25497/): at most 3 requests per second, 10
with an API key; send `tool` and `email` (the HTTP layer adds them).
"""

from __future__ import annotations

import json
import re
from typing import Any

from citecore.model import Person, Source
from citecore.registries.answers import answer_parser
from citecore.registries.record import Update, WorkRecord
from citecore.registries.registry import Identity, Registry, Signature, SourcePolicy
from citecore.registries.request import RegistryRequest

_EUTILS = "/entrez/eutils"
_NOTICES = {
    "retracted publication": Update.RETRACTION,
    "expression of concern": Update.EXPRESSION_OF_CONCERN,
}


def summary_request(pmid: str) -> RegistryRequest:
    """The document summary of one PMID."""
    return RegistryRequest(
        Source.PUBMED,
        f"{_EUTILS}/esummary.fcgi",
        (("db", "pubmed"), ("id", pmid), ("retmode", "json")),
    )


def search_request(title: str, rows: int = 5) -> RegistryRequest:
    """PMIDs whose title matches (`[ti]`)."""
    words = " ".join(re.sub(r"[^\w\s-]", " ", title).split())
    return RegistryRequest(
        Source.PUBMED,
        f"{_EUTILS}/esearch.fcgi",
        (("db", "pubmed"), ("term", f"{words}[ti]"), ("retmode", "json"), ("retmax", str(rows))),
    )


def _person(author: dict[str, Any]) -> Person:
    """ "Scalfani VF" → family Scalfani, initials VF; collective names are organisations."""
    name = " ".join(str(author.get("name", "")).split())
    if author.get("authtype") == "CollectiveName":
        return Person(family=name, is_organization=True)
    family, _, initials = name.rpartition(" ")
    if family and re.fullmatch(r"[A-Z]{1,4}", initials):
        return Person(family=family, given=initials)
    return Person(family=name)


@answer_parser
def parse_summary(body: str) -> list[WorkRecord]:
    """The records of an esummary JSON answer (none for an unknown PMID)."""
    result = json.loads(body).get("result") or {}
    records = []
    for uid in result.get("uids", []):
        item = result.get(uid) or {}
        if item.get("error") or not item.get("title"):
            continue
        ids = {a.get("idtype"): a.get("value", "") for a in item.get("articleids", [])}
        year = re.match(r"\d{4}", str(item.get("pubdate", "")))
        types = {str(t).lower() for t in item.get("pubtype", [])}
        records.append(
            WorkRecord(
                source=Source.PUBMED,
                title=" ".join(str(item["title"]).split()).rstrip("."),
                authors=tuple(_person(a) for a in item.get("authors", [])),
                year=int(year.group(0)) if year else None,
                venue=str(item.get("fulljournalname") or item.get("source") or ""),
                venue_names=(str(item["source"]),) if item.get("source") else (),
                doi=str(ids.get("doi", "")).lower(),
                pmid=str(uid),
                url=f"https://pubmed.ncbi.nlm.nih.gov/{uid}/",
                work_type=", ".join(sorted(types)),
                updates=frozenset(u for name, u in _NOTICES.items() if name in types),
            )
        )
    return records


@answer_parser
def parse_search(body: str) -> list[str]:
    """The PMIDs an esearch JSON answer lists."""
    return [str(pmid) for pmid in json.loads(body)["esearchresult"].get("idlist", [])]


def _identified(identity: Identity) -> Signature:
    """`tool` always, `email` when known, and the key that lifts the limit to 10 a second."""
    params = [("tool", "citecheck")]
    if identity.email:
        params.append(("email", identity.email))
    if KEY_VARIABLE in identity.api_keys:
        params.append(("api_key", identity.api_keys[KEY_VARIABLE]))
    return Signature(tuple(params))


KEY_VARIABLE = "NCBI_API_KEY"
REGISTRY = Registry(
    Source.PUBMED,
    "https://eutils.ncbi.nlm.nih.gov",
    SourcePolicy(3.0, 3),
    key_variable=KEY_VARIABLE,
    keyed_policy=SourcePolicy(10.0, 3),
    sign=_identified,
)
