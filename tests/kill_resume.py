"""`citecheck verify --resume` killed with SIGKILL at random moments, then run to the end: the
resume file and the cache stay readable after every kill, and the finished run gives the
verdicts of an uninterrupted one. Shared by tests/verify/test_kill_resume.py (a few kills) and
bench/kill_resume.py (20)."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from citecore.model import Source
from citecore.registries.settings import rate_variables
from tests.emulator import RegistryEmulator
from tests.hallmark import hallmark_bibtex
from tests.world import World


@dataclass
class KillReport:
    """What the kills left behind and how the finished run compares."""

    kills: int = 0
    unreadable_resume_files: list[str] = field(default_factory=list)
    damaged_caches: list[str] = field(default_factory=list)
    differing_verdicts: list[str] = field(default_factory=list)


def run_environment(emulator: RegistryEmulator, cache_home: Path) -> dict[str, str]:
    """The environment of a citecheck process pointed at `emulator`, caching in `cache_home`."""
    environment = {k: v for k, v in os.environ.items() if k != "CITECHECK_OFFLINE"}
    environment.update(emulator.environment())
    environment["XDG_CACHE_HOME"] = str(cache_home)
    for source in Source:  # loopback: the published limits would only make the run slow
        rate, concurrency = rate_variables(source)
        environment[rate], environment[concurrency] = "2000", "16"
    return environment


def _verdicts(report: Path) -> dict[str, str]:
    data = json.loads(report.read_text(encoding="utf-8"))
    return {r["key"]: r["verdict"] for r in data["references"]}


def _cache_is_sound(cache_home: Path) -> bool:
    database = cache_home / "citecheck" / "cache.sqlite3"
    if not database.exists():
        return True
    with sqlite3.connect(database) as connection:
        return bool(connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok")


def kill_and_resume(folder: Path, references: int, kills: int, seed: int = 1) -> KillReport:
    """Run the experiment in `folder`; return what it found."""
    bib = folder / "refs.bib"
    bib.write_text(hallmark_bibtex(references), encoding="utf-8")
    chooser = random.Random(seed)
    report = KillReport()
    entry = "import sys; from citecore.cli import main; sys.exit(main())"
    command = [sys.executable, "-c", entry, "verify", str(bib), "-q", "-f", "json"]
    with RegistryEmulator(strict=False, world=World.load()) as emulator:
        whole = folder / "whole.json"
        subprocess.run(
            [*command, "-o", str(whole)],
            env=run_environment(emulator, folder / "cache-whole"),
            capture_output=True,
            check=False,
        )
        environment = run_environment(emulator, folder / "cache-killed")
        progress, out = folder / "progress.json", folder / "resumed.json"
        resumed = [*command, "--resume", str(progress), "-o", str(out)]
        for _ in range(kills):
            process = subprocess.Popen(
                resumed, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            time.sleep(chooser.uniform(0.3, 2.5))
            if process.poll() is None:
                os.kill(process.pid, signal.SIGKILL)
                report.kills += 1
            process.wait()
            if progress.exists():
                try:
                    json.loads(progress.read_text(encoding="utf-8"))
                except ValueError:
                    report.unreadable_resume_files.append(f"after kill {report.kills}")
            if not _cache_is_sound(folder / "cache-killed"):
                report.damaged_caches.append(f"after kill {report.kills}")
        subprocess.run(resumed, env=environment, capture_output=True, check=False)
    expected, found = _verdicts(whole), _verdicts(out)
    report.differing_verdicts = [
        f"{key}: {expected[key]} uninterrupted, {found.get(key)} resumed"
        for key in expected
        if found.get(key) != expected[key]
    ]
    return report
