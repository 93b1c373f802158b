"""A Dask preload for the scheduler and nannies of citecheck's local cluster: the process closes
itself once the citecheck that started it is gone (killed, say), so no cluster outlives its run.

Dask calls `dask_setup` with the server as it starts (`--preload` for the scheduler,
`--preload-nanny` for a worker's nanny, which takes its worker down with it).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from tornado.ioloop import PeriodicCallback

# How often the parent is looked for, in milliseconds.
_EVERY_MS = 1000


def dask_setup(server: Any) -> None:
    """Close `server` when the process named by CITECHECK_PARENT_PID is no longer its parent."""
    parent = int(os.environ.get("CITECHECK_PARENT_PID", "0") or 0)
    if not parent:
        return  # started by hand: nothing to watch
    closing: list[asyncio.Task[Any]] = []

    def look() -> None:
        if os.getppid() != parent and not closing:
            closing.append(asyncio.ensure_future(server.close()))

    watcher = PeriodicCallback(look, _EVERY_MS)
    server.periodic_callbacks["citecheck-parent"] = watcher
    watcher.start()
