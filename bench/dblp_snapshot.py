"""DBLP's dump as a snapshot, measured side by side in one run.

1. **Import**: a generated DBLP dump of `--records` works (default 1,000,000; the format DBLP
   publishes, tests/generated_dblp.py, written once under build/bench/) and the same works as
   citecheck's normalized JSON lines, each imported by `snapshot build` in a process of its own:
   records per second and the process's peak memory (resident set).
2. **Cold verification** of `--references` title-only computer-science references (default
   200: works of the registry world cited by title, authors, year and venue, no identifier)
   through the loopback emulator under the registries' published limits, no API keys, with
   `--latency` on every answer: without a snapshot, then with the world's DBLP dump imported as
   a snapshot. Wall time, requests to DBLP and arXiv, and whether every verdict is the same.

Run with `python bench/dblp_snapshot.py [--records N] [--references N]`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.model import Reference, SourceLocation
from citecore.registries.settings import POLICIES, ClientSettings
from citecore.registries.snapshot_build import build_snapshot
from citecore.serialize import to_data
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator, registry_of
from tests.generated_dblp import numbered, world_records, write_dump
from tests.world import World

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
    """Title-only references to works of the world in conference venues, as writers cite them."""
    cited: list[Reference] = []
    for work in world_records():
        if work.venue and work.year and "arxiv" not in work.venue.lower():
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
        write_dump(dump, world_records())
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


def main() -> None:
    """Run both measurements."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--references", type=int, default=200)
    parser.add_argument("--latency", type=float, default=0.08)
    args = parser.parse_args()
    imports(args.records)
    verification(args.references, args.latency)


if __name__ == "__main__":
    main()
