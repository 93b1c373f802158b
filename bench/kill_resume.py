"""Benchmark: `citecheck verify --resume` over HALLMARK references (through the loopback
registry world) killed with SIGKILL at random moments, then run to the end (tests/kill_resume.py).
Printed: kills, resume files or caches left unreadable (must be 0), and verdicts that differ
from an uninterrupted run (must be 0). Run with `python bench/kill_resume.py [--kills 20]`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.kill_resume import kill_and_resume


def main() -> None:
    """Run and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--references", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        report = kill_and_resume(Path(folder), args.references, args.kills, args.seed)
    print(
        f"{args.references} references, {report.kills} kills (SIGKILL), "
        f"{time.perf_counter() - started:.0f} s"
    )
    print(f"  resume files left unreadable: {len(report.unreadable_resume_files)}")
    print(f"  caches failing PRAGMA integrity_check: {len(report.damaged_caches)}")
    print(
        f"  verdicts differing from an uninterrupted run: {len(report.differing_verdicts)} "
        f"{report.differing_verdicts[:5]}"
    )


if __name__ == "__main__":
    main()
