"""refextract (INSPIRE's reference extractor) on the same oracle as bench/reflist_styles.py:
the corpus papers rendered in every CSL style, scored by the same pairing. This is how the
embedded reader was chosen over it; refextract is not a dependency of citecheck.

Run with `pip install refextract` in a virtual environment beside citecheck's, then
`python bench/reflist_refextract.py [--styles apa,ieee]` (renders are shared with
bench/reflist_styles.py in bench/.rendered/).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.model import Person, Reference, SourceLocation
from tests.paths import SHARED
from tests.rendered_reflists import STYLES, Score, expected_references, render, score

RENDERED = Path(__file__).resolve().parent / ".rendered"


def _reference(found: dict[str, Any]) -> Reference:
    """refextract's answer as a Reference: its `title` list (when it has one), the first
    author's last word, the first year, and the raw text it split."""
    authors = found.get("author") or []
    family = authors[0].split(",")[0].split()[-1] if authors and authors[0].split() else ""
    years = found.get("year") or []
    return Reference(
        key="refextract",
        entry_type="misc",
        location=SourceLocation("refextract"),
        title=(found.get("title") or [""])[0],
        authors=(Person(family),) if family else (),
        year=int(years[0]) if years and str(years[0]).isdigit() else None,
        text=" ".join(found.get("raw_ref", [])),
    )


def main() -> None:
    """Score refextract per style and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--styles", default="", help="comma-separated style names (default all)")
    args = parser.parse_args()
    try:
        from refextract import extract_references_from_file
    except ImportError:
        sys.exit("refextract is not installed here: pip install refextract (in a separate venv)")
    logging.disable(logging.CRITICAL)  # refextract logs every reference it cannot parse
    papers = sorted(p for p in (SHARED / "corpus" / "markdown").iterdir() if p.is_dir())
    styles = [s for s in STYLES if not args.styles or s.name in args.styles.split(",")]
    expected = {paper.name: expected_references(paper) for paper in papers}
    print(f"{'style':<17} {'found':>11} {'extra':>5} {'title':>7} {'author':>7} {'year':>7}")
    for style in styles:
        total, started = Score(), time.perf_counter()
        for paper in papers:
            pdf = render(paper, style, RENDERED)
            found = [_reference(r) for r in extract_references_from_file(str(pdf))]
            total.add(score(expected[paper.name], found))
        whole = total.expected or 1
        print(
            f"{style.name:<17} {total.found:>4}/{total.expected:<4} "
            f"{100 * total.found / whole:5.1f}% {total.extra:>5} {100 * total.title / whole:6.1f}%"
            f" {100 * total.author / whole:6.1f}% {100 * total.year / whole:6.1f}%"
            f" ({time.perf_counter() - started:.0f} s)"
        )


if __name__ == "__main__":
    main()
