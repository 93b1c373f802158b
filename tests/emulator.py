"""A loopback registry emulator: a real HTTP server that answers citecheck's requests with
recorded bodies from ../shared/fixtures/real/, and can misbehave on purpose.

With a `World` (tests/world.py) it also answers, from the registry world of real works, every
request no route declares: the whole live path runs over about 1,100 labelled references.

Strict like arxiv.py's recorded tests: a request with no route is answered 500 and remembered
(`unexpected`), and a route never asked for is remembered too (`unused`), so a test can fail on
either instead of passing by accident. Fault injection per route: a scripted sequence of
statuses (429 with `Retry-After`, 5xx), latency, and truncated bodies; and across every route,
`faults` decides per request whether to time out, rate-limit, fail, truncate, cut short or reset
(bench/chaos.py).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from citecore.model import Source
from citecore.registries.request import RegistryRequest
from citecore.registries.settings import POLICIES, base_url_variable
from tests.paths import FIXTURES
from tests.world import World

# How long a TIMEOUT fault keeps the client waiting: longer than the timeout fault runs set.
FAULT_TIMEOUT_DELAY = 6.0
# Identification and credentials that the client adds; routes are matched without them.
_IDENTIFICATION = {"mailto", "tool", "email", "api_key"}


@dataclass
class Reply:
    """One scripted answer."""

    status: int = 200
    body: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    raw: bytes = b""  # a binary body (a PDF), sent instead of `body`
    length: int | None = None  # the Content-Length to declare, when not the body's own; -1: none


class Fault(Enum):
    """A way a registry fails: what bench/chaos.py and the fault tests inject."""

    TIMEOUT = "timeout"  # answers after the client's timeout
    RATE_LIMITED = "rate_limited"  # 429 with Retry-After
    SERVER_ERROR = "server_error"  # 503
    TRUNCATED = "truncated"  # 200 whose body stops half-way (the length says so)
    CUT_SHORT = "cut_short"  # promises more bytes than it sends, then closes
    RESET = "reset"  # closes the connection without a word


@dataclass
class Route:
    """The answers for one request: used in order, the last one repeated."""

    replies: list[Reply]
    hits: int = 0
    unused_ok: bool = False  # the test checks itself that this request is (not) made

    def next_reply(self) -> Reply:
        reply = self.replies[min(self.hits, len(self.replies) - 1)]
        self.hits += 1
        return reply


def fixture(name: str) -> Reply:
    """A recorded response (body, status and content type) from ../shared/fixtures/real/."""
    body_path = FIXTURES / name
    meta_path = body_path.with_name(body_path.name.rsplit(".", 1)[0] + ".meta.json")
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    headers = {
        k: v for k, v in (meta.get("headers") or {}).items() if k.lower() in {"content-type"}
    }
    return Reply(int(meta.get("status", 200)), body_path.read_text(encoding="utf-8"), headers)


def dblp_no_hits() -> Reply:
    """A DBLP search with no hits: the recorded 2019 envelope with its hits taken out (no empty
    DBLP answer was recorded; this is the documented shape of one)."""
    return _dblp_envelope([])


def dblp_hits(name: str) -> Reply:
    """A DBLP search answering the recorded hits in `name` (a `search_publ_hits_only_*` file:
    the hits of a real answer, recorded without their envelope) inside the recorded envelope."""
    return _dblp_envelope(json.loads((FIXTURES / name).read_text()))


def _dblp_envelope(hits: list[object]) -> Reply:
    envelope = json.loads(
        (FIXTURES / "dblp/search_publ_q_test_star_full_envelope_2019.json").read_text()
    )
    count = str(len(hits))
    found: dict[str, object] = {"@total": count, "@computed": count, "@sent": count, "@first": "0"}
    if hits:  # DBLP leaves "hit" out of an answer with none
        found["hit"] = hits
    envelope["result"]["hits"] = found
    return Reply(200, json.dumps(envelope), {"Content-Type": "application/json"})


def _route_key(path: str, params: list[tuple[str, str]]) -> str:
    kept = sorted((k, v) for k, v in params if k not in _IDENTIFICATION)
    return json.dumps([path, kept])


class _QuietServer(ThreadingHTTPServer):
    """A server that does not print the broken pipes its own injected faults cause, and that
    queues connections as a real service does (socketserver's default queue is 5)."""

    request_queue_size = 256

    def handle_error(self, request: object, client_address: object) -> None:
        return


class RegistryEmulator:
    """The server; `serve(request, replies…)` declares what answers a request of ours."""

    def __init__(
        self,
        strict: bool = True,
        world: World | None = None,
        faults: Callable[[str], Fault | None] | None = None,
        latency: float = 0.0,
    ) -> None:
        self.strict = strict
        self.latency = latency  # seconds every answer without its own delay waits (benches)
        self.world = world
        self.faults = faults  # asked for each request's route key: inject this fault, or not
        self.injected: Counter[Fault] = Counter()
        self.routes: dict[str, Route] = {}
        self.unexpected: list[str] = []
        self.log: list[tuple[float, str]] = []
        self.identification: list[dict[str, str]] = []
        emulator = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                url = urlsplit(self.path)
                params = parse_qsl(url.query, keep_blank_values=True)
                key = _route_key(url.path, params)
                emulator.log.append((time.monotonic(), key))
                emulator.identification.append(
                    {k: v for k, v in params if k in _IDENTIFICATION}
                    | {"user-agent": self.headers.get("User-Agent", "")}
                    | {
                        f"header:{name}": self.headers[name]
                        for name in ("x-api-key",)
                        if name in self.headers
                    }
                )
                fault = emulator.faults(key) if emulator.faults is not None else None
                if fault is not None:
                    emulator.injected[fault] += 1
                    self._fail(fault)
                    return
                route = emulator.routes.get(key)
                answer = (
                    emulator.world.answer(url.path, dict(params))
                    if route is None and emulator.world is not None
                    else None
                )
                if answer is not None:
                    reply = Reply(answer.status, answer.body, {"Content-Type": answer.content_type})
                elif route is None and not emulator.strict:
                    reply = Reply(404, "not found")  # a permissive registry that knows nothing
                elif route is None:
                    emulator.unexpected.append(key)
                    reply = Reply(500, f"no route for {key}")
                else:
                    reply = route.next_reply()
                if reply.delay or emulator.latency:
                    time.sleep(reply.delay or emulator.latency)
                data = reply.raw or reply.body.encode("utf-8")
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                declared = len(data) if reply.length is None else reply.length
                if declared >= 0:  # without one, the body ends when the connection closes
                    self.send_header("Content-Length", str(declared))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client gave up (a size or time cap): what the test checks

            def _fail(self, fault: Fault) -> None:
                if fault is Fault.RESET:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if fault is Fault.TIMEOUT:
                    time.sleep(FAULT_TIMEOUT_DELAY)
                status = {Fault.RATE_LIMITED: 429, Fault.SERVER_ERROR: 503}.get(fault, 200)
                body = b'{"status": "ok", "message": {"items": [{"title": ["A cut'
                self.send_response(status)
                if fault is Fault.RATE_LIMITED:
                    self.send_header("Retry-After", "0")
                self.send_header("Content-Type", "application/json")
                promised = len(body) * 2 if fault is Fault.CUT_SHORT else len(body)
                self.send_header("Content-Length", str(promised))
                self.end_headers()
                self.wfile.write(body)
                self.close_connection = True

            def log_message(self, format: str, *args: object) -> None:
                return

        self._server = _QuietServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The base URL every source is pointed at."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def environment(self) -> dict[str, str]:
        """`CITECHECK_<SOURCE>_URL` for every source, all pointing here."""
        return {base_url_variable(source): self.url for source in Source}

    def serve(self, request: RegistryRequest, *replies: Reply, unused_ok: bool = False) -> None:
        """Answer `request` with `replies`, in order (the last one repeats); `unused_ok` for an
        answer the test expects may never be asked for."""
        key = _route_key(request.path, list(request.params))
        self.routes[key] = Route(list(replies), unused_ok=unused_ok)

    def serve_path(self, path: str, *replies: Reply, unused_ok: bool = False) -> str:
        """Answer a GET of `path` (a file a registry's answer points to: a PDF, full text);
        the URL to point to it."""
        self.routes[_route_key(path, [])] = Route(list(replies), unused_ok=unused_ok)
        return self.url + path

    @property
    def unused(self) -> list[str]:
        """Routes declared but never requested."""
        return [k for k, route in self.routes.items() if route.hits == 0 and not route.unused_ok]

    def requests(self) -> int:
        """How many requests arrived."""
        return len(self.log)

    def __enter__(self) -> RegistryEmulator:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()


def registry_of(route: str) -> str:
    """The registry a request of the emulator's log went to (its name; doi.org as "doi.org"),
    from the request's API path."""
    path = str(json.loads(route)[0])
    for prefix, name in (
        ("/api/query", "arxiv"), ("/dois/", "datacite"), ("/ra/", "doi.org"),
        ("/works/doi:", "openalex"), ("/works", "crossref"), ("/v2/", "unpaywall"),
        ("/europepmc", "europepmc"), ("/entrez", "pubmed"), ("/search/publ", "dblp"),
        ("/graph", "semanticscholar"),
    ):  # fmt: skip
        if path.startswith(prefix) or (prefix == "/works/doi:" and "filter" in route):
            return name
    return path


def floor_seconds(plan: Counter[Source], latency: float) -> float:
    """The least time a plan (requests per source), each answered after `latency`, can take
    within the published limits: what a benchmark's wall time is measured against."""
    slowest = 0.0
    for source, count in plan.items():
        policy = POLICIES[source]
        by_rate = (count - 1) / policy.requests_per_second
        by_concurrency = count * latency / policy.concurrency
        slowest = max(slowest, max(by_rate, by_concurrency) + latency)
    return slowest


def recorded(path: str) -> Path:
    """The path of a recorded body, for tests that parse it directly."""
    return FIXTURES / path
