"""Fetching one open-access file, refusing what is not one.

A host's answer is data and may be anything: an HTML landing page or a captcha where a PDF was
promised, a login form behind a redirect, a PDF cut off on the way, a file of gigabytes, a host
that trickles. Each is refused with a reason the report can show; only a whole PDF (pymupdf
opens it and finds pages) or a JATS article with a body is kept. Requests to one host start no
faster than its published limit (the registries' table for the hosts it covers, one request a
second elsewhere), one at a time, identified with the contact address.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from citecore.fetch.jats import NotFullTextError, jats_to_markdown
from citecore.http_clients import ClientShape, LazyClient
from citecore.pdf_errors import pdf_read_errors
from citecore.registries.limits import Limiter
from citecore.registries.registry import SourcePolicy
from citecore.registries.settings import ClientSettings

if TYPE_CHECKING:
    import httpx

MAX_BYTES = 50 * 1024 * 1024  # larger than any article; a thesis with scans may be refused
MAX_SECONDS = 60.0  # for one whole file, however slowly it arrives
MAX_REDIRECTS = 5
_OTHER_HOSTS = SourcePolicy(1.0, 1)  # a publisher or repository with no published limit
# Paths of sign-in pages: a location that leads there is behind a login, never open access.
_LOGIN = re.compile(
    r"/(?:login|log-in|logon|signin|sign-in|sso|shibboleth(?:\.sso)?|wayf|idp|saml2?|cas|"
    r"oauth2?|authorize|auth|account/login)(?:[/?.;]|$)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Fetched:
    """A file that passed its checks: the bytes to store and the suffix to store them under."""

    data: bytes
    suffix: str  # ".pdf" or ".md"
    url: str  # where it came from, after redirects


@dataclass(frozen=True, slots=True)
class Refused:
    """Why nothing was stored from a location; `transient` when trying again later may work
    (a timeout, a 5xx, a 429, no network), not when the host said what it has."""

    reason: str
    transient: bool = False


def is_login_url(url: str) -> bool:
    """Whether a URL is a sign-in page (never fetched: open access needs no login)."""
    parts = urlsplit(url)
    return bool(_LOGIN.search(parts.path)) or parts.netloc.lower().startswith(("login.", "idp."))


def check_pdf(data: bytes) -> str:
    """Why these bytes are not a whole, readable PDF, or "" when they are one."""
    head = data[:1024].lstrip()
    if not data.startswith(b"%PDF-") and b"%PDF-" not in data[:1024]:
        if head[:1] == b"<" or b"<html" in head.lower() or b"<!doctype" in head.lower():
            return "not a PDF: an HTML page (a landing page, a login or a captcha)"
        return "not a PDF"
    if b"%%EOF" not in data[-2048:]:
        return "a truncated PDF (no end-of-file mark)"
    import pymupdf  # start-up: ~300 ms: only a fetched PDF needs it

    try:
        with pymupdf.open(stream=data, filetype="pdf") as document:
            if document.needs_pass:
                return "an encrypted PDF"
            if document.page_count < 1:
                return "a PDF without pages"
            # A broken page tree opens and fails only when a page is loaded.
            for number in range(document.page_count):
                document.load_page(number)
    except pdf_read_errors() as exc:
        return f"an unreadable PDF ({exc})"
    return ""


class Downloader:
    """Fetches open-access files politely within a size and a time cap; use `async with`."""

    def __init__(
        self,
        settings: ClientSettings,
        transport: httpx.AsyncBaseTransport | None = None,
        max_bytes: int = MAX_BYTES,
        max_seconds: float = MAX_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.settings = settings
        self.max_bytes = max_bytes
        self.max_seconds = max_seconds
        self.sent = 0
        self._clock, self._sleep = clock, sleep
        accepted = "application/pdf, application/xml;q=0.9, */*;q=0.1"
        self._http = LazyClient(
            ClientShape(
                settings.timeout,
                connect=5.0,
                headers={"User-Agent": settings.user_agent(), "Accept": accepted},
                max_redirects=MAX_REDIRECTS,
            ),
            transport,
        )
        self._limiters: dict[str, Limiter] = {}
        # A host that several registries share takes the strictest of their limits.
        self._host_policies: dict[str, SourcePolicy] = {}
        for source, base in settings.base_urls.items():
            host = urlsplit(base).netloc.lower()
            policy = settings.policies.get(source)
            known = self._host_policies.get(host)
            if policy is not None and (
                known is None or policy.requests_per_second < known.requests_per_second
            ):
                self._host_policies[host] = policy

    async def __aenter__(self) -> Downloader:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self._http.aclose()

    def _limiter(self, host: str) -> Limiter:
        if host not in self._limiters:
            policy = self._host_policies.get(host, _OTHER_HOSTS)
            self._limiters[host] = Limiter(policy, self._clock, self._sleep)
        return self._limiters[host]

    async def fetch(self, url: str, full_text_xml: bool = False) -> Fetched | Refused:
        """The file at `url` when it is what was promised (a PDF, or JATS full text), else why
        not. Never raises for what a host does."""
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return Refused(f"not a web address: {url[:80]}")
        if is_login_url(url):
            return Refused("behind a login")
        if self.settings.offline:
            return Refused("offline", transient=True)
        limiter = self._limiter(parts.netloc.lower())
        await limiter.acquire()
        try:
            return await asyncio.wait_for(self._get(url, full_text_xml), self.max_seconds)
        except TimeoutError:
            return Refused(f"too slow: gave up after {self.max_seconds:g} s", transient=True)
        finally:
            limiter.release()

    async def _get(self, url: str, full_text_xml: bool) -> Fetched | Refused:
        import httpx  # start-up: as in _client

        self.sent += 1
        try:
            async with self._http.get().stream("GET", url) as reply:
                hops = [str(r.url) for r in reply.history] + [str(reply.url)]
                if any(is_login_url(hop) for hop in hops[1:]):
                    return Refused("behind a login (redirected to a sign-in page)")
                if reply.status_code in (401, 403, 407):
                    return Refused(f"access denied (HTTP {reply.status_code})")
                if reply.status_code != 200:
                    transient = reply.status_code == 429 or reply.status_code >= 500
                    return Refused(f"HTTP {reply.status_code}", transient)
                declared = reply.headers.get("Content-Length", "")
                if declared.isdigit() and int(declared) > self.max_bytes:
                    return Refused(f"larger than the {self.max_bytes // 2**20} MB cap")
                data = bytearray()
                async for chunk in reply.aiter_bytes():
                    data.extend(chunk)
                    if len(data) > self.max_bytes:
                        return Refused(f"larger than the {self.max_bytes // 2**20} MB cap")
                final = str(reply.url)
        except httpx.TooManyRedirects:
            return Refused(f"more than {MAX_REDIRECTS} redirects (a redirect loop)")
        except httpx.TransportError as exc:  # timeouts, refusals, a body cut off on the way
            return Refused(f"fetch failed: {type(exc).__name__}", transient=True)
        except httpx.InvalidURL:
            return Refused(f"not a web address: {url[:80]}")
        return _checked(bytes(data), final, full_text_xml)


def _checked(data: bytes, url: str, full_text_xml: bool) -> Fetched | Refused:
    """The fetched bytes as a file to store, or why they are not one."""
    if full_text_xml:
        try:
            markdown = jats_to_markdown(data.decode("utf-8", errors="replace"))
        except NotFullTextError as exc:
            return Refused(f"not full text: {exc}")
        return Fetched(markdown.encode("utf-8"), ".md", url)
    problem = check_pdf(data)
    return Refused(problem) if problem else Fetched(data, ".pdf", url)


def opening_text(fetched: Fetched, pages: int = 2) -> str:
    """The text of a stored file's first pages (a Markdown full text's first 4,000 characters):
    where a work prints its title."""
    if fetched.suffix != ".pdf":
        return fetched.data[:4000].decode("utf-8", errors="replace")
    import pymupdf  # start-up: as in _pdf_problem

    with pymupdf.open(stream=fetched.data, filetype="pdf") as document:
        return " ".join(str(document[i].get_text()) for i in range(min(pages, document.page_count)))
