"""Benchmark: screening a venue at scale, on this machine, against a synthetic snapshot.

Generates a snapshot of `--records` realistic registry records (citecheck's normalized
JSON-lines, in `--partitions` files, as the registries' dumps come) and `--submissions`
submissions of `--references` references each — 70% real, 15% corrupted (year shifted or a
title word replaced), 15% fabricated; a third of the real ones drawn from 2,000 popular works, so
that submissions share references. Then prints:

- snapshot build: records per second and MB per million records, one file (the embedded
  default) and sharded on 2 workers; DOI lookups and title searches per second on each;
- screening offline against the complete sharded snapshot, with 1 and with 2 workers:
  references per second in all and per worker, deduplication ratio, peak memory per worker;
- the verdicts against the labels, and that a sample equals single-machine `verify`.

Run with `python bench/screen_scale.py` (5 M records, 2,000 submissions: about half an hour
and 3 GB of disk in bench/.scale/) or smaller: `--records 200000 --submissions 200`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.api.bibliography import verify_files
from citecore.options import resolve_options
from citecore.registries.snapshot import Snapshot
from citecore.registries.snapshot_build import build_snapshot
from citecore.screen.cluster import cluster_client
from citecore.screen.run import ScreenSettings, screen
from citecore.screen.shards import build_sharded_snapshot
from citecore.screen.submissions import find_submissions
from tests.synthetic_venue import record, write_dumps, write_submissions

FOLDER = Path(__file__).resolve().parent / ".scale"


def _size_mb(path: Path) -> float:
    files = [path] if path.is_file() else list(path.glob("*.sqlite3"))
    return sum(f.stat().st_size for f in files) / 1e6


def _lookups(path: Path, records: int, count: int = 2000) -> tuple[float, float]:
    """DOI lookups and title searches per second on the snapshot at `path`."""
    rng = random.Random(5)
    numbers = [rng.randrange(records) for _ in range(count)]
    snapshot = Snapshot(path)
    try:
        started = time.perf_counter()
        for number in numbers:
            snapshot.by_doi(str(record(number)["doi"]))
        dois = count / (time.perf_counter() - started)
        started = time.perf_counter()
        for number in numbers[: count // 4]:
            snapshot.search(str(record(number)["title"]))
        titles = (count // 4) / (time.perf_counter() - started)
    finally:
        snapshot.close()
    return dois, titles


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    """Generate, build, screen, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=5_000_000)
    parser.add_argument("--partitions", type=int, default=16)
    parser.add_argument("--submissions", type=int, default=2000)
    parser.add_argument("--references", type=int, default=50)
    parser.add_argument("--sample", type=int, default=20, help="submissions checked by verify")
    parser.add_argument("--keep", action="store_true", help="reuse dumps and snapshots built")
    parser.add_argument(
        "--snapshot-only", action="store_true", help="stop after the snapshot's build and lookups"
    )
    args = parser.parse_args()
    folder = FOLDER / f"{args.records}"
    if folder.exists() and not args.keep:
        shutil.rmtree(folder)
    folder.mkdir(parents=True, exist_ok=True)
    os.environ["XDG_CACHE_HOME"] = str(folder / "cache")  # nothing cached from earlier runs

    dumps_folder = folder / "dumps"
    started = time.perf_counter()
    if not dumps_folder.exists():
        write_dumps(dumps_folder, args.records, args.partitions)
    dumps = sorted(dumps_folder.glob("*.jsonl"))
    dump_mb = sum(d.stat().st_size for d in dumps) / 1e6
    print(
        f"dumps: {args.records:,} records in {len(dumps)} partitions, {dump_mb:,.0f} MB "
        f"({time.perf_counter() - started:.0f} s to generate)"
    )

    single = folder / "single.sqlite3"
    if not single.exists():
        started = time.perf_counter()
        build_snapshot(dumps, single, complete=True)
        elapsed = time.perf_counter() - started
        print(
            f"build, one file, 1 process: {args.records / elapsed:,.0f} records/s, "
            f"{_size_mb(single) / (args.records / 1e6):,.0f} MB per million records"
        )
    sharded = folder / "sharded"
    if not (sharded / "manifest.json").exists():
        with cluster_client("", 2) as client:
            started = time.perf_counter()
            build_sharded_snapshot(dumps, sharded, 2, True, client)
            elapsed = time.perf_counter() - started
        print(
            f"build, 2 shards on 2 workers: {args.records / elapsed:,.0f} records/s, "
            f"{_size_mb(sharded) / (args.records / 1e6):,.0f} MB per million records"
        )
    for name, path in (("one file", single), ("2 shards", sharded)):
        dois, titles = _lookups(path, args.records)
        print(f"lookups, {name}: {dois:,.0f} DOI/s, {titles:,.0f} title searches/s (1 process)")

    if args.snapshot_only:
        return
    submissions_folder = folder / "submissions"
    if not submissions_folder.exists():
        labels = write_submissions(
            submissions_folder, args.submissions, args.records, args.references
        )
        (folder / "labels.json").write_text(json.dumps(labels), encoding="utf-8")
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    submissions = find_submissions([submissions_folder])
    options = resolve_options({"offline": True, "snapshot": str(sharded)}, base={"strict": True})
    for workers in (1, 2):
        out = folder / f"out-{workers}"
        settings = ScreenSettings(out)
        with cluster_client("", workers) as client:
            started = time.perf_counter()
            outcome = screen(submissions, options, settings, client)
            elapsed = time.perf_counter() - started
            peaks = client.run(_peak_rss_mb)
        rate = outcome.references / elapsed
        print(
            f"screen, {workers} worker{'s' if workers > 1 else ''}: {outcome.references:,} "
            f"references in {elapsed:.0f} s = {rate:,.0f}/s, {rate / workers:,.0f}/s per worker; "
            f"{outcome.distinct:,} distinct entries naming {outcome.works:,} works "
            f"(dedup ratio {outcome.references / max(1, outcome.works):.2f}); peak memory per "
            f"worker {max(peaks.values()):,.0f} MB"
        )
    said: dict[str, Counter[str]] = {}
    out = folder / "out-2"
    for report in out.glob("sub*/report.json"):
        for reference in json.loads(report.read_text(encoding="utf-8"))["references"]:
            said.setdefault(labels[reference["key"]], Counter())[reference["verdict"]] += 1
    for label, verdicts in sorted(said.items()):
        print(f"  {label}: " + ", ".join(f"{v} {n}" for v, n in verdicts.most_common()))
    equal = 0
    for submission in submissions[: args.sample]:
        alone = verify_files([submission.path], options)
        screened = json.loads((out / submission.id / "report.json").read_text())["references"]
        mine = {r["key"]: r["verdict"] for r in screened}
        equal += mine == {k: r.verdict.value for k, r in alone.references.items()}
    print(f"verdicts equal to single-machine verify: {equal}/{min(args.sample, len(submissions))}")


if __name__ == "__main__":
    main()
