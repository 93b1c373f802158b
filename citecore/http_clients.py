"""The HTTP clients citecheck opens, made in one place: every stage that goes on the network
(the registries, the downloader of sources, the OpenAI-compatible judge, Zotero's local API)
says its timeouts (the registries' and the downloader's connect timeout is short: a machine
without network must not wait out a long one), headers, redirects and a test's transport in a
`ClientShape`, and gets its client from here.

httpx takes ~110 ms to import, so it is imported when a client is first made: a rebuild
answered from the cache never pays for it (`LazyClient`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import httpx


@dataclass(frozen=True, slots=True)
class ClientShape:
    """How a client is made: its timeouts (seconds), headers, redirects and transport."""

    timeout: float
    connect: float
    headers: Mapping[str, str] = field(default_factory=dict)
    max_redirects: int = 20  # httpx's own default
    follow_redirects: bool = True


def _settings(shape: ClientShape) -> dict[str, Any]:
    """What both kinds of client are made with, from `shape`."""
    import httpx  # start-up: ~110 ms: only a run that goes on the network

    return {
        "timeout": httpx.Timeout(shape.timeout, connect=min(shape.connect, shape.timeout)),
        "follow_redirects": shape.follow_redirects,
        "max_redirects": shape.max_redirects,
        "headers": dict(shape.headers),
    }


def async_client(
    shape: ClientShape, transport: httpx.AsyncBaseTransport | None = None
) -> httpx.AsyncClient:
    """An asynchronous client of `shape` (the registries', the downloader's)."""
    import httpx  # start-up: see _settings

    return httpx.AsyncClient(transport=transport, **_settings(shape))


def sync_client(shape: ClientShape, transport: httpx.BaseTransport | None = None) -> httpx.Client:
    """A blocking client of `shape` (a judge's calls, Zotero's local API)."""
    import httpx  # start-up: see _settings

    return httpx.Client(transport=transport, **_settings(shape))


class LazyClient:
    """An asynchronous client made at its first request and closed with the run: a run that
    never asks never imports httpx. `on_open` runs once before the client is made (the
    registries hide API keys from the HTTP libraries' own logs then)."""

    def __init__(
        self,
        shape: ClientShape,
        transport: httpx.AsyncBaseTransport | None = None,
        on_open: Callable[[], None] | None = None,
    ) -> None:
        self._shape = shape
        self._transport = transport
        self._on_open = on_open
        self._client: httpx.AsyncClient | None = None

    def get(self) -> httpx.AsyncClient:
        """The client, made now when this is its first use."""
        if self._client is None:
            if self._on_open is not None:
                self._on_open()
            self._client = async_client(self._shape, self._transport)
        return self._client

    async def aclose(self) -> None:
        """Close the client when one was made."""
        if self._client is not None:
            await self._client.aclose()
