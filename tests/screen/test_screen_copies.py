"""`screen` against complete copies of the registries: the workers ask the copies in the copied
registries' place (docs/verification.md, "A complete copy answers for its registry"), so that a
venue's references older than the copies send no request to DBLP, arXiv or Crossref, with the
verdicts single-machine `verify` gives against the same copies."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from citecore.registries.snapshot import Snapshot
from tests.emulator import RegistryEmulator, registry_of
from tests.kill_resume import run_environment
from tests.mixed_bibliography import as_bibtex, mixed_bibliography
from tests.world import World
from tests.world_copies import build_copies

_ENTRY = "import sys; from citecore.cli import main; sys.exit(main())"


def _citecheck(args: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _ENTRY, *args],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def _verdicts(report: Path) -> dict[str, str]:
    data = json.loads(report.read_text(encoding="utf-8"))
    return {r["key"]: r["verdict"] for r in data["references"]}


def test_a_screen_asks_the_copies_in_their_registries_place(tmp_path: Path) -> None:
    world = World.load()
    copies = build_copies(world, tmp_path / "copies")
    newest = min(c.newest for c in Snapshot(copies).registry_copies().values())
    listed = mixed_bibliography(world, real=24, per_kind=1, seed=5)
    older = [i.reference for i in listed if (i.reference.year or newest) < newest]
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for n in range(3):
        part = older[n::3]
        (submissions / f"paper{n}.bib").write_text("".join(map(as_bibtex, part)), "utf-8")
    with RegistryEmulator(strict=False, world=world) as emulator:
        environment = run_environment(emulator, tmp_path / "cache")
        out = tmp_path / "out"
        screen = ["screen", str(submissions), "-o", str(out), "--snapshot", str(copies)]
        run = _citecheck([*screen, "--workers", "2"], environment)
        assert run.returncode in (0, 1), run.stderr
        assert "Traceback" not in run.stderr
        asked = {registry_of(key) for _, key in emulator.log}
        assert not {"dblp", "arxiv", "crossref"} & asked, asked
        for n in range(3):
            single = tmp_path / f"single{n}.json"
            bib = str(submissions / f"paper{n}.bib")
            verify = ["verify", bib, "-o", str(single), "--snapshot", str(copies)]
            assert _citecheck(verify, environment).returncode in (0, 1)
            assert _verdicts(out / f"paper{n}" / "report.json") == _verdicts(single)
