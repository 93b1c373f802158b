"""What a registry's headers say is data from a server, read without ever raising
(hypothesis): any `Retry-After` is a wait of zero or more seconds or none, and any
`x-rate-limit-*` pair leaves a usable request rate."""

from __future__ import annotations

import datetime as dt
import email.utils

import httpx
from hypothesis import given
from hypothesis import strategies as st

from citecore.registries.http import RegistryClient, retry_after_seconds
from citecore.registries.limits import Limiter
from citecore.registries.registry import SourcePolicy

HEADER_TEXT = st.text(st.characters(codec="latin-1"), max_size=40)
NUMBERISH = st.one_of(
    HEADER_TEXT, st.integers(-5, 10**12).map(str), st.sampled_from(["²", "٣", "1s", "0", "10s"])
)


@given(NUMBERISH)
def test_any_retry_after_is_a_wait_or_none(value: str) -> None:
    waited = retry_after_seconds(value, now=0.0)
    assert waited is None or waited >= 0.0


@given(st.datetimes(timezones=st.just(dt.UTC)))
def test_an_http_date_is_the_seconds_until_it(when: dt.datetime) -> None:
    header = email.utils.format_datetime(when, usegmt=True)
    waited = retry_after_seconds(header, now=0.0)
    assert waited is not None and waited >= 0.0


@given(NUMBERISH, NUMBERISH)
def test_any_rate_limit_headers_leave_a_usable_rate(limit: str, interval: str) -> None:
    async def no_sleep(seconds: float) -> None:
        return None

    limiter = Limiter(SourcePolicy(10.0, 2), clock=lambda: 0.0, sleep=no_sleep)
    # Header values arrive as bytes; httpx reads them as Latin-1.
    headers = httpx.Headers(
        {b"x-rate-limit-limit": limit.encode("latin-1", "replace"),
         b"x-rate-limit-interval": interval.encode("latin-1", "replace")}
    )  # fmt: skip
    RegistryClient._obey_rate_headers(limiter, headers)
    assert 0 < limiter._interval < float("inf")
