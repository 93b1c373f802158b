"""Unpaywall `/v2/{doi}`: the best open-access copy of a DOI (needs a contact email)."""

from __future__ import annotations

import json

from citecore.model import Source
from citecore.registries.answers import answer_parser
from citecore.registries.request import RegistryRequest, quote_doi


def oa_request(doi: str) -> RegistryRequest:
    """The open-access status of one DOI."""
    return RegistryRequest(Source.UNPAYWALL, f"/v2/{quote_doi(doi)}")


@answer_parser
def parse_oa_url(body: str) -> str:
    """The best open-access URL (the PDF when known), or ""."""
    data = json.loads(body)
    best = data.get("best_oa_location") or {}
    return str(best.get("url_for_pdf") or best.get("url") or "") if data.get("is_oa") else ""
