"""Where a screen runs: a client of a running Dask scheduler, or of a local cluster whose
scheduler has a process of its own — and the Dask settings a long screen needs, in one place.

A `LocalCluster` runs its scheduler on an event loop inside the client's process, the process
that also reads a venue's references, groups its works and writes its state and reports. On two
cores that process holds the GIL for seconds at a time (its scheduler loop stalled for 10 s in a
1,000,000-reference screen), and a run lost its scheduler six minutes in (#64). Here the
scheduler is `dask scheduler` in its own process and the workers are `dask worker`'s nannies
(which restart a worker that dies); results come from the workers to the client directly, not
through the scheduler. Each process closes itself when the citecheck that started it is gone
(`screen/watchdog.py`), so a killed run leaves no cluster behind.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import IO, TYPE_CHECKING

from citecore.errors import CitecheckError

if TYPE_CHECKING:
    from distributed import Client

# Dask's settings for a screen, with the reason for each. They reach the scheduler's and the
# workers' processes as DASK_* variables, the client's through dask.config.
DASK_SETTINGS = {
    # Connecting (a client, a worker, a new comm from a pool) needs the other side's event loop
    # to answer the handshake. A loop busy with a large batch can take seconds; Dask's 30 s left
    # a third of it between a measured stall and a failed connection.
    "distributed.comm.timeouts.connect": "90s",
    # The kernel's timeout on a connection (TCP keepalive and TCP_USER_TIMEOUT): Linux also
    # drops a connection whose peer's window stays closed that long — a process too busy to read
    # what is sent to it. A killed process's connections close at once whatever this is, so a
    # longer timeout costs nothing on one machine and spares a busy one.
    "distributed.comm.timeouts.tcp": "180s",
    # A worker whose heartbeats stop this long is taken for lost and its tasks sent elsewhere:
    # above any stall measured, below the time a chair would wait on a hung worker.
    "distributed.scheduler.worker-ttl": "10 minutes",
}
# Closes the scheduler and the nannies when the citecheck that started them is gone.
_WATCHDOG = "citecore.screen.watchdog"
# How long a new cluster may take to come up: two interpreters importing Dask on a busy machine.
_START_SECONDS = 120.0


def dask_variables() -> dict[str, str]:
    """`DASK_SETTINGS` as the environment variables Dask reads at start-up."""
    return {
        "DASK_" + key.upper().replace(".", "__").replace("-", "_"): value
        for key, value in DASK_SETTINGS.items()
    }


@contextmanager
def cluster_client(
    scheduler: str = "", workers: int = 2, logs: Path | None = None
) -> Iterator[Client]:
    """A client of the scheduler at `scheduler`, else of a local cluster of `workers`
    single-threaded worker processes and a scheduler process of its own, all closed afterwards.
    Dask's own log lines go to `logs/dask.log` (with the scheduler's and workers') when `logs`
    is given, else nowhere: what the user reads is the run's progress and its errors."""
    import dask  # start-up: Dask (~0.5 s) only to screen

    with dask.config.set(DASK_SETTINGS), ExitStack() as stack:
        # A folder of its own only when none is given: a killed run cannot remove it.
        folder = logs or Path(stack.enter_context(TemporaryDirectory(prefix="citecheck-dask-")))
        folder.mkdir(parents=True, exist_ok=True)
        with _dask_logs_to(folder / "dask.log" if logs else None):
            if scheduler:
                with _client(scheduler) as client:
                    yield client
                return
            with local_cluster(workers, folder) as address, _client(address) as client:
                client.wait_for_workers(workers, timeout=_START_SECONDS)
                yield client


@contextmanager
def _client(address: str) -> Iterator[Client]:
    from distributed import Client  # start-up: as above

    try:
        # direct_to_workers: results come from the workers, not through the scheduler's loop.
        client = Client(address, direct_to_workers=True)
    except (OSError, TimeoutError) as exc:
        raise CitecheckError(f"cannot reach the Dask scheduler at {address}: {exc}") from exc
    try:
        yield client
    finally:
        # A client whose scheduler is gone still closes, quickly, without a traceback.
        with suppress(Exception):
            client.close(timeout=10)


@contextmanager
def local_cluster(workers: int, folder: Path) -> Iterator[str]:
    """The address of a scheduler started in its own process with `workers` worker processes
    (nannies, one thread each), their logs in `folder`; every process stopped afterwards."""
    address_file = folder / f"scheduler-{os.getpid()}-{time.monotonic_ns()}.json"
    environment = {**os.environ, **dask_variables(), "CITECHECK_PARENT_PID": str(os.getpid())}
    with (folder / "scheduler.log").open("a") as scheduler_log:
        scheduler = _start(
            [
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(address_file),
                "--preload",
                _WATCHDOG,
            ],
            environment,
            scheduler_log,
        )
    try:
        address = _address(address_file, scheduler)
        with (folder / "workers.log").open("a") as workers_log:
            nannies = _start(
                [
                    "worker",
                    address,
                    "--nworkers",
                    str(workers),
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                    "--host",
                    "127.0.0.1",
                    "--preload-nanny",
                    _WATCHDOG,
                ],
                environment,
                workers_log,
            )
        try:
            yield address
        finally:
            _stop(nannies)
    finally:
        _stop(scheduler)
        address_file.unlink(missing_ok=True)


def _start(
    arguments: list[str], environment: dict[str, str], log: IO[str]
) -> subprocess.Popen[bytes]:
    # A session of its own: a Ctrl-C in the terminal reaches citecheck, which stops the cluster
    # in order, instead of killing the scheduler under a run that is still writing.
    return subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_" + arguments[0], *arguments[1:]],
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def _address(address_file: Path, scheduler: subprocess.Popen[bytes]) -> str:
    """The address the scheduler wrote once it listens."""
    deadline = time.monotonic() + _START_SECONDS
    while time.monotonic() < deadline:
        if scheduler.poll() is not None:
            raise CitecheckError(
                f"the Dask scheduler exited at start-up ({scheduler.returncode}): see "
                f"{address_file.parent / 'scheduler.log'}"
            )
        with suppress(OSError, ValueError, KeyError):
            return str(json.loads(address_file.read_text(encoding="utf-8"))["address"])
        time.sleep(0.05)
    raise CitecheckError(f"the Dask scheduler did not start within {_START_SECONDS:.0f} s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Ask a process group to stop (Dask closes gracefully on SIGTERM), kill what remains."""
    for sent, wait in ((signal.SIGTERM, 10.0), (signal.SIGKILL, 5.0)):
        with suppress(ProcessLookupError):
            os.killpg(process.pid, sent)
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            continue
        # the nannies' workers live in the same session: none may outlive the run
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        return


@contextmanager
def _dask_logs_to(path: Path | None) -> Iterator[None]:
    """Dask's log lines (a lost connection is logged with a traceback) written to `path`, else
    dropped, for as long as the cluster is up."""
    handler: logging.Handler = (
        logging.FileHandler(path, encoding="utf-8") if path else logging.NullHandler()
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    names = ("distributed", "distributed.client", "distributed.worker", "distributed.scheduler")
    loggers = [logging.getLogger(name) for name in names]
    saved = [(lg.handlers[:], lg.propagate, lg.level) for lg in loggers]
    for lg in loggers:
        lg.handlers = [handler] if lg.name == "distributed" else []
        lg.propagate = lg.name != "distributed"
        lg.setLevel(logging.INFO if path else logging.CRITICAL)
    try:
        yield
    finally:
        for lg, (handlers, propagate, level) in zip(loggers, saved, strict=True):
            lg.handlers, lg.propagate, lg.level = handlers, propagate, level
        handler.close()
