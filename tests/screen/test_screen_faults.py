"""A screen survives the faults of a long run (#64): its scheduler killed mid-run, its client's
event loop stalled, a worker of an external cluster killed and started again. Each run ends with
the verdicts and venue table of an uninterrupted run, and the user reads one line, no
traceback."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from citecore.options import resolve_options
from citecore.screen import cluster
from citecore.screen.run import ScreenSettings, screen_venue
from citecore.screen.submissions import find_submissions
from tests.emulator import RegistryEmulator
from tests.kill_resume import run_environment
from tests.screen.venue import CITECHECK_ENTRY, citecheck_run, report_verdicts, write_venue
from tests.world import World


@pytest.fixture
def world() -> Iterator[RegistryEmulator]:
    with RegistryEmulator(strict=False, world=World.load()) as emulator:
        yield emulator


def _outcome(out: Path) -> tuple[dict[str, dict[str, str]], dict[str, int]]:
    """Every submission's verdicts and the venue's totals, as a run wrote them."""
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    verdicts = {
        row["submission"]: report_verdicts(out / row["submission"] / "report.json")
        for row in summary["submissions"]
    }
    return verdicts, summary["totals"]


def _once_midway(world: RegistryEmulator, requests: int, act: Callable[[], None]) -> list[bool]:
    """Make the emulator run `act` once, when `requests` more requests have come in; the list
    it returns holds True once it has."""
    done: list[bool] = []
    lock = threading.Lock()  # the emulator answers requests on many threads
    start = len(world.log)

    def fault(route: str) -> None:
        with lock:
            if not done and len(world.log) - start >= requests:
                done.append(True)
                act()

    world.faults = fault
    return done


def _process_named(root: int, module: str) -> int:
    """The pid of the process under `root` running `python -m module`."""
    for process in psutil.Process(root).children(recursive=True):
        if module in " ".join(process.cmdline()):
            return int(process.pid)
    raise AssertionError(f"no {module} under {root}")


def _started_by(pid: int) -> list[int]:
    """The live processes a citecheck of `pid` started as its local cluster."""
    found = []
    for process in psutil.process_iter():
        try:
            if process.environ().get("CITECHECK_PARENT_PID") == str(pid) and process.is_running():
                found.append(process.pid)
        except (psutil.Error, OSError):
            continue  # gone meanwhile, or not ours to read
    return found


def _clean_run(world: RegistryEmulator, submissions: Path, tmp_path: Path) -> Path:
    out = tmp_path / "clean"
    run = citecheck_run(
        ["screen", str(submissions), "-o", str(out)], run_environment(world, tmp_path / "c0")
    )
    assert run.returncode == 0, run.stderr
    return out


def test_a_screen_whose_scheduler_is_killed_resumes_to_the_same_verdicts(
    world: RegistryEmulator, tmp_path: Path
) -> None:
    submissions = write_venue(tmp_path, papers=6, per_paper=15, seed=3)
    clean = _clean_run(world, submissions, tmp_path)
    asked = len(world.log)
    out = tmp_path / "out"
    run = subprocess.Popen(
        [sys.executable, "-c", CITECHECK_ENTRY, "screen", str(submissions), "-o", str(out)],
        env=run_environment(world, tmp_path / "c1"),  # a cold cache: the run asks again
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    killed = _once_midway(
        world,
        asked // 2,
        lambda: os.kill(_process_named(run.pid, "distributed.cli.dask_scheduler"), 9),
    )
    _, stderr = run.communicate(timeout=300)
    assert killed, "the scheduler was not killed mid-run"
    assert run.returncode == 0, stderr
    assert "Traceback" not in stderr
    told = [line for line in stderr.splitlines() if "lost the Dask scheduler" in line]
    assert len(told) == 1, stderr
    assert "starting the cluster again and resuming" in told[0]
    assert _outcome(out) == _outcome(clean)
    assert not _started_by(run.pid)  # the run left no cluster behind


def test_a_stalled_client_loop_loses_no_verdict(
    world: RegistryEmulator, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The client's event loop held longer than the connect timeout (shortened here) while the
    workers go on: the scheduler has a loop of its own, so the run goes on when the client's
    comes back."""
    from distributed import default_client

    submissions = write_venue(tmp_path, papers=4, per_paper=15, seed=5)
    clean = _clean_run(world, submissions, tmp_path)
    asked = len(world.log)
    for name, value in run_environment(world, tmp_path / "c1").items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("CITECHECK_OFFLINE", raising=False)
    shorter = {"distributed.comm.timeouts.connect": "3s", "distributed.comm.timeouts.tcp": "12s"}
    monkeypatch.setattr(cluster, "DASK_SETTINGS", {**cluster.DASK_SETTINGS, **shorter})
    stalls: list[float] = []

    def hold_the_loop() -> None:
        stalls.append(time.monotonic())
        time.sleep(15)

    def stall_the_client() -> None:
        client = default_client()  # type: ignore[no-untyped-call]
        client.loop.add_callback(hold_the_loop)

    stalled = _once_midway(world, asked // 3, stall_the_client)
    said: list[str] = []
    options = resolve_options({}, base={"strict": True})
    out = tmp_path / "out"
    screen_venue(find_submissions([submissions]), options, ScreenSettings(out), "", 2, said.append)
    assert stalled
    assert time.monotonic() - stalls[0] > 15  # the loop was held while the run went on
    assert not [line for line in said if "lost" in line]  # nor was the scheduler lost
    assert _outcome(out) == _outcome(clean)


class _ExternalCluster:
    """A `dask scheduler` on a port of its own and `dask worker`s without nannies, started as
    an operator would start them, in the run's environment; every process killed on leaving."""

    def __init__(self, environment: dict[str, str]) -> None:
        self.environment = environment
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.started: list[subprocess.Popen[bytes]] = []

    def _start(self, *arguments: str) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [sys.executable, "-m", *arguments],
            env=self.environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.started.append(process)
        return process

    def scheduler(self) -> subprocess.Popen[bytes]:
        """A scheduler listening at `address` (once it answers)."""
        process = self._start("distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                              "--port", str(self.port), "--no-dashboard")  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return process
            time.sleep(0.1)
        raise AssertionError("the scheduler did not start")

    def worker(self) -> subprocess.Popen[bytes]:
        """A single-threaded worker of the scheduler at `address`."""
        return self._start("distributed.cli.dask_worker", self.address, "--no-nanny",
                           "--nthreads", "1", "--no-dashboard")  # fmt: skip

    def __enter__(self) -> _ExternalCluster:
        return self

    def __exit__(self, *_: object) -> None:
        for process in self.started:
            process.kill()
            process.wait()


def _screened_on(address: str, submissions: Path, out: Path, environment: dict[str, str]) -> str:
    """What `citecheck screen --scheduler ADDRESS` told the user, once it has exited 0 without
    a traceback."""
    run = citecheck_run(
        ["screen", str(submissions), "-o", str(out), "--scheduler", address], environment
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    return run.stderr


def test_an_external_scheduler_survives_a_restarted_worker(
    world: RegistryEmulator, tmp_path: Path
) -> None:
    submissions = write_venue(tmp_path, papers=5, per_paper=15, seed=9)
    clean = _clean_run(world, submissions, tmp_path)
    asked = len(world.log)
    environment = run_environment(world, tmp_path / "c1")
    with _ExternalCluster(environment) as cluster:
        cluster.scheduler()
        first, _ = cluster.worker(), cluster.worker()

        def restart_a_worker() -> None:
            os.kill(first.pid, signal.SIGKILL)
            cluster.worker()

        restarted = _once_midway(world, asked // 2, restart_a_worker)
        out = tmp_path / "out"
        said = _screened_on(cluster.address, submissions, out, environment)
    assert restarted
    assert "lost the Dask scheduler" not in said  # a lost worker is Dask's to retry
    assert _outcome(out) == _outcome(clean)


def test_a_run_reconnects_to_an_external_scheduler_started_again(
    world: RegistryEmulator, tmp_path: Path
) -> None:
    """The operator's scheduler killed mid-run (its workers close with it) and started again at
    its address, with new workers: the run reconnects and resumes."""
    submissions = write_venue(tmp_path, papers=5, per_paper=15, seed=13)
    clean = _clean_run(world, submissions, tmp_path)
    asked = len(world.log)
    environment = run_environment(world, tmp_path / "c1")
    with _ExternalCluster(environment) as cluster:
        first = cluster.scheduler()
        cluster.worker(), cluster.worker()

        def restart_the_cluster() -> None:
            os.kill(first.pid, signal.SIGKILL)
            threading.Thread(target=lambda: (cluster.scheduler(), cluster.worker())).start()

        restarted = _once_midway(world, asked // 2, restart_the_cluster)
        out = tmp_path / "out"
        said = _screened_on(cluster.address, submissions, out, environment)
    assert restarted
    told = [line for line in said.splitlines() if "lost the Dask scheduler" in line]
    assert len(told) == 1 and f"reconnecting to {cluster.address}" in told[0], said
    assert _outcome(out) == _outcome(clean)


def test_the_local_scheduler_has_a_process_of_its_own_with_the_screens_settings() -> None:
    import dask

    from citecore.screen.cluster import DASK_SETTINGS, cluster_client

    def settings() -> list[str]:
        return [str(dask.config.get(key)) for key in DASK_SETTINGS]

    with cluster_client("", 2) as client:
        on_scheduler: Any = client.run_on_scheduler  # Dask's API is only partly annotated
        assert on_scheduler(os.getpid) != os.getpid()
        assert on_scheduler(settings) == list(DASK_SETTINGS.values())
        assert set(map(tuple, client.run(settings).values())) == {tuple(DASK_SETTINGS.values())}


_HOLD_A_CLUSTER = """
import os, sys, time
from pathlib import Path
from citecore.screen.cluster import cluster_client
with cluster_client("", 2, Path(sys.argv[1])) as client:
    pids = [client.run_on_scheduler(os.getpid), *client.run(os.getpid).values()]
    print(" ".join(map(str, pids)), flush=True)
    time.sleep(120)
"""


def test_a_killed_citecheck_leaves_no_cluster_behind(tmp_path: Path) -> None:
    # as the CLI runs it: with a logs folder, and its own temporary folder to look into after
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    with subprocess.Popen(
        [sys.executable, "-c", _HOLD_A_CLUSTER, str(tmp_path / "logs")],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(scratch)},
    ) as holder:
        assert holder.stdout is not None
        pids = [int(pid) for pid in holder.stdout.readline().split()]
        assert len(pids) == 3  # the scheduler and two workers
        holder.kill()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(psutil.pid_exists(pid) for pid in pids):
        time.sleep(0.2)
    alive = [pid for pid in pids if psutil.pid_exists(pid)]
    assert not alive, f"outlived the run: {alive}"
    assert not list(scratch.glob("citecheck-dask-*")), "a folder outlived the run"
