"""Unpaywall `/v2/{doi}`: the open-access copies of a DOI (needs a contact email)."""

from __future__ import annotations

import json

from citecore.model import Source
from citecore.registries.answers import answer_parser
from citecore.registries.record import OpenAccessCopy
from citecore.registries.registry import Identity, Registry, Signature, SourcePolicy
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


@answer_parser
def parse_copies(body: str) -> tuple[OpenAccessCopy, ...]:
    """Every open-access location that names a PDF, the best first (a location with only a
    landing page is no file to fetch)."""
    data = json.loads(body)
    if not data.get("is_oa"):
        return ()
    locations = [data.get("best_oa_location") or {}, *(data.get("oa_locations") or [])]
    copies: dict[str, OpenAccessCopy] = {}
    for location in locations:
        url = str((location or {}).get("url_for_pdf") or "")
        if url and url not in copies:
            copies[url] = OpenAccessCopy(
                Source.UNPAYWALL,
                url,
                license=str(location.get("license") or ""),
                version=str(location.get("version") or ""),
            )
    return tuple(copies.values())


def _identified(identity: Identity) -> Signature:
    return Signature((("email", identity.email),) if identity.email else ())


REGISTRY = Registry(
    Source.UNPAYWALL,
    "https://api.unpaywall.org",
    SourcePolicy(10.0, 3),
    sign=_identified,
    needs_email=True,
)
