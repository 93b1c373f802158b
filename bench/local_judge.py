"""Benchmark: the local (lexical) judge on labelled claim/evidence pairs.

SciFact-RTE (entailment / not_entailment) and HealthVer (Supports / Refutes / Neutral) from
../shared/corpus/grounding/. The judge sees the evidence as the only passage; SUPPORTED counts
as "supports", PARTIAL and UNSUPPORTED as "does not". Prints accuracy, and precision and recall
on SUPPORTED — precision matters most: a wrong "supported" hides a bad citation.
Run with `python bench/local_judge.py`.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.ground.evidence import Passage, RankedPassage
from citecore.ground.judges.local import LocalJudge
from citecore.model import GroundingStatus
from tests.paths import CORPUS


def pairs() -> dict[str, list[tuple[str, str, bool]]]:
    """(claim, evidence, supports) per corpus."""
    scifact = []
    with (CORPUS / "grounding" / "scifact-rte" / "dev.tsv").open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream, delimiter="\t"):
            scifact.append((row["sentence2"], row["sentence1"], row["entailment"] == "entailment"))
    healthver = []
    path = CORPUS / "grounding" / "healthver" / "healthver_dev_first300.csv"
    with path.open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            healthver.append((row["claim"], row["evidence"], row["label"] == "Supports"))
    return {"scifact-rte": scifact, "healthver": healthver}


def main() -> None:
    """Print the figures per corpus."""
    judge = LocalJudge()
    for name, rows in pairs().items():
        true_positive = false_positive = false_negative = correct = 0
        for claim, evidence, supports in rows:
            passage = RankedPassage(Passage("evidence", 1, evidence), 1.0)
            said = judge.judge(claim, [passage]).status is GroundingStatus.SUPPORTED
            correct += said == supports
            true_positive += said and supports
            false_positive += said and not supports
            false_negative += supports and not said
        predicted = true_positive + false_positive
        precision = true_positive / predicted if predicted else float("nan")
        recall = true_positive / (true_positive + false_negative or 1)
        print(
            f"{name:12s} {len(rows):4d} pairs  accuracy {correct / len(rows):.3f}  "
            f"SUPPORTED precision {precision:.3f} ({true_positive}/{predicted})  "
            f"recall {recall:.3f}"
        )


if __name__ == "__main__":
    main()
