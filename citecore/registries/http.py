"""The one HTTP layer every registry goes through: politeness, retries, caching, outcomes.

Like httpx's split of client and transport, this client holds the policy (per-source rate limits
and concurrency caps, identification, retries that honour `Retry-After`, the response cache) and
takes any httpx transport, so tests point it at a loopback server or a MockTransport. Source
modules never see HTTP: they build a RegistryRequest and parse a body.

An outage is never an answer: a response is OK (200), ABSENT (the registry answered that there is
no such thing: 404, 410, 400) or FAILED (429 after retries, 5xx, timeout, connection error, or
offline with nothing cached). Only OK and ABSENT are cached; failures never are.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import re
import time
import xml.etree.ElementTree as ElementTree
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Protocol

from citecore.cache import Cache, content_key
from citecore.http_clients import ClientShape, LazyClient
from citecore.model import Source
from citecore.registries.catalogue import REGISTRIES
from citecore.registries.limits import Limiter
from citecore.registries.reachability import Reachability, unresolved
from citecore.registries.registry import SourcePolicy
from citecore.registries.request import Failure, RegistryRequest, RegistryResponse, Status
from citecore.registries.settings import ClientSettings

if TYPE_CHECKING:
    import httpx

logger = logging.getLogger(__name__)

POSITIVE_TTL = 30 * 24 * 3600.0
NEGATIVE_TTL = 24 * 3600.0
_ABSENT_STATUSES = {400, 404, 410}
_CONNECT_TIMEOUT = 5.0  # seconds to open a connection: a black-holed network answers never
_Param = str | int | float | bool | None  # what httpx accepts as a query value


def _readable(request: RegistryRequest, body: str) -> bool:
    """Whether a body is whole in the format asked for (JSON or XML); other formats pass."""
    try:
        if "json" in request.accept:
            json.loads(body)
        elif "xml" in request.accept:
            ElementTree.fromstring(body)
    except (ValueError, ElementTree.ParseError):
        return False
    return True


def retry_after_seconds(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a `Retry-After` header: delta-seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    if re.fullmatch(r"[0-9]+", value):  # str.isdigit() also takes "²", which float() refuses
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):  # a header is a server's text
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class _Redact(logging.Filter):
    """Takes API keys out of what httpx and httpcore log (httpx logs each request's URL, and
    OpenAlex and PubMed take their keys in the query)."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(secret in message for secret in self.secrets):
            for secret in self.secrets:
                message = message.replace(secret, "***")
            record.msg, record.args = message, ()
        return True


def _redact_library_logs(secrets: Iterable[str]) -> None:
    """Install the redaction once per set of keys on the loggers of the HTTP stack."""
    wanted = sorted(set(secrets))
    for name in ("httpx", "httpcore"):
        library = logging.getLogger(name)
        if not any(isinstance(f, _Redact) and f.secrets == wanted for f in library.filters):
            library.filters = [f for f in library.filters if not isinstance(f, _Redact)]
            library.addFilter(_Redact(wanted))


class SharedRate(Protocol):
    """A registry's rate kept for many clients at once (the workers of a cluster): each request
    start is booked with it, on top of the client's own limits."""

    def reserve(self, source: str, requests_per_second: float) -> float:
        """Book the next start of a request to `source` and say how many seconds to wait."""
        ...

    def pause(self, source: str, seconds: float) -> None:
        """Hold every client's requests to `source` back (it answered 429)."""
        ...


class RegistryClient:
    """Sends RegistryRequests politely and returns RegistryResponses; use `async with`. With a
    `shared_rate`, each source's published rate holds for every client that shares it."""

    def __init__(
        self,
        settings: ClientSettings | None = None,
        cache: Cache | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        shared_rate: SharedRate | None = None,
    ) -> None:
        self.settings = settings or ClientSettings.from_environment()
        self._shared_rate = shared_rate
        self.cache = cache
        self.sent: Counter[Source] = Counter()
        self.failures: Counter[Failure] = Counter()
        self.failed: dict[Source, Failure] = {}  # each source's last failure this run
        self._clock = clock
        self._sleep = sleep
        # Made at the first real request: a rebuild answered from the cache never pays for
        # importing and setting up the HTTP stack.
        self._http = LazyClient(
            ClientShape(
                self.settings.timeout,
                _CONNECT_TIMEOUT,
                headers={"User-Agent": self.settings.user_agent()},
            ),
            transport,
            on_open=lambda: _redact_library_logs(self.settings.api_keys.values()),
        )
        self._limiters: dict[Source, Limiter] = {}
        # A source that could not be reached at all is not tried again in this run: a build
        # without network must not wait out every request's retries (the circuit breaker).
        self._reach = Reachability(clock, cache, remember=not self.settings.refresh)
        # Requests on their way, by cache key: references verified side by side often ask the
        # same thing at once (one title cited twice, a venue's search), and one answer serves all.
        self._in_flight: dict[str, asyncio.Task[RegistryResponse]] = {}

    async def __aenter__(self) -> RegistryClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._http.aclose()

    def _limiter(self, source: Source) -> Limiter:
        if source not in self._limiters:
            policy = self.settings.policies[source]
            if self._shared_rate is not None:  # the shared book spaces the starts; not twice
                policy = SourcePolicy(float("inf"), policy.concurrency)
            self._limiters[source] = Limiter(policy, self._clock, self._sleep)
        return self._limiters[source]

    def _cache_key(self, request: RegistryRequest) -> str:
        return content_key(self.settings.base_urls[request.source], request.cache_key())

    @property
    def network_down(self) -> bool:
        """True once this run found no registry reachable (or a run of the last minute did)."""
        return self._reach.network_down

    @property
    def network_down_recalled(self) -> bool:
        """True when the network is down because a run of the last minute found it so."""
        return self._reach.recalled

    def unreachable_sources(self) -> frozenset[Source]:
        """The sources this run stopped asking because no connection to them could be made."""
        return self._reach.unreachable()

    async def fetch(self, request: RegistryRequest) -> RegistryResponse:
        """The registry's answer to `request`: from the cache when allowed, else from the
        network with retries; never raises for network trouble."""
        key = self._cache_key(request)
        if self.cache is not None and not self.settings.refresh:
            cached = self.cache.get("http", key)
            if cached is not None:
                status_text, _, body = cached.partition("\n")
                status = int(status_text)
                outcome = Status.OK if status == 200 else Status.ABSENT
                return RegistryResponse(request, outcome, body, status, from_cache=True)
        if self.settings.offline:
            return RegistryResponse(request, Status.FAILED, failure=Failure.OFFLINE)
        if self._reach.gave_up(request.source):
            return RegistryResponse(request, Status.FAILED, failure=Failure.NETWORK)
        sending = self._in_flight.get(key)
        if sending is None:
            sending = asyncio.ensure_future(self._send_and_keep(request, key))
            self._in_flight[key] = sending
            sending.add_done_callback(lambda _: self._in_flight.pop(key, None))
        # Shielded: a caller that gives up does not cancel the answer others are waiting for.
        return await asyncio.shield(sending)

    async def _send_and_keep(self, request: RegistryRequest, key: str) -> RegistryResponse:
        """Send `request` (with retries), note a source that keeps losing requests, and cache
        an answer."""
        response = await self._send_with_retries(request)
        if response.failure is Failure.NETWORK:
            self._reach.request_lost(request.source)
        elif response.status is not Status.FAILED:
            self._reach.request_answered(request.source)
        if self.cache is not None and response.status is not Status.FAILED:
            ttl = POSITIVE_TTL if response.status is Status.OK else NEGATIVE_TTL
            self.cache.put("http", key, f"{response.http_status}\n{response.body}", ttl=ttl)
        return response

    def _prepare(
        self, request: RegistryRequest
    ) -> tuple[str, list[tuple[str, _Param]], dict[str, str]]:
        """URL, query and headers with identification and credentials added (credentials are
        added here only, so they never reach cache keys or logs)."""
        signature = REGISTRIES[request.source].sign(self.settings.identity())
        params: list[tuple[str, _Param]] = [*request.params, *signature.params]
        headers = {"Accept": request.accept, **dict(signature.headers)}
        return self.settings.base_urls[request.source] + request.path, params, headers

    async def _send_with_retries(self, request: RegistryRequest) -> RegistryResponse:
        import httpx  # start-up: see _client

        client = self._http.get()
        url, params, headers = self._prepare(request)
        limiter = self._limiter(request.source)
        failure = Failure.NETWORK
        source = request.source
        for attempt in range(self.settings.max_attempts):
            if self._reach.gave_up(source):
                break
            await limiter.acquire(lambda: self._reach.gave_up(source))
            try:
                if self._reach.gave_up(source):
                    break
                await self._wait_shared_turn(source)
                self.sent[source] += 1
                reply = await client.get(url, params=tuple(params), headers=headers)
            except httpx.TransportError as exc:  # timeouts, refused connections, broken streams
                logger.info("%s: %s (attempt %d)", source.value, type(exc).__name__, attempt + 1)
                failure = Failure.NETWORK
                delay = self._backoff(attempt)
                if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout):
                    name_unresolved = unresolved(exc)
                    self._reach.connection_failed(source, name_unresolved)
                    if name_unresolved:
                        # A name that did not resolve will not in a second: this machine has
                        # no network, or the address is wrong. The next build asks again.
                        break
            else:
                self._reach.answered(source)
                self._obey_rate_headers(limiter, reply.headers)
                if reply.status_code == 200 and _readable(request, reply.text):
                    return RegistryResponse(request, Status.OK, reply.text, 200)
                if reply.status_code in _ABSENT_STATUSES:
                    return RegistryResponse(request, Status.ABSENT, reply.text, reply.status_code)
                # A 200 whose body does not parse (cut off on the way) is a server failure: retried,
                # never cached, never read as "nothing found".
                failure = Failure.RATE_LIMITED if reply.status_code == 429 else Failure.SERVER
                waited = retry_after_seconds(reply.headers.get("Retry-After"))
                delay = self._backoff(attempt) if waited is None else waited
                delay = min(delay, self.settings.retry_after_cap)
                if reply.status_code == 429:
                    limiter.pause(delay)
                    if self._shared_rate is not None:
                        await asyncio.to_thread(self._shared_rate.pause, source.value, delay)
                logger.info(
                    "%s: HTTP %d (attempt %d)", request.source.value, reply.status_code, attempt + 1
                )
            finally:
                limiter.release()
            if attempt + 1 < self.settings.max_attempts and not self._reach.gave_up(source):
                await self._sleep(delay)
        self.failures[failure] += 1
        self.failed[source] = failure
        return RegistryResponse(request, Status.FAILED, failure=failure)

    async def _wait_shared_turn(self, source: Source) -> None:
        """Wait for this request's turn at the rate shared with other clients, if any (booked
        in a thread: the booking may be a call to another process)."""
        if self._shared_rate is None:
            return
        rate = self.settings.policies[source].requests_per_second
        wait = await asyncio.to_thread(self._shared_rate.reserve, source.value, rate)
        if wait > 0:
            await self._sleep(wait)

    def _backoff(self, attempt: int) -> float:
        return float(min(self.settings.backoff_cap, self.settings.backoff_base * 2.0**attempt))

    @staticmethod
    def _obey_rate_headers(limiter: Limiter, headers: httpx.Headers) -> None:
        limit = headers.get("x-rate-limit-limit", "").strip()
        interval = headers.get("x-rate-limit-interval", "").strip()
        if re.fullmatch(r"[0-9]{1,9}", limit) and re.fullmatch(r"[0-9]{1,9}s?", interval):
            seconds = int(interval.rstrip("s")) or 1
            if int(limit) > 0:
                limiter.slow_to(int(limit) / seconds)
