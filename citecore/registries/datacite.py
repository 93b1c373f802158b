"""DataCite REST API `/dois/{doi}`: arXiv's `10.48550` DOIs, Zenodo, figshare, Dryad, PANGAEA."""

from __future__ import annotations

import json
from typing import Any

from citecore.identifiers import arxiv_from_doi
from citecore.model import Person, Source
from citecore.registries.answers import answer_parser
from citecore.registries.record import WorkRecord
from citecore.registries.registry import DoiLookup, Registry, SourcePolicy
from citecore.registries.request import RegistryRequest, quote_doi


def work_request(doi: str) -> RegistryRequest:
    """The DataCite record of one DOI."""
    return RegistryRequest(Source.DATACITE, f"/dois/{quote_doi(doi)}")


def _person(creator: dict[str, Any]) -> Person:
    if creator.get("nameType") == "Organizational" or not creator.get("familyName"):
        name = str(creator.get("name", ""))
        if "," in name and creator.get("nameType") != "Organizational":
            family, given = (part.strip() for part in name.split(",", 1))
            return Person(family=family, given=given)
        return Person(family=name, is_organization=creator.get("nameType") == "Organizational")
    return Person(family=creator["familyName"], given=creator.get("givenName", ""))


@answer_parser
def parse_work(body: str) -> WorkRecord:
    """A `/dois/{doi}` response body."""
    attributes = json.loads(body)["data"]["attributes"]
    titles = attributes.get("titles") or [{}]
    doi = str(attributes.get("doi", "")).lower()
    types = attributes.get("types") or {}
    year = attributes.get("publicationYear")
    container = attributes.get("container") or {}
    return WorkRecord(
        source=Source.DATACITE,
        title=" ".join(str(titles[0].get("title", "")).split()),
        authors=tuple(_person(c) for c in attributes.get("creators") or ()),
        year=int(year) if str(year or "").isdigit() else None,
        venue=str(container.get("title", "")),
        doi=doi,
        arxiv_id=arxiv_from_doi(doi),
        url=str(attributes.get("url", "")),
        work_type=str(types.get("resourceTypeGeneral", "")),
        is_preprint=types.get("resourceTypeGeneral") == "Preprint",
    )


DOI_LOOKUP = DoiLookup(work_request, parse_work)
# DataCite asks for at most 1,000 requests per 5 minutes.
REGISTRY = Registry(
    Source.DATACITE,
    "https://api.datacite.org",
    SourcePolicy(1000 / 300, 3),
    doi_lookup=DOI_LOOKUP,
)
