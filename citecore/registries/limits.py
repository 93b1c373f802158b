"""Keeping to a published limit: request starts spaced by the rate, at most so many at once.
The registry client keeps one per registry, the downloader of open-access files one per host."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from citecore.registries.registry import SourcePolicy


class Limiter:
    """Spaces request starts for one source and caps how many run at once."""

    def __init__(
        self,
        policy: SourcePolicy,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]],
    ) -> None:
        self._slots = asyncio.Semaphore(policy.concurrency)
        self._lock = asyncio.Lock()
        self._interval = 1.0 / policy.requests_per_second
        self._next_start = 0.0
        self._clock = clock
        self._sleep = sleep

    async def acquire(self, given_up: Callable[[], bool] = lambda: False) -> None:
        """Wait for a slot and this source's next start; no wait once `given_up()` (a source
        found unreachable lets its queue go at once instead of at its rate)."""
        await self._slots.acquire()
        async with self._lock:
            if given_up():
                return
            wait = self._next_start - self._clock()
            if wait > 0:
                await self._sleep(wait)
            self._next_start = max(self._clock(), self._next_start) + self._interval

    def release(self) -> None:
        self._slots.release()

    def pause(self, seconds: float) -> None:
        """Hold every later request of this source back (a 429 speaks for the whole source)."""
        self._next_start = max(self._next_start, self._clock() + seconds)

    def slow_to(self, requests_per_second: float) -> None:
        """Obey a stricter limit the service announces (`x-rate-limit-*`)."""
        self._interval = max(self._interval, 1.0 / requests_per_second)
