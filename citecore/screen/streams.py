"""Work sent to a Dask cluster a window at a time, its results streamed back as they finish;
and a lost scheduler told apart from a task that failed.

A screen once submitted every task of a phase at once and gathered a million references in one
message: the scheduler held thousands of graphs and the client unpickled hundreds of MB in one
stretch, its connections stalled meanwhile (#64). A window keeps a few tasks per worker queued
— enough that no worker waits on the client — and hands each result over as it comes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from distributed import Client, Future

# Tasks kept submitted and unfinished, per worker: one running, the rest queued behind it.
_PER_WORKER = 4


def window_of(client: Client) -> int:
    """How many tasks to keep in flight on `client`'s cluster."""
    workers = len(client.scheduler_info().get("workers", {}))
    return _PER_WORKER * max(1, workers)


def streamed(
    client: Client, calls: Iterable[Callable[[], Future[Any]]], window: int = 0
) -> Iterator[tuple[int, Any]]:
    """The result of each of `calls` (each submits one task and returns its future) with the
    call's position, in the order they finish; at most `window` (default `window_of(client)`)
    submitted and unfinished at a time. A task's error is raised as it comes."""
    from distributed import as_completed  # start-up: Dask only to screen

    pending = iter(enumerate(calls))
    running = as_completed()
    position: dict[Any, int] = {}  # by task key

    def submit_next() -> None:
        for index, call in pending:
            future = call()
            position[future.key] = index
            running.add(future)
            return

    for _ in range(window or window_of(client)):
        submit_next()
    for future in running:
        result = future.result()
        index = position.pop(future.key)
        future.release()  # the worker may drop it now: nothing of the run asks for it again
        submit_next()
        yield index, result


def scheduler_lost(client: Client, error: BaseException) -> bool:
    """Whether `error` came of `client` losing its scheduler (every future of the run gone
    with it), rather than of a task or of citecheck itself."""
    # start-up: Dask only to screen
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError

    if isinstance(error, FutureCancelledError) and error.reason == "scheduler-connection-lost":
        return True
    # A task's own error (an OSError of a reading, say) comes while the client is connected.
    return isinstance(error, CommClosedError) or client.status != "running"
