"""The HTTP layer against the loopback emulator: caching, retries, outages, politeness."""

from __future__ import annotations

import asyncio
import email.utils
import time
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest

from citecore.cache import Cache
from citecore.errors import OptionsError
from citecore.model import Source
from citecore.registries import crossref
from citecore.registries.http import RegistryClient, retry_after_seconds
from citecore.registries.registry import SourcePolicy
from citecore.registries.request import Failure, RegistryRequest, RegistryResponse, Status
from citecore.registries.settings import ClientSettings
from tests.emulator import RegistryEmulator, Reply, fixture

WORK = crossref.work_request("10.7554/elife.01567")
FAST = {source: SourcePolicy(50.0, 4) for source in Source}


def settings(emulator: RegistryEmulator, **overrides: object) -> ClientSettings:
    values: dict[str, object] = {
        "policies": FAST,
        "backoff_base": 0.01,
        "timeout": 2.0,
        "retry_after_cap": 1.5,
    }
    values.update(overrides)
    return ClientSettings.from_environment(emulator.environment(), **values)


def fetch(
    emulator: RegistryEmulator,
    request: RegistryRequest,
    cache: Cache | None = None,
    **overrides: object,
) -> RegistryResponse:
    async def run() -> RegistryResponse:
        async with RegistryClient(settings(emulator, **overrides), cache) as client:
            return await client.fetch(request)

    return asyncio.run(run())


def test_found_then_answered_from_the_cache(emulator: RegistryEmulator, tmp_path: Path) -> None:
    emulator.serve(WORK, fixture("crossref/works_10.7554_elife.01567.json"))
    with Cache(tmp_path / "c.sqlite3") as cache:
        first = fetch(emulator, WORK, cache)
        second = fetch(emulator, WORK, cache)
    assert first.status is Status.OK and not first.from_cache
    assert second.status is Status.OK and second.from_cache
    assert second.body == first.body
    assert emulator.requests() == 1


def test_one_request_asked_twice_at_once_is_sent_once(emulator: RegistryEmulator) -> None:
    # Two references citing one title ask the same search side by side; without a cache to
    # meet in, they still share one answer. Asked again after it came, without a cache, it is
    # sent again: only requests on their way are shared.
    emulator.serve(WORK, replace(fixture("crossref/works_10.7554_elife.01567.json"), delay=0.2))

    async def run() -> list[RegistryResponse]:
        async with RegistryClient(settings(emulator), None) as client:
            together = await asyncio.gather(*(client.fetch(WORK) for _ in range(3)))
            return [*together, await client.fetch(WORK)]

    answers = asyncio.run(run())
    assert [a.status for a in answers] == [Status.OK] * 4
    assert len({a.body for a in answers}) == 1
    assert emulator.requests() == 2


def test_absent_is_an_answer_and_cached(emulator: RegistryEmulator, tmp_path: Path) -> None:
    missing = crossref.work_request("10.1371/notarealdoi")
    emulator.serve(missing, fixture("crossref/works_404_10.1371_notarealdoi.txt"))
    with Cache(tmp_path / "c.sqlite3") as cache:
        assert fetch(emulator, missing, cache).status is Status.ABSENT
        assert fetch(emulator, missing, cache).from_cache
    assert emulator.requests() == 1


def test_429_is_retried_after_retry_after(emulator: RegistryEmulator) -> None:
    emulator.serve(
        WORK,
        Reply(429, "slow down", {"Retry-After": "1"}),
        fixture("crossref/works_10.7554_elife.01567.json"),
    )
    start = time.monotonic()
    response = fetch(emulator, WORK)
    assert response.status is Status.OK
    assert time.monotonic() - start >= 0.95
    assert emulator.requests() == 2


def test_server_errors_exhaust_retries_and_are_not_cached(
    emulator: RegistryEmulator, tmp_path: Path
) -> None:
    emulator.serve(WORK, fixture("crossref/works_500_invalid_cursor_exception.json"))
    with Cache(tmp_path / "c.sqlite3") as cache:
        response = fetch(emulator, WORK, cache)
        assert (response.status, response.failure) == (Status.FAILED, Failure.SERVER)
        assert emulator.requests() == 4
        emulator.serve(WORK, fixture("crossref/works_10.7554_elife.01567.json"))
        assert fetch(emulator, WORK, cache).status is Status.OK  # the failure was not cached


def test_rate_limited_after_retries(emulator: RegistryEmulator) -> None:
    emulator.serve(WORK, Reply(429, "", {"Retry-After": "0"}))
    response = fetch(emulator, WORK, max_attempts=2)
    assert (response.status, response.failure) == (Status.FAILED, Failure.RATE_LIMITED)


def test_timeout_is_a_network_failure(emulator: RegistryEmulator) -> None:
    emulator.serve(WORK, Reply(200, "{}", delay=0.6))
    response = fetch(emulator, WORK, timeout=0.2, max_attempts=2)
    assert (response.status, response.failure) == (Status.FAILED, Failure.NETWORK)


def test_offline_answers_only_from_the_cache(emulator: RegistryEmulator, tmp_path: Path) -> None:
    with Cache(tmp_path / "c.sqlite3") as cache:
        response = fetch(emulator, WORK, cache, offline=True)
    assert (response.status, response.failure) == (Status.FAILED, Failure.OFFLINE)
    assert emulator.requests() == 0


def test_identification_and_keys_are_sent_but_never_cached(
    emulator: RegistryEmulator, tmp_path: Path
) -> None:
    emulator.serve(WORK, fixture("crossref/works_10.7554_elife.01567.json"))
    with Cache(tmp_path / "c.sqlite3") as cache:
        fetch(emulator, WORK, cache, email="writer@example.org")
    assert emulator.identification[0]["mailto"] == "writer@example.org"
    assert "mailto:writer@example.org" in emulator.identification[0]["user-agent"]
    assert b"writer@example.org" not in (tmp_path / "c.sqlite3").read_bytes()


def test_rate_limit_spaces_requests() -> None:
    # On a virtual clock (sleeping advances it), so the spacing is the limiter's, whatever the
    # machine's load.
    import httpx

    now = [0.0]
    sent: list[float] = []

    async def sleep(seconds: float) -> None:
        now[0] += seconds
        await asyncio.sleep(0)

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(now[0])
        return httpx.Response(404)

    requests = [crossref.work_request(f"10.1000/{i}") for i in range(5)]

    async def run() -> None:
        policies = {**FAST, Source.CROSSREF: SourcePolicy(20.0, 3)}
        client_settings = ClientSettings(policies=policies)
        transport = httpx.MockTransport(answer)
        async with RegistryClient(
            client_settings, None, transport, lambda: now[0], sleep
        ) as client:
            await asyncio.gather(*(client.fetch(r) for r in requests))

    asyncio.run(run())
    assert len(sent) == 5
    assert all(b - a >= 0.05 - 1e-9 for a, b in pairwise(sorted(sent)))


@pytest.mark.parametrize(
    ("header", "expected"),
    [("120", 120.0), ("0", 0.0), (None, None), ("soon", None)],
)
def test_retry_after_delta_seconds(header: str | None, expected: float | None) -> None:
    assert retry_after_seconds(header) == expected


def test_retry_after_http_date() -> None:
    now = time.time()
    header = email.utils.formatdate(now + 30, usegmt=True)
    seconds = retry_after_seconds(header, now=now)
    assert seconds is not None and 28 <= seconds <= 31


def test_limits_are_the_published_ones_unless_the_user_sets_them() -> None:
    mirror = ClientSettings.from_environment({"CITECHECK_ARXIV_URL": "http://127.0.0.1:1"})
    assert mirror.policies[Source.ARXIV] == SourcePolicy(1 / 3, 1)  # a base URL lifts nothing
    own = ClientSettings.from_environment(
        {"CITECHECK_ARXIV_RATE": "50", "CITECHECK_ARXIV_CONCURRENCY": "8"}
    )
    assert own.policies[Source.ARXIV] == SourcePolicy(50.0, 8)
    assert own.policies[Source.CROSSREF] == SourcePolicy(10.0, 3)


@pytest.mark.parametrize(
    "environ",
    [
        {"CITECHECK_DBLP_RATE": "fast"},
        {"CITECHECK_DBLP_RATE": "0"},
        {"CITECHECK_DBLP_CONCURRENCY": "0"},
    ],
)
def test_a_limit_that_is_no_positive_number_is_refused(environ: dict[str, str]) -> None:
    with pytest.raises(OptionsError, match="CITECHECK_DBLP_RATE must be a positive number"):
        ClientSettings.from_environment(environ)
