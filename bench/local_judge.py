"""Benchmark: the local (lexical) judge on labelled claim/evidence pairs.

SciFact-RTE (entailment / not_entailment) and HealthVer (Supports / Refutes / Neutral) from
../shared/corpus/grounding/. The judge sees the evidence as the only passage. Printed per corpus:

- SUPPORTED precision and recall (precision matters most: a wrong "supported" hides a bad
  citation);
- how often a claim the source supports is called `unsupported` (an accusation against the
  writer; target ≤ 5%) and how often it is `unconfirmed` (information only);
- on the claims the labels say the source refutes (HealthVer), how many are `unsupported`;
- on counter-claims made from each supported claim by substituting one thing the sentence states
  — a number, a named entity, a direction word for its opposite, or a negation inserted — how
  many are caught as `unsupported`, and how many are called `supported`/`partial` — the verdict a
  writer stops reading at, which a counter-claim must never get (target ≤ 5%).

Run with `python bench/local_judge.py`.
"""

from __future__ import annotations

import csv
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.ground.evidence import Passage, RankedPassage
from citecore.ground.judges.local import LocalJudge
from citecore.model import GroundingStatus
from tests.paths import CORPUS

Pair = tuple[str, str, str]  # claim, evidence, label: supports / refutes / neither


def pairs() -> dict[str, list[Pair]]:
    """(claim, evidence, label) per corpus."""
    scifact: list[Pair] = []
    with (CORPUS / "grounding" / "scifact-rte" / "dev.tsv").open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream, delimiter="\t"):
            label = "supports" if row["entailment"] == "entailment" else "neither"
            scifact.append((row["sentence2"], row["sentence1"], label))
    healthver: list[Pair] = []
    path = CORPUS / "grounding" / "healthver" / "healthver_dev_first300.csv"
    labels = {"Supports": "supports", "Refutes": "refutes", "Neutral": "neither"}
    with path.open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            healthver.append((row["claim"], row["evidence"], labels[row["label"]]))
    return {"scifact-rte": scifact, "healthver": healthver}


_SWAPS = {
    "increase": "decrease",
    "increases": "decreases",
    "increased": "decreased",
    "higher": "lower",
    "lower": "higher",
    "more": "less",
    "positive": "negative",
    "reduces": "increases",
    "reduced": "increased",
    "decreased": "increased",
    "inhibits": "promotes",
    "high": "low",
    "low": "high",
}


def counter_claim(claim: str, evidence: str) -> tuple[str, str] | None:
    """One substitution that turns a claim into its counter-claim — of something the evidence
    states too, so that the evidence does say otherwise — and its kind; None when the claim
    has nothing to substitute."""
    stated = set(re.findall(r"[\w.]+", evidence.lower()))
    for number in re.finditer(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.])", claim):
        if number.group(1) in stated:
            changed = str(int(float(number.group(1)) * 2 + 3))
            return claim[: number.start()] + changed + claim[number.end() :], "number"
    for word, opposite in _SWAPS.items():
        if re.search(rf"\b{word}\b", claim) and word in stated:
            return re.sub(rf"\b{word}\b", opposite, claim, count=1), "direction"
    if re.search(r"\bnot\b", claim):
        return re.sub(r"\s*\bnot\b", "", claim, count=1), "negation"
    verb = re.search(r"\b(is|are|was|were|can|does|do|has|have)\b", claim)
    if verb:
        negated = claim[: verb.end()] + " not" + claim[verb.end() :]
        return negated, "negation"
    return None


def _status(judge: LocalJudge, claim: str, evidence: str) -> GroundingStatus:
    passage = RankedPassage(Passage("evidence", 1, evidence), 1.0)
    return judge.judge(claim, [passage]).status


def main() -> None:
    """Print the figures per corpus."""
    judge = LocalJudge()
    for name, rows in pairs().items():
        said = [(_status(judge, claim, evidence), label) for claim, evidence, label in rows]
        supported = [s for s, label in said if label == "supports"]
        predicted = [label for s, label in said if s is GroundingStatus.SUPPORTED]
        right = sum(label == "supports" for label in predicted)
        precision = right / len(predicted) if predicted else float("nan")
        statuses = Counter(s.value for s in supported)
        print(
            f"{name:12s} {len(rows):4d} pairs  SUPPORTED precision {precision:.3f} "
            f"({right}/{len(predicted)}), recall {right / max(1, len(supported)):.3f}"
        )
        print(
            f"    on the {len(supported)} claims the source supports: "
            + ", ".join(f"{status} {n / len(supported):.1%}" for status, n in statuses.items())
        )
        refuted = [s for s, label in said if label == "refutes"]
        if refuted:
            refuted_caught = sum(s is GroundingStatus.UNSUPPORTED for s in refuted)
            print(f"    refuted claims called unsupported: {refuted_caught}/{len(refuted)}")
        counters = [
            (made, evidence, _status(judge, claim, evidence))
            for claim, evidence, label in rows
            if label == "supports" and (made := counter_claim(claim, evidence)) is not None
        ]
        # A lexical judge can only see a substitution in a claim whose words it finds: the
        # counter-claims of claims it supports or partly supports are the ones it can catch.
        for title, chosen in (
            ("all", counters),
            ("of claims it finds", [c for c in counters if c[2] in _FOUND]),
        ):
            kinds: Counter[str] = Counter()
            caught: Counter[str] = Counter()
            for (claim, kind), evidence, _ in chosen:
                kinds[kind] += 1
                caught[kind] += _status(judge, claim, evidence) is GroundingStatus.UNSUPPORTED
            total = sum(kinds.values())
            print(
                f"    substituted counter-claims caught ({title}): {sum(caught.values())}/{total}"
                f" = {sum(caught.values()) / max(1, total):.1%} ("
                + ", ".join(f"{k} {caught[k]}/{n}" for k, n in kinds.items())
                + ")"
            )
        # What the writer must never be told: a counter-claim called supported or partial.
        reassured: Counter[str] = Counter()
        made_kinds: Counter[str] = Counter()
        for (claim, kind), evidence, _ in counters:
            made_kinds[kind] += 1
            reassured[kind] += _status(judge, claim, evidence) in _FOUND
        print(
            f"    counter-claims called supported/partial: {sum(reassured.values())}/"
            f"{len(counters)} = {sum(reassured.values()) / max(1, len(counters)):.1%} (target "
            "<= 5%; "
            + ", ".join(f"{k} {reassured[k]}/{n}" for k, n in made_kinds.items())
            + ")"
        )


_FOUND = {GroundingStatus.SUPPORTED, GroundingStatus.PARTIAL}


if __name__ == "__main__":
    main()
