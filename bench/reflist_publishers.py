"""Reference lists read from PDFs that publishers typeset, held to the publisher's own list.

The 16 PDFs of ../shared/corpus/wild/publisher-pdfs (PLOS, eLife, Springer, Nature, F1000,
Frontiers, OUP, Elsevier, Hindawi, Dove, SAGE, Taylor & Francis, Royal Society, Bentham,
Medknow, Caltech), each scored against its truth.tsv (tests/wild/publisher_truth.py): entries
found against entries printed, titles read, and DOIs read of those the PDF prints; per PDF,
with the seconds each reading took. The issue's targets, per PDF: entries = printed ± 2%,
titles ≥ 95%, printed DOIs ≥ 98%.

Run with `python bench/reflist_publishers.py`.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.reflist.read import references_from_pdf
from tests.wild.publisher_truth import publisher_pdfs, scored


def _share(part: int, whole: int) -> str:
    return f"{part:4d}/{whole:<4d} {part / whole:6.1%}" if whole else f"{'—':>17s}"


def main() -> None:
    """Print the table."""
    met, pdfs = 0, publisher_pdfs()
    print(f"{'PDF':44s} {'entries':>10s}  {'titles read':>17s}  {'printed DOIs read':>17s}")
    for truth in pdfs:
        started = time.perf_counter()
        reading = scored(truth, references_from_pdf(truth.pdf))
        seconds = time.perf_counter() - started
        meets = (
            abs(reading.entries - reading.printed) <= 0.02 * reading.printed
            and reading.titles >= 0.95 * reading.titled
            and reading.dois >= 0.98 * reading.printed_dois
        )
        met += meets
        print(
            f"{truth.name:44s} {reading.entries:4d}/{reading.printed:<5d}  "
            f"{_share(reading.titles, reading.titled)}  "
            f"{_share(reading.dois, reading.printed_dois)}  {seconds:4.1f} s"
            + ("" if meets else "  below target")
        )
    print(f"PDFs meeting every target: {met} of {len(pdfs)}")


if __name__ == "__main__":
    main()
