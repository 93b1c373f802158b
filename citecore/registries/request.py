"""What to ask a registry and what it answered, as data: a request that can be built, compared,
cached and sent, and the response the client gives back (after retries and the cache)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
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


class Status(Enum):
    """What a registry said: the thing, that there is no such thing, or nothing usable."""

    OK = "ok"
    ABSENT = "absent"
    FAILED = "failed"


class Failure(Enum):
    """Why a request gave no answer."""

    RATE_LIMITED = "rate_limited"
    NETWORK = "network"
    SERVER = "server"
    OFFLINE = "offline"


@dataclass(frozen=True, slots=True)
class RegistryResponse:
    """The outcome of one request, after retries and the cache."""

    request: RegistryRequest
    status: Status
    body: str = ""
    http_status: int | None = None
    failure: Failure | None = None
    from_cache: bool = False


def quote_doi(doi: str) -> str:
    """A DOI for a URL path: `/` kept (registries route on it), everything unsafe escaped."""
    return quote(doi, safe="/")
