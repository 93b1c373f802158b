"""DBLP's dump as a snapshot, measured side by side in one run.

1. **Import**: a generated DBLP dump of `--records` works (default 1,000,000; the format DBLP
   publishes, tests/generated_dblp.py, written once under build/bench/) and the same works as
   citecheck's normalized JSON lines, each imported by `snapshot build` in a process of its own:
   records per second and the process's peak memory (resident set).
2. **Cold verification** of `--references` title-only conference references (default 200:
   conference papers of the registry world cited by title, authors, year and the venue's full
   name, no identifier) through the loopback emulator under the registries' published limits,
   no API keys, with `--latency` on every answer: without a snapshot, then with a DBLP dump of
   what the emulated DBLP holds (the world's computer-science venues) imported as a snapshot.
   Wall time, requests to DBLP and arXiv, and whether every verdict is the same.
3. **Screening** `--screen` references (default 1,000,000, in submissions of 50) of a synthetic
   computer-science venue (tests/synthetic_venue.py: 70% real, 15% corrupted, 15% fabricated,
   cited by title only) offline on 2 Dask workers against DBLP's dump of `--records` synthetic
   works and arXiv's metadata snapshot of their preprints, both imported and declared complete:
   minutes, references per second, the verdicts against the labels, and a sample of
   submissions checked again by single-machine `verify`.

Run with `python bench/dblp_snapshot.py [--records N] [--references N] [--screen N]`
(`--screen 0` leaves the screening out; all three at their defaults took 17.5 minutes).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.api.bibliography import verify_files
from citecore.model import Reference, SourceLocation
from citecore.options import resolve_options
from citecore.registries.settings import POLICIES, ClientSettings
from citecore.registries.snapshot import Snapshot
from citecore.registries.snapshot_build import build_snapshot
from citecore.serialize import to_data
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator, registry_of
from tests.generated_dblp import dblp_works, numbered, world_records, write_dump
from tests.synthetic_venue import cs_record, cs_title, write_cs_dumps, write_submissions
from tests.world import World, dblp_venue

FOLDER = Path(__file__).resolve().parents[1] / "build" / "bench"
_IMPORT = """
import resource, sys, time
from pathlib import Path
from citecore.registries.snapshot_build import build_snapshot
started = time.perf_counter()
built = build_snapshot([Path(sys.argv[1])], Path(sys.argv[2]), max_skipped=1.0)
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(built.imported, seconds, peak)
"""


def _dumps(records: int) -> tuple[Path, Path]:
    """The DBLP dump and the normalized JSON lines of `records` works (written once)."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    xml = FOLDER / f"dblp-{records}.xml.gz"
    lines = FOLDER / f"normalized-{records}.jsonl"
    if not xml.exists() or not lines.exists():
        started = time.perf_counter()
        works = world_records()
        write_dump(xml, numbered(works, records))
        with lines.open("w", encoding="utf-8") as stream:
            for work in numbered(works, records):
                stream.write(json.dumps(to_data(work), separators=(",", ":")) + "\n")
        print(f"dumps of {records:,} works written in {time.perf_counter() - started:.0f} s")
    return xml, lines


def _import(dump: Path, target: Path) -> tuple[int, float, float]:
    """(records, seconds, peak MB) of one import in a fresh process."""
    completed = subprocess.run(
        [sys.executable, "-c", _IMPORT, str(dump), str(target)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    count, seconds, peak = completed.stdout.split()
    return int(count), float(seconds), float(peak)


def imports(records: int) -> None:
    """Import rate and peak memory, DBLP's XML beside normalized JSON lines."""
    xml, lines = _dumps(records)
    with tempfile.TemporaryDirectory() as folder:
        for name, dump in (("DBLP XML (gzipped)", xml), ("normalized JSON lines", lines)):
            count, seconds, peak = _import(dump, Path(folder) / f"{dump.stem}.sqlite3")
            print(
                f"import {name:24s} {count:>10,} records  {count / seconds:>9,.0f} records/s  "
                f"peak {peak:,.0f} MB"
            )


def references(count: int) -> list[Reference]:
    """Title-only references to the world's conference papers, as writers cite them: title,
    authors, year and the venue's full name, no identifier."""
    cited: list[Reference] = []
    for work in world_records():
        if dblp_venue(work.venue) not in ("", "CoRR") and work.year:
            cited.append(
                Reference(
                    f"r{len(cited)}",
                    "inproceedings",
                    SourceLocation("refs.bib", len(cited) + 1),
                    title=work.title,
                    authors=work.authors,
                    year=work.year,
                    venue=work.venue,
                )
            )
        if len(cited) == count:
            break
    return cited


def verification(count: int, latency: float) -> None:
    """Cold verification without and with the DBLP snapshot, published limits, no keys."""
    cited = references(count)
    with tempfile.TemporaryDirectory() as folder:
        dump = Path(folder) / "dblp.xml.gz"
        write_dump(dump, dblp_works())
        snapshot = Path(folder) / "dblp.sqlite3"
        build_snapshot([dump], snapshot)
        verdicts: dict[str, dict[str, str]] = {}
        for label, path in (("without a snapshot", None), ("with the DBLP snapshot", snapshot)):
            with RegistryEmulator(strict=True, world=World.load(), latency=latency) as emulator:
                settings = ClientSettings.from_environment(
                    emulator.environment(), policies=dict(POLICIES), max_attempts=2
                )
                cache = Path(folder) / f"cache-{len(verdicts)}.sqlite3"
                verifier = RegistryVerifier(settings, cache, snapshot_path=path)
                started = time.perf_counter()
                results = verifier.verify(cited)
                seconds = time.perf_counter() - started
                asked = Counter(registry_of(key) for _, key in emulator.log)
            verdicts[label] = {k: r.verdict.value for k, r in results.items()}
            print(
                f"verify {len(cited)} title-only references {label:24s} {seconds:7.1f} s  "
                f"requests {sum(asked.values()):4d} ({dict(asked.most_common(4))})  "
                f"verdicts {dict(Counter(verdicts[label].values()))}"
            )
        before, after = verdicts["without a snapshot"], verdicts["with the DBLP snapshot"]
        changed = Counter(f"{before[k]} -> {after[k]}" for k in before if before[k] != after[k])
        print(f"verdicts that differ with the snapshot: {dict(changed) or 'none'}")
        # Every reference cites a real work as it is: the same verdicts must also be right.
        wrong = sorted(k for k, verdict in after.items() if verdict != "verified")
        print(f"real references not verified: {len(wrong)} of {len(after)} {wrong[:5]}")


def _venue(records: int, references: int) -> tuple[Path, list[Path], dict[str, str]]:
    """The snapshots folder (DBLP's and arXiv's, complete), the submissions and their labels,
    written once under build/bench/."""
    folder = FOLDER / f"cs-{records}"
    snapshots = folder / "snapshots"
    if not (snapshots / "arxiv.sqlite3").exists():
        dblp, arxiv = write_cs_dumps(folder, records)
        build_snapshot([dblp], snapshots / "dblp.sqlite3", complete=True)
        build_snapshot([arxiv], snapshots / "arxiv.sqlite3", complete=True)
    submissions = folder / f"submissions-{references}"
    labels_file = submissions / "labels.json"
    if not labels_file.exists():
        labels = write_submissions(submissions, references // 50, records, 50, cs=True)
        labels_file.write_text(json.dumps(labels), encoding="utf-8")
    labels = json.loads(labels_file.read_text(encoding="utf-8"))
    return snapshots, sorted(submissions.glob("*.bib")), labels


def searches(snapshots: Path, records: int) -> None:
    """Title searches in the DBLP snapshot, one process: real titles, fabricated ones, and
    real ones with a word changed (as the venue's submissions write them)."""
    rng = random.Random(1)
    real = [str(cs_record(rng.randrange(records))["title"]) for _ in range(400)]
    fabricated = [cs_title(rng) for _ in range(100)]
    changed = []
    for title in real[:100]:
        words = title.split()
        words[rng.randrange(len(words))] = rng.choice(["learning", "networks", "zzqzq"])
        changed.append(" ".join(words))
    snapshot = Snapshot(snapshots / "dblp.sqlite3")
    try:
        for label, titles in (
            ("real", real),
            ("fabricated", fabricated),
            ("a word changed", changed),
        ):
            started = time.perf_counter()
            for title in titles:
                snapshot.search(title)
            each = (time.perf_counter() - started) / len(titles) * 1000
            print(f"  title search, {label:15s} {each:5.1f} ms ({len(titles)} titles)")
    finally:
        snapshot.close()


# Every stall of a Dask server's event loop above this is logged by the server itself
# (`distributed.admin.tick`); the bench reads the longest from the run's logs.
_TICK_LIMIT = "500ms"
_STALL = re.compile(r"unresponsive in (\w+) for ([\d.]+)s")


def _stalls(logs: Path) -> str:
    """The longest event-loop stall each kind of Dask server logged during a run."""
    longest: dict[str, float] = {}
    for log in logs.glob("*.log"):
        for found in _STALL.finditer(log.read_text(encoding="utf-8", errors="replace")):
            longest[found[1]] = max(longest.get(found[1], 0.0), float(found[2]))
    said = ", ".join(f"{server} {seconds:.1f} s" for server, seconds in sorted(longest.items()))
    return f"longest event-loop stalls (Dask's own, above {_TICK_LIMIT}): {said or 'none'}"


def _killer(after: float) -> threading.Timer:
    """A timer that kills this process's Dask scheduler with SIGKILL `after` seconds on."""
    import psutil

    def kill() -> None:
        for process in psutil.Process().children(recursive=True):
            if "dask_scheduler" in " ".join(process.cmdline()):
                process.kill()
                print(f"  killed the scheduler (pid {process.pid}) after {after:.0f} s")

    return threading.Timer(after, kill)


def _screen_once(
    submissions: list[Any], options: Any, out: Path, kill_after: float
) -> tuple[Any, float, float, list[str]]:
    """One screen into `out` (the scheduler killed `kill_after` seconds in, when above 0):
    its outcome, its seconds, the CPU seconds of this (the client's) process and the lines it
    told the user about lost schedulers."""
    from citecore.screen.run import ScreenSettings, screen_venue

    told: list[str] = []
    killer = _killer(kill_after) if kill_after > 0 else None
    started, client = time.perf_counter(), time.process_time()
    if killer:
        killer.start()
    try:
        outcome = screen_venue(
            submissions, options, ScreenSettings(out), "", 2,
            lambda line: told.append(line) if "lost" in line else None,
        )  # fmt: skip
    finally:
        if killer:
            killer.cancel()
    return outcome, time.perf_counter() - started, time.process_time() - client, told


def _verdicts(out: Path, submissions: list[Any]) -> dict[str, dict[str, str]]:
    reports = {s.id: json.loads((out / s.id / "report.json").read_text()) for s in submissions}
    return {
        sid: {r["key"]: r["verdict"] for r in report["references"]}
        for sid, report in reports.items()
    }


def screening(
    records: int, references: int, runs: int = 1, kill_after: float = 0.0, sample: int = 20
) -> None:
    """A computer-science venue screened offline on 2 workers against DBLP + arXiv, `runs`
    times in a row; then, with `kill_after`, once more with its scheduler killed mid-run."""
    # start-up: Dask (the `screen` extra) only for this part; the others run without it.
    from citecore.screen.submissions import find_submissions

    os.environ["DASK_DISTRIBUTED__ADMIN__TICK__LIMIT"] = _TICK_LIMIT
    snapshots, files, labels = _venue(records, references)
    searches(snapshots, records)
    options = resolve_options({"offline": True, "snapshot": str(snapshots)}, base={"strict": True})
    submissions = find_submissions(files)
    first: dict[str, dict[str, str]] = {}
    plan = [0.0] * runs + ([kill_after] if kill_after > 0 else [])
    for number, kill in enumerate(plan, 1):
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder)
            outcome, seconds, client, told = _screen_once(submissions, options, out, kill)
            verdicts = _verdicts(out, submissions)
            kind = f"scheduler killed at {kill:.0f} s" if kill else "uninterrupted"
            print(
                f"screen {number}/{len(plan)} ({kind}): {outcome.references:,} references "
                f"({len(files):,} submissions) on 2 workers against DBLP + arXiv "
                f"({records:,} works): {seconds / 60:.1f} min, "
                f"{outcome.references / seconds:,.0f} references/s"
            )
            print(f"  {_stalls(out / '.citecheck-logs')}")
            print(f"  the client's own CPU: {client:.0f} s ({client / seconds:.0%} of a core)")
            for line in told:
                print(f"  told the user: {line}")
            if first:
                differ = sum(first[s] != verdicts[s] for s in first)
                print(f"  submissions whose verdicts differ from run 1: {differ}")
                continue
            first = verdicts
            said: dict[str, Counter[str]] = {}
            for found in verdicts.values():
                for key, verdict in found.items():
                    said.setdefault(labels[key], Counter())[verdict] += 1
            for label, counts in sorted(said.items()):
                print(f"  {label}: " + ", ".join(f"{v} {n:,}" for v, n in counts.most_common()))
            equal = 0
            for submission in submissions[:sample]:
                alone = verify_files([submission.path], options)
                mine = verdicts[submission.id]
                equal += mine == {k: r.verdict.value for k, r in alone.references.items()}
            print(f"  verdicts equal to single-machine verify: {equal}/{min(sample, len(files))}")


def main() -> None:
    """Run the three measurements."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--references", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.08)
    parser.add_argument("--screen", type=int, default=1_000_000, help="references screened")
    parser.add_argument("--runs", type=int, default=1, help="screens in a row")
    parser.add_argument(
        "--kill-scheduler-after",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="then one more screen, its scheduler killed this long after it starts",
    )
    parser.add_argument("--only-screen", action="store_true", help="leave out parts 1 and 2")
    args = parser.parse_args()
    if not args.only_screen:
        imports(args.records)
        verification(args.references, args.latency)
    if args.screen:
        screening(args.records, args.screen, args.runs, args.kill_scheduler_after)


if __name__ == "__main__":
    main()
