"""Benchmark: registry verification under injected faults (tests/chaos.py). 1,000 labelled
HALLMARK references go through the live path twice over the loopback registry world, once
clean and once with a share of requests timing out, rate-limited (429 + Retry-After), failing
(503), truncated, cut short or reset; printed: faults injected, crashes, verdicts lost to a
fault (error/unverifiable with coverage_incomplete), and the two that must be 0 — `not_found`
caused by a fault and any other change of verdict. Run with `python bench/chaos.py [--share
0.2] [--references 1000]`.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.chaos import chaos_run
from tests.hallmark import hallmark_references


def main() -> None:
    """Run and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--references", type=int, default=1000)
    parser.add_argument("--share", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)  # failures are findings
    references = hallmark_references(args.references)
    started = time.perf_counter()
    report = chaos_run(references, args.share, args.seed)
    seconds = time.perf_counter() - started
    injected = ", ".join(f"{f.value} {n}" for f, n in sorted(report.injected.items(), key=str))
    print(f"{report.references} references, {args.share:.0%} of requests faulty, {seconds:.0f} s")
    print(f"  faults injected: {sum(report.injected.values())} ({injected})")
    print(f"  crashes: {len(report.crashes)} {report.crashes[:3]}")
    print(f"  verdicts unchanged: {report.unchanged}")
    print(
        f"  lost to a fault (error/unverifiable): {report.abstained}, of which without "
        f"coverage_incomplete: {len(report.abstained_unflagged)}"
    )
    print(
        f"  not_found caused by a fault: {len(report.fault_not_found)} {report.fault_not_found[:5]}"
    )
    print(f"  other changes of verdict: {len(report.changed)} {report.changed[:5]}")


if __name__ == "__main__":
    main()
