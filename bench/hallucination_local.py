"""Benchmark: what the network-free checks alone catch in the labelled hallucination corpora.

Runs the local checks (malformed identifiers, impossible or future years, missing titles,
unparsed entries) over the HALLMARK dev split (canary entries skipped) and the labelled
fixtures (LABELS.tsv), and prints the false-flag rate on VALID entries and the catch rate on
HALLUCINATED ones, overall and per hallucination type. Registry verification is not part of this
figure: the corpora come without recorded registry answers for their entries, and tests never
reach the network. Run with `python bench/hallucination_local.py`.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.bibtex import parse_bibtex
from citecore.findings import reference_findings
from citecore.model import Bibliography, Severity
from tests.paths import CORPUS

# The day HALLMARK's dev split was frozen stands in for "today" in the future-year check.
TODAY = dt.date(2026, 2, 14)


def _bibtex(entry: dict[str, object]) -> str:
    fields = entry.get("fields") or {}
    assert isinstance(fields, dict)
    body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields.items())
    return f"@{entry.get('bibtex_type', 'misc')}{{{entry['bibtex_key']},\n{body}\n}}\n"


def flagged(bib_text: str) -> set[str]:
    """Keys with an error- or warning-level local finding."""
    parsed = parse_bibtex(bib_text, "corpus.bib")
    bibliography = Bibliography(
        ("corpus.bib",), {r.key: r for r in parsed.references}, parsed.duplicates, parsed.unparsed
    )
    return {
        f.key
        for f in reference_findings(bibliography, TODAY)
        if f.key and f.severity is not Severity.INFO
    }


def hallmark() -> tuple[Counter[str], Counter[str], Counter[str], Counter[str]]:
    """(entries by label, flagged by label, entries by type, flagged by type)."""
    totals, hits, type_totals, type_hits = (
        Counter[str](),
        Counter[str](),
        Counter[str](),
        Counter[str](),
    )
    path = CORPUS / "hallucination" / "hallmark" / "data" / "dev_public.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry.get("generation_method") == "canary":
            continue
        label = str(entry["label"])
        kind = str(entry.get("hallucination_type") or "valid")
        is_flagged = str(entry["bibtex_key"]) in flagged(_bibtex(entry))
        totals[label] += 1
        type_totals[kind] += 1
        hits[label] += is_flagged
        type_hits[kind] += is_flagged
    return totals, hits, type_totals, type_hits


def fixtures() -> tuple[Counter[str], Counter[str]]:
    """(entries by label, flagged by label) over LABELS.tsv."""
    folder = CORPUS / "hallucination" / "fixtures"
    totals, hits = Counter[str](), Counter[str]()
    rows = [line.split("\t") for line in (folder / "LABELS.tsv").read_text().splitlines()[1:]]
    by_file: dict[str, set[str]] = {}
    for row in rows:
        if len(row) < 3:
            continue
        file, key, label = row[0], row[1], row[2]
        if file not in by_file:
            by_file[file] = flagged((folder / file).read_text(encoding="utf-8", errors="replace"))
        totals[label] += 1
        hits[label] += key in by_file[file]
    return totals, hits


def main() -> None:
    """Print the rates."""
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)  # failures are findings here
    totals, hits, type_totals, type_hits = hallmark()
    print("HALLMARK dev (local checks only, no registry verification)")
    print(
        f"  false flags on VALID: {hits['VALID']}/{totals['VALID']} "
        f"({100 * hits['VALID'] / totals['VALID']:.1f}%)"
    )
    print(
        f"  caught HALLUCINATED: {hits['HALLUCINATED']}/{totals['HALLUCINATED']} "
        f"({100 * hits['HALLUCINATED'] / totals['HALLUCINATED']:.1f}%)"
    )
    for kind, total in type_totals.most_common():
        if kind != "valid":
            print(f"    {kind:28s} {type_hits[kind]:4d}/{total}")
    totals, hits = fixtures()
    print("labelled fixtures (LABELS.tsv)")
    for label, total in sorted(totals.items()):
        print(f"  {label:14s} flagged {hits[label]}/{total}")


if __name__ == "__main__":
    main()
