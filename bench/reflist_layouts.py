"""Generated PDF reference lists (tests/extract/test_pdf_reflist.py's typesetter: one or two
columns, hanging indents or numbered labels, running heads, page and line numbers, entries
across columns and pages, an appendix after the list) read back by citecheck, thousands at a
time. Prints how many came back exactly and one example of each kind of failure.
Run with `python bench/reflist_layouts.py [--examples 2000]`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hypothesis import HealthCheck, given, settings

from citecore.bib.reflist.pdf_entries import pdf_entries
from citecore.bib.reflist.pdf_lines import pdf_lines
from tests.bib.reflist.test_pdf_reflist import layout, printed, typeset


def main() -> None:
    """Typeset, read back and print what differed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=2000)
    args = parser.parse_args()
    kinds: Counter[str] = Counter()
    examples: dict[str, tuple[dict[str, Any], list[str]]] = {}
    count = 0

    @settings(
        max_examples=args.examples,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(layout())
    def run(spec: dict[str, Any]) -> None:
        nonlocal count
        count += 1
        with tempfile.TemporaryDirectory() as folder:
            pdf = Path(folder) / "paper.pdf"
            typeset(spec, pdf)
            found = [e.text for e in pdf_entries(pdf_lines(pdf))]
        expected = printed(spec)  # with each entry's DOI line where the layout sets one
        if found != expected:
            kind = (
                "merged"
                if len(found) < len(expected)
                else "split"
                if len(found) > len(expected)
                else "altered"
            )
            kinds[kind] += 1
            examples.setdefault(kind, (spec, found))

    started = time.perf_counter()
    run()
    print(f"{count} generated lists in {time.perf_counter() - started:.0f} s")
    print(f"read back exactly: {count - sum(kinds.values())}")
    for kind, number in kinds.most_common():
        spec, found = examples[kind]
        layout_flags = {k: v for k, v in spec.items() if k != "entries"}
        print(f"  {kind}: {number}; for example {layout_flags}, {len(spec['entries'])} entries,")
        print(f"  read as {found[:3]}")


if __name__ == "__main__":
    main()
