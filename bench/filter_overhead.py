"""Benchmark: pandoc + the citecheck filter against pandoc + a no-op panflute filter.

Generates a 300-citation document with a 120-entry bibliography (`--citations`, `--entries`),
then times, interleaved in the same run, pandoc with a no-op panflute filter and pandoc with
citecheck in three situations:

- rebuild: the document is unchanged (the run is replayed from the cache);
- edited: one sentence changes before every build (the bibliography parse is cached, the rest
  runs: the case while a writer edits);
- cold: an empty cache every time (a first build).

Prints the medians and each ratio to the no-op filter (targets: an unchanged rebuild ≤ 1.0×, an
edited document ≤ 1.2×, a first build ≤ 1.5×).
Run with `make bench` or `python bench/filter_overhead.py [--runs N] [--citations N]
[--entries N]`.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.model import Source
from citecore.pandoc.reader import pandoc_path
from citecore.registries.settings import rate_variables
from tests.citing_paper import write_citing_paper
from tests.emulator import RegistryEmulator

OFF = {"CITECHECK_SERVER": "off"}

NOOP_FILTER = """import panflute as pf
pf.run_filter(lambda element, doc: None)
"""


def write_inputs(folder: Path, citations: int = 300, entries: int = 120) -> Path:
    """The citing paper (`tests.citing_paper`) and the no-op panflute filter beside it."""
    paper = write_citing_paper(folder, citations, entries)
    # An executable with this interpreter in its shebang, as pip writes `citecheck`'s script:
    # pandoc would run a `.py` filter with whatever `python` PATH finds first (a pyenv shim
    # adds ~40 ms), which would flatter citecheck.
    noop = folder / "noop"
    noop.write_text(f"#!{sys.executable}\n{NOOP_FILTER}")
    noop.chmod(0o755)
    return paper


def time_command(args: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Wall time of one run, in seconds; the command must succeed."""
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def edit(paper: Path, run: int) -> None:
    """Change the last sentence of the paper, as a writer does between two builds."""
    lines = paper.read_text().rstrip("\n").split("\n")
    if lines[-1].startswith("Edited"):
        lines.pop()
    lines.append(f"Edited sentence number {run} cites [@key{run % 100}].")
    paper.write_text("\n".join(lines) + "\n")


def main() -> None:
    """Print the medians of both pipelines and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--citations", type=int, default=300, help="citations in the document")
    parser.add_argument("--entries", type=int, default=120, help="entries in its bibliography")
    chosen = parser.parse_args()
    runs = chosen.runs
    # Bytecode as `pip install` leaves it: with PYTHONDONTWRITEBYTECODE set (as on these
    # machines) an editable install would compile every module from source on every run.
    compileall.compile_dir(Path(__file__).resolve().parents[1] / "citecore", quiet=1)
    citecheck = str(Path(sys.executable).parent / "citecheck")
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        paper = write_inputs(folder, chosen.citations, chosen.entries)
        pandoc = pandoc_path()
        base = [pandoc, "paper.md", "-t", "html", "-o", os.devnull]
        noop = [*base, "--filter", str(folder / "noop")]
        ours = [*base, "--filter", citecheck]
        # Registry verification goes to a loopback emulator that knows no work (a benchmark
        # sends nothing past this machine): the warm-up caches every verdict, as a writer's
        # first build does; the cold runs are offline, with nothing cached.
        emulator = stack.enter_context(RegistryEmulator(strict=False))
        # A private socket directory: the bench's build server is its own, and goes with it.
        ours_only = {k: v for k, v in os.environ.items() if k not in {"CI", "CITECHECK_SERVER"}}
        ours_only.update(XDG_RUNTIME_DIR=str(folder), CITECHECK_SERVER_IDLE="60")
        offline = {**ours_only, "CITECHECK_OFFLINE": "1"}
        # The emulator answers at once: the warm-up need not wait out arXiv's 3 seconds.
        unlimited = {rate_variables(source)[0]: "1000" for source in Source}
        warm = {
            **ours_only,
            **emulator.environment(),
            **unlimited,
            "CITECHECK_CACHE": str(folder / "warm.db"),
        }
        cold_cache = folder / "cold.sqlite3"
        situations = {
            "no-op": (noop, warm),
            "rebuild": (ours, warm),
            "edited": (ours, warm),
            "edited, no server": (ours, {**warm, "CITECHECK_SERVER": "off"}),
            "cold": (ours, {**offline, "CITECHECK_CACHE": str(cold_cache)}),
            "cold, no server": (ours, {**offline, "CITECHECK_CACHE": str(cold_cache), **OFF}),
        }
        for args in (noop, ours):  # warm-up: disk caches, bytecode, the warm cache, the server
            time_command(args, folder, warm)
        time.sleep(3)  # the server the warm-up started is listening by now
        times: dict[str, list[float]] = {label: [] for label in situations}
        for run in range(runs):
            for label, (args, env) in situations.items():
                if label.startswith("edited"):
                    edit(paper, run * 2 + label.endswith("server"))
                for stale in folder.glob("cold.sqlite3*"):
                    stale.unlink()
                times[label].append(time_command(args, folder, env))
    medians = {label: statistics.median(values) for label, values in times.items()}
    print(f"{chosen.citations} citations, {chosen.entries} entries, {runs} runs each, interleaved")
    print(f"{'pandoc + no-op panflute filter':48s} {medians['no-op'] * 1000:7.1f} ms")
    for label, text in (
        ("rebuild", "unchanged rebuild (warm cache)"),
        ("edited", "edited document (warm cache)"),
        ("edited, no server", "edited, no build server"),
        ("cold", "first build (empty cache)"),
        ("cold, no server", "first build, no build server"),
    ):
        ratio = medians[label] / medians["no-op"]
        print(f"pandoc + citecheck, {text:28s} {medians[label] * 1000:7.1f} ms  {ratio:.2f}x")
    print("targets: unchanged rebuild <= 1.0x, edited <= 1.2x, first build <= 1.5x (issue 48)")


if __name__ == "__main__":
    main()
