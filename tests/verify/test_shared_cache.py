"""Builds at once on one cache: four `citecheck verify` processes share a cache folder (as
parallel CI jobs or a Makefile with -j do) — no lock errors, the same report from each."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.emulator import RegistryEmulator
from tests.hallmark import hallmark_bibtex
from tests.kill_resume import run_environment
from tests.world import World


def test_four_builds_share_one_cache(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(hallmark_bibtex(60), encoding="utf-8")
    entry = "import sys; from citecore.cli import main; sys.exit(main())"
    with RegistryEmulator(strict=False, world=World.load()) as emulator:
        environment = run_environment(emulator, tmp_path / "shared-cache")
        runs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    entry,
                    "verify",
                    str(bib),
                    "-f",
                    "json",
                    "-o",
                    str(tmp_path / f"report{n}.json"),
                ],
                env=environment,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for n in range(4)
        ]
        finished = [run.communicate(timeout=300) for run in runs]
    for run, (_, err) in zip(runs, finished, strict=True):
        assert run.returncode in (0, 1), err
        assert "locked" not in err and "cache" not in err, err
    reports = [(tmp_path / f"report{n}.json").read_text() for n in range(4)]
    assert reports[1:] == reports[:1] * 3
