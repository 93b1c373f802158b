"""What to ask a registry, as data: a request that can be built, compared, cached and sent."""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import quote

from citecore.model import Source


@dataclass(frozen=True, slots=True)
class RegistryRequest:
    """One GET to one registry: the API path (as the real service spells it) and query."""

    source: Source
    path: str
    params: tuple[tuple[str, str], ...] = ()
    accept: str = "application/json"

    def cache_key(self) -> str:
        """A stable text naming this request (no credentials are ever part of a request)."""
        return json.dumps([self.source.value, self.path, sorted(self.params), self.accept])


def quote_doi(doi: str) -> str:
    """A DOI for a URL path: `/` kept (registries route on it), everything unsafe escaped."""
    return quote(doi, safe="/")
