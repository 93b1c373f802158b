"""Reference lists read from PDFs that publishers typeset, held to the publisher's own list.

The 16 PDFs of ../shared/corpus/wild/publisher-pdfs (PLOS, eLife, Springer, Nature, F1000,
Frontiers, OUP, Elsevier, Hindawi, Dove, SAGE, Taylor & Francis, Royal Society, Bentham,
Medknow, Caltech), each scored against its truth.tsv (tests/wild/publisher_truth.py): entries
found against entries printed, titles read, and DOIs read of those the PDF prints; per PDF,
with the seconds each reading took. Titles are read twice, side by side: by the rules alone
and as citecheck reads them, with the reference CRF (`citecheck reference-model build`; see
docs/reference-lists.md), and — as the target is judged — over the rows whose title the
publisher tagged in its XML (an untagged citation's row holds a script's guess of its title:
tests/wild/publisher_truth.py). The issue's targets, per PDF: entries = printed ± 2%, titles
≥ 95%, printed DOIs ≥ 98%.

Then the same by layout kind (columns and reference style, from the corpus's MANIFEST.tsv).

Run with `python bench/reflist_publishers.py`.
"""

from __future__ import annotations

import csv
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.reflist.crf import MODEL_VARIABLE, default_model_path, model_problem
from citecore.bib.reflist.read import references_from_pdf
from tests.wild.publisher_truth import FOLDER, Reading, Truth, publisher_pdfs, scored


def _share(part: int, whole: int) -> str:
    return f"{part:4d}/{whole:<4d} {part / whole:6.1%}" if whole else f"{'—':>17s}"


def _read(truth: Truth, model: Path) -> tuple[Reading, float]:
    os.environ[MODEL_VARIABLE] = str(model)
    started = time.perf_counter()
    reading = scored(truth, references_from_pdf(truth.pdf))
    return reading, time.perf_counter() - started


def _layout_kinds() -> dict[str, str]:
    """Each PDF's layout kind from the corpus's MANIFEST.tsv ("two-column; numbered ([1])" →
    "two-column, numbered"), for the summary by kind."""
    manifest = FOLDER / "MANIFEST.tsv"
    if not manifest.is_file():
        return {}
    with manifest.open(encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream, delimiter="\t"))
    kinds = {}
    for row in rows:
        columns = row["layout"].split(";")[0].split(" (")[0].split(" with")[0].strip()
        style = "author-year" if "author-year" in row["layout"] else "numbered"
        kinds[row["name"]] = f"{columns}, {style}"
    return kinds


def main() -> None:
    """Print the table, then the same by layout kind."""
    model = default_model_path()
    if problem := model_problem():
        print(f"{problem}: the CRF column is the rules'")
    met, pdfs = 0, publisher_pdfs()
    totals = [0, 0, 0, 0, 0]
    kinds = _layout_kinds()
    by_kind: dict[str, list[int]] = {}
    print(
        f"{'PDF':44s} {'entries':>10s}  {'titles, rules alone':>19s}  {'titles, citecheck':>17s}"
        f"  {'tagged titles':>17s}  {'printed DOIs read':>17s}"
    )
    for truth in pdfs:
        rules, _ = _read(truth, model.with_name("no-model.crfsuite"))
        reading, seconds = _read(truth, model)
        meets = (
            abs(reading.entries - reading.printed) <= 0.02 * reading.printed
            and reading.tagged_titles >= 0.95 * reading.tagged
            and reading.dois >= 0.98 * reading.printed_dois
        )
        met += meets
        kind = by_kind.setdefault(kinds.get(truth.name, "unknown"), [0, 0, 0, 0, 0, 0])
        for index, value in enumerate(
            (1, meets, reading.entries, reading.printed, reading.titles, reading.titled)
        ):
            kind[index] += value
        totals = [
            totals[0] + rules.titles,
            totals[1] + reading.titles,
            totals[2] + reading.titled,
            totals[3] + reading.tagged_titles,
            totals[4] + reading.tagged,
        ]
        print(
            f"{truth.name:44s} {reading.entries:4d}/{reading.printed:<5d}  "
            f"{_share(rules.titles, rules.titled):>19s}  {_share(reading.titles, reading.titled)}  "
            f"{_share(reading.tagged_titles, reading.tagged)}  "
            f"{_share(reading.dois, reading.printed_dois)}  {seconds:4.1f} s"
            + ("" if meets else "  below target")
        )
    print(
        f"titles: rules alone {totals[0]:,} of {totals[2]:,}, citecheck {totals[1]:,}; tagged "
        f"titles {totals[3]:,} of {totals[4]:,}; PDFs meeting every target: {met} of {len(pdfs)}"
    )
    print(f"\n{'layout kind':30s} {'PDFs':>5s} {'meeting':>8s} {'entries':>11s}  titles")
    for name, (count, meeting, entries, printed, titles, titled) in sorted(by_kind.items()):
        print(
            f"{name:30s} {count:5d} {meeting:8d} {entries:5d}/{printed:<5d}  "
            f"{_share(titles, titled)}"
        )


if __name__ == "__main__":
    main()
