"""Which registries a run still asks: the registry client's circuit breaker.

A source that cannot be reached is not asked again in the run; when no source can be, the
network is down, every source is given up, and the runs of the next minute are told (through the
cache) so that a writer rebuilding offline does not wait out timeouts on every build.
"""

from __future__ import annotations

import logging
import socket
from collections import Counter
from collections.abc import Callable

from citecore.cache import Cache
from citecore.model import Source

logger = logging.getLogger(__name__)

# A source whose connections keep failing this long (no success between) is unreachable: long
# enough that a burst of refusals at one moment (a full listen queue) is not enough.
_CONNECT_FAILING_FOR = 0.5
_LOST_REQUESTS_TO_OPEN = 3  # requests in a row lost to timeouts or broken connections
# A run that found the network down tells the runs of the next minute, which then do not ask: a
# writer editing behind a network that hangs (a captive portal, a plane's Wi-Fi) would otherwise
# wait out the connection timeouts on every build. A minute after, builds ask again.
NETWORK_DOWN_TTL = 60.0


def unresolved(exc: BaseException) -> bool:
    """Whether a failed connection failed at resolving the host's name (socket.gaierror under
    httpx's and httpcore's wrappers)."""
    seen: BaseException | None = exc
    for _ in range(4):
        if seen is None:
            return False
        if isinstance(seen, socket.gaierror):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


class Reachability:
    """What one run learnt of each source's reachability. With a `cache` and `remember`, a
    network found down by a run of the last NETWORK_DOWN_TTL seconds is down from the start."""

    def __init__(self, clock: Callable[[], float], cache: Cache | None, remember: bool) -> None:
        self._clock = clock
        self._cache = cache
        self._unreachable: set[Source] = set()
        self._refused: dict[Source, float] = {}  # when connecting to a source began to fail
        self._opened: set[Source] = set()  # sources whose circuit opened on connections
        self._unresolved: set[Source] = set()  # sources whose host name did not resolve
        self._answered: set[Source] = set()  # sources that sent any HTTP reply this run
        self._lost: Counter[Source] = Counter()  # requests in a row lost after their retries
        self.network_down = False
        self.recalled = False  # down because a run of the last minute said so
        if cache is not None and remember and cache.get("network", "down"):
            self._network_looks_down(said_by_an_earlier_run=True)

    def gave_up(self, source: Source) -> bool:
        """True once this run stopped asking `source`."""
        return source in self._unreachable

    def unreachable(self) -> frozenset[Source]:
        """The sources this run stopped asking."""
        return frozenset(self._unreachable)

    def answered(self, source: Source) -> None:
        """`source` sent an HTTP reply (any status): it is reachable."""
        self._answered.add(source)
        self._refused.pop(source, None)

    def request_lost(self, source: Source) -> None:
        """A request to `source` failed on the network after its retries. A source that keeps
        losing them (it accepts connections and never answers) is given up for the run, like
        one that refuses them; a single slow answer is not enough."""
        self._lost[source] += 1
        if self._lost[source] >= _LOST_REQUESTS_TO_OPEN:
            self._unreachable.add(source)

    def request_answered(self, source: Source) -> None:
        """A request to `source` got its answer: the count of lost requests starts over."""
        self._lost[source] = 0

    def connection_failed(self, source: Source, name_unresolved: bool) -> None:
        """A connection to `source` could not be opened (DNS failure, refused, no route,
        connect timeout). When its connections have kept failing for _CONNECT_FAILING_FOR
        seconds, its circuit opens; when two sources fail so and none has answered this run,
        the network itself is down and every source's circuit opens: a build without network
        stops trying within a second or two, not minutes. Two sources whose names did not
        resolve (the machine has no working network) say so at once."""
        if name_unresolved:
            self._unresolved.add(source)
            if len(self._unresolved) >= 2:
                self._network_looks_down()
        now = self._clock()
        began = self._refused.setdefault(source, now)
        if now - began < _CONNECT_FAILING_FOR:
            return
        self._opened.add(source)
        self._unreachable.add(source)
        if len(self._opened) >= 2:
            self._network_looks_down()

    def _network_looks_down(self, said_by_an_earlier_run: bool = False) -> None:
        """Stop asking every source, unless one answered this run (then it is those sources);
        tell the runs of the next NETWORK_DOWN_TTL seconds."""
        if self._answered or self.network_down:
            return
        self.network_down = True
        self._unreachable.update(Source)
        if said_by_an_earlier_run:
            self.recalled = True
            return
        logger.info("no registry could be reached: the network looks down")
        if self._cache is not None:
            self._cache.put("network", "down", "1", ttl=NETWORK_DOWN_TTL)
