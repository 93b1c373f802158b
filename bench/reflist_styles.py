"""Reference lists read back from PDFs against an oracle we control: every Markdown paper of
../shared/corpus rendered by pandoc + citeproc in each CSL style of ../shared/csl (and two-column
pages), its bibliography being the ground truth. Prints, per style, references found / expected,
extra entries, and exact titles, first authors and years (targets: ≥ 98% found, ≥ 95% exact).

Run with `python bench/reflist_styles.py [--styles apa,ieee] [--papers joss-unyt,…] [-v]`;
rendered PDFs are kept in bench/.rendered/ (about 4 minutes to render everything once).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.reflist.read import references_from_pdf
from tests.paths import SHARED
from tests.rendered_reflists import STYLES, Score, expected_references, render, score

RENDERED = Path(__file__).resolve().parent / ".rendered"


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "   - "


def main() -> None:
    """Render, read back and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--styles", default="", help="comma-separated style names (default all)")
    parser.add_argument("--papers", default="", help="comma-separated corpus paper names")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every miss")
    args = parser.parse_args()
    papers = sorted(p for p in (SHARED / "corpus" / "markdown").iterdir() if p.is_dir())
    if args.papers:
        papers = [p for p in papers if p.name in args.papers.split(",")]
    styles = [s for s in STYLES if not args.styles or s.name in args.styles.split(",")]
    expected = {paper.name: expected_references(paper) for paper in papers}
    print(
        f"{'style':<17} {'found':>11} {'extra':>5} {'title':>7} {'author':>7} {'year':>7}"
        f" {'venues read/right':>18}"
    )
    total = Score()
    started = time.perf_counter()
    for style in styles:
        style_score = Score()
        for paper in papers:
            try:
                pdf = render(paper, style, RENDERED)
            except RuntimeError as exc:
                print(f"  {paper.name}: not rendered: {exc}")
                continue
            result = score(expected[paper.name], references_from_pdf(pdf))
            if args.verbose and (result.misses or result.extra):
                print(f"  {paper.name} ({result.extra} extra):")
                for miss in result.misses:
                    print(f"    {miss}")
            style_score.add(result)
        total.add(style_score)
        _print_row(style.name, style_score)
    _print_row("all", total)
    print(f"({time.perf_counter() - started:.0f} s)")


def _print_row(name: str, s: Score) -> None:
    print(
        f"{name:<17} {s.found:>4}/{s.expected:<4} {_percent(s.found, s.expected)} {s.extra:>5}"
        f" {_percent(s.title, s.expected)} {_percent(s.author, s.expected)}"
        f" {_percent(s.year, s.expected)} {s.venues_read:>6}/{s.venues_right:<5}"
        f"{_percent(s.venues_right, s.venues_read)}"
    )


if __name__ == "__main__":
    main()
