"""doi.org: which registration agency a DOI belongs to (`/ra/{doi}`), the start of DOI routing.

The answer is a list with one object per DOI: `{"DOI", "RA"}`, or `{"DOI", "status": "DOI does not
exist"}` (and "Invalid DOI"). doi.org and DataCite ask for at most 1,000 requests per 5 minutes.
"""

from __future__ import annotations

import json
from enum import Enum

from citecore.model import Source
from citecore.registries.answers import answer_parser
from citecore.registries.registry import Registry, SourcePolicy
from citecore.registries.request import RegistryRequest, quote_doi


class Agency(Enum):
    """Registration agencies that matter for metadata; OTHER has no metadata API we use."""

    CROSSREF = "crossref"
    DATACITE = "datacite"
    OTHER = "other"
    NONE = "none"  # the DOI does not exist


def agency_request(doi: str) -> RegistryRequest:
    """The registration agency of one DOI."""
    return RegistryRequest(Source.DOI, f"/ra/{quote_doi(doi)}")


@answer_parser
def parse_agency(body: str) -> Agency:
    """The agency named by a `/ra/` answer; NONE when doi.org says the DOI does not exist."""
    entries = json.loads(body)
    entry = entries[0] if isinstance(entries, list) and entries else {}
    agency = str(entry.get("RA", "")).lower()
    if not agency:
        return Agency.NONE
    return {"crossref": Agency.CROSSREF, "datacite": Agency.DATACITE}.get(agency, Agency.OTHER)


def alias_request(short_doi: str) -> RegistryRequest:
    """The DOI a shortDOI (`10/bqhp9z`) stands for, from doi.org's handle API."""
    return RegistryRequest(
        Source.DOI, f"/api/handles/{quote_doi(short_doi.lower())}", (("type", "HS_ALIAS"),)
    )


@answer_parser
def parse_alias(body: str) -> str:
    """The DOI named by a handle answer's `HS_ALIAS` value; "" when the handle does not exist
    (response code 100) or names no DOI."""
    answer = json.loads(body)
    if not isinstance(answer, dict) or answer.get("responseCode") != 1:
        return ""
    for value in answer.get("values") or ():
        data = value.get("data") if isinstance(value, dict) else None
        if value.get("type") == "HS_ALIAS" and isinstance(data, dict):
            return str(data.get("value", "")).strip()
    return ""


REGISTRY = Registry(Source.DOI, "https://doi.org", SourcePolicy(1000 / 300, 3))
