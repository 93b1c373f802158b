"""Each registry's published rate, kept for a whole cluster: one book of request starts that
every worker's client consults (a Dask actor), so 16 workers ask arXiv no faster than one would.

`RateBook` is the book itself (plain Python, its clock injectable for tests); on a cluster it
lives on one worker as an actor, and `ClusterRate` is what the workers' clients hold: the
`SharedRate` of `citecore.registries.http`, calling the actor.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any


class RateBook:
    """The next free start per source: each booking takes the next slot at that source's rate."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._next: dict[str, float] = {}
        self._lock = threading.Lock()  # an actor runs one call at a time; a thread pool may not

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


class ClusterRate:
    """A worker's handle on the cluster's `RateBook` actor (a `SharedRate`): picklable, so it
    travels with each task; each call waits for the actor's answer."""

    def __init__(self, actor: Any) -> None:
        self._actor = actor

    def reserve(self, source: str, requests_per_second: float) -> float:
        """See `RateBook.reserve`."""
        return float(self._actor.reserve(source, requests_per_second).result())

    def pause(self, source: str, seconds: float) -> None:
        """See `RateBook.pause`."""
        self._actor.pause(source, seconds).result()
