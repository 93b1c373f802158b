"""Differential run: citecheck's LaTeX extraction against the keys pdflatex records (.aux for
natbib, .bcf for biblatex) on hundreds of generated projects (tests/generated_latex.py),
printing every kind of disagreement found and one example of each. Run with
`python bench/latex_differential.py [--examples 500]` (needs TeX Live: `make install-tex`).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, given, settings

from tests.generated_latex import Project, disagreements, project


def main() -> None:
    """Run the projects and print what disagreed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=500)
    args = parser.parse_args()
    kinds: Counter[str] = Counter()
    examples: dict[str, tuple[str, Project]] = {}
    families: Counter[str] = Counter()

    @settings(
        max_examples=args.examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(project())
    def run(generated: Project) -> None:
        families[generated.family] += 1
        for problem in disagreements(generated):
            kind = problem.split(" ", 1)[0]
            kinds[kind] += 1
            examples.setdefault(kind, (problem, generated))

    started = time.perf_counter()
    run()
    total = sum(families.values())
    print(
        f"{total} generated projects ({families['natbib']} natbib, "
        f"{families['biblatex']} biblatex) in {time.perf_counter() - started:.0f} s"
    )
    print(f"disagreements with LaTeX's .aux/.bcf: {sum(kinds.values())}")
    for kind, number in kinds.most_common():
        problem, generated = examples[kind]
        print(f"  {kind}: {number}; for example {problem} in:\n{generated.main}\n{generated.parts}")


if __name__ == "__main__":
    main()
