"""Differential run: citecheck's Markdown extraction against pandoc's own AST on thousands of
generated documents (tests/generated_markdown.py), printing every kind of disagreement found
and one example of each. Run with `python bench/extraction_differential.py [--examples 2000]`.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, given, settings

from tests.generated_markdown import disagreements, document


def main() -> None:
    """Run the documents and print what disagreed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=2000)
    args = parser.parse_args()
    kinds: Counter[str] = Counter()
    examples: dict[str, tuple[str, list[str]]] = {}
    count = 0

    @settings(
        max_examples=args.examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(document())
    def run(text: str) -> None:
        nonlocal count
        count += 1
        for problem in disagreements(text):
            kind = problem.split(" ", 1)[0]
            kinds[kind] += 1
            examples.setdefault(kind, (text, [problem]))

    started = time.perf_counter()
    run()
    print(f"{count} generated documents in {time.perf_counter() - started:.0f} s")
    print(f"disagreements with pandoc's AST: {sum(kinds.values())}")
    for kind, number in kinds.most_common():
        text, problems = examples[kind]
        print(f"  {kind}: {number}; for example {problems[0]} in:\n{text}")


if __name__ == "__main__":
    main()
