"""Each registry's published rate, kept for a whole cluster: one book of request starts that
every worker's client consults, so 16 workers ask arXiv no faster than one would.

`RateBook` is the book itself (plain Python, its clock injectable for tests); on a cluster the
scheduler keeps it (`RateBookPlugin`: a worker can be lost, the scheduler not without the run),
and `ClusterRate` is what the workers' registry clients hold: the `SharedRate` of
`citecore.registries.http`, booking through the scheduler.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from distributed.diagnostics.plugin import SchedulerPlugin


class RateBook:
    """The next free start per source: each booking takes the next slot at that source's rate."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()  # the scheduler books on one loop; other callers may not

    def reserve(self, source: str, requests_per_second: float) -> float:
        """Book the next start for `source`: how many seconds from now it is."""
        with self._lock:
            now = self._clock()
            start = max(now, self._next.get(source, now))
            self._next[source] = start + 1.0 / max(requests_per_second, 1e-6)
            return start - now

    def pause(self, source: str, seconds: float) -> None:
        """No start for `source` before `seconds` from now (it answered 429 to someone)."""
        with self._lock:
            until = self._clock() + max(0.0, seconds)
            self._next[source] = max(self._next.get(source, until), until)


class RateBookPlugin(SchedulerPlugin):
    """The cluster's `RateBook`, kept by the scheduler (a Dask scheduler plugin): it outlives
    any worker, so a lost worker takes no rate with it. Workers book through the scheduler
    handlers it adds, `citecheck_reserve` and `citecheck_pause`."""

    name = "citecheck-rate-book"
    idempotent = True  # registered again by a second run on the same scheduler: kept

    async def start(self, scheduler: Any) -> None:
        """Open the book (on the scheduler: the plugin travels there pickled) and add the
        booking handlers."""
        self.book = RateBook()
        scheduler.handlers["citecheck_reserve"] = self._reserve
        scheduler.handlers["citecheck_pause"] = self._pause

    def _reserve(self, source: str, requests_per_second: float) -> float:
        return self.book.reserve(source, requests_per_second)

    def _pause(self, source: str, seconds: float) -> None:
        self.book.pause(source, seconds)


class ClusterRate:
    """A worker's handle on the scheduler's rate book (a `SharedRate`): picklable, so it
    travels with each task; each call is one request to the scheduler, made through the
    worker's client."""

    def reserve(self, source: str, requests_per_second: float) -> float:
        """See `RateBook.reserve`."""
        client = _worker_client()
        return float(
            client.sync(
                client.scheduler.citecheck_reserve,
                source=source,
                requests_per_second=requests_per_second,
            )
        )

    def pause(self, source: str, seconds: float) -> None:
        """See `RateBook.pause`."""
        client = _worker_client()
        client.sync(client.scheduler.citecheck_pause, source=source, seconds=seconds)


def _worker_client() -> Any:
    from distributed import get_client  # start-up: called inside a task on a worker only

    return get_client()
