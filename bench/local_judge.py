"""Benchmark: the local (lexical) judge on labelled claim/evidence pairs and real sources.

SciFact-RTE (entailment / not_entailment) and HealthVer (Supports / Refutes / Neutral) from
../shared/corpus/grounding/, the judge seeing the evidence as the only passage; and sentences of
the real paper PDFs of ../shared/corpus/ (arXiv and publishers'), judged on the passages the
evidence index ranks for them, as in a build. Printed:

- SUPPORTED precision and recall on the labelled pairs (precision matters most: a wrong
  "supported" hides a bad citation);
- how often a claim the source supports is called `unsupported` (an accusation against the
  writer; target <= 5%);
- how the claims labelled refuted or not entailed are called (supported/partial is what a writer
  stops reading at);
- claims with one slot changed (tests/ground/slot_changes.py: a number, a named entity, a
  direction word, the sides of a contrast, a content word, a negation), made from the supported
  labelled claims and from the real sentences: how many are called `supported`/`partial`
  (target <= 5%) and how many `unsupported` (a conflict shown);
- the real sentences as they are: how they are called (a sentence of the source is supported).

Run with `python bench/local_judge.py` (`--rules-only`: without WordNet, as on a machine
that lacks it).
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.ground.evidence import Passage, RankedPassage
from citecore.ground.judges.local import LocalJudge
from citecore.ground.lexicon import RulesOnly
from citecore.model import GroundingStatus
from tests.ground.slot_changes import Vocabulary, changes, source_claims, source_pdfs, vocabulary
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


def _status(judge: LocalJudge, claim: str, evidence: str) -> GroundingStatus:
    passage = RankedPassage(Passage("evidence", 1, evidence), 1.0)
    return judge.judge(claim, [passage]).status


def _rates(statuses: list[GroundingStatus]) -> str:
    counts = Counter(s.value for s in statuses)
    return ", ".join(f"{k} {n / max(1, len(statuses)):.1%}" for k, n in sorted(counts.items()))


def _reassured(made: list[tuple[str, GroundingStatus]], title: str) -> None:
    """Print how many changed claims came out supported/partial, overall and per kind."""
    kinds: Counter[str] = Counter()
    found: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    for kind, status in made:
        kinds[kind] += 1
        found[kind] += status in _FOUND
        caught[kind] += status is GroundingStatus.UNSUPPORTED
    total = max(1, len(made))
    print(
        f"    {title}: {len(made)}, called supported/partial {sum(found.values())} = "
        f"{sum(found.values()) / total:.1%} (target <= 5%), unsupported "
        f"{sum(caught.values()) / total:.1%}; per kind supported/partial: "
        + ", ".join(f"{k} {found[k]}/{n}" for k, n in sorted(kinds.items()))
    )


def labelled(judge: LocalJudge, vocabulary: Vocabulary) -> None:
    """The labelled corpora: precision, recall, accusations, and their supported claims changed."""
    for name, rows in pairs().items():
        rng = random.Random(25)
        said = [(_status(judge, claim, evidence), label) for claim, evidence, label in rows]
        supported = [s for s, label in said if label == "supports"]
        predicted = [label for s, label in said if s is GroundingStatus.SUPPORTED]
        right = sum(label == "supports" for label in predicted)
        precision = right / len(predicted) if predicted else float("nan")
        print(
            f"{name:12s} {len(rows):4d} pairs  SUPPORTED precision {precision:.3f} "
            f"({right}/{len(predicted)}), recall {right / max(1, len(supported)):.3f}"
        )
        unsupported = sum(s is GroundingStatus.UNSUPPORTED for s in supported)
        print(
            f"    on the {len(supported)} claims the source supports: {_rates(supported)} "
            f"(unsupported {unsupported / max(1, len(supported)):.1%}, target <= 5%)"
        )
        for label in ("refutes", "neither"):
            other = [s for s, given in said if given == label]
            if other:
                found = sum(s in _FOUND for s in other)
                print(
                    f"    on the {len(other)} claims labelled {label}: {_rates(other)} "
                    f"(supported/partial {found / len(other):.1%})"
                )
        made = [
            (change.kind, _status(judge, change.claim, evidence))
            for claim, evidence, label in rows
            if label == "supports"
            for change in changes(claim, evidence, vocabulary, rng)
        ]
        _reassured(made, "supported claims with one slot changed")


def real_sources(judge: LocalJudge, per_source: int) -> None:
    """Sentences of real PDFs as claims, as they are and with one slot changed, judged on the
    passages the evidence index ranks for them."""
    rng = random.Random(25)
    claims = [c for path in source_pdfs() for c in source_claims(path, per_source, rng)]
    words = vocabulary(c.claim for c in claims)
    verbatim = [judge.judge(c.claim, c.evidence).status for c in claims]
    print(
        f"real PDFs    {len(claims):4d} sentences of {len(source_pdfs())} PDFs as claims: "
        f"{_rates(verbatim)}"
    )
    made = [
        (change.kind, judge.judge(change.claim, c.index.rank(change.claim)).status)
        for c in claims
        for change in changes(c.claim, " ".join(r.passage.text for r in c.evidence), words, rng)
    ]
    _reassured(made, "sentences with one slot changed")


def main() -> None:
    """Print the figures per corpus and on the real PDFs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-source", type=int, default=40, help="sentences per real PDF")
    parser.add_argument(
        "--rules-only", action="store_true", help="judge without WordNet, as where it is missing"
    )
    arguments = parser.parse_args()
    judge = LocalJudge(RulesOnly("rules only: --rules-only") if arguments.rules_only else None)
    print(f"judge: {judge.model} ({judge.words.description})")
    texts = [text for rows in pairs().values() for row in rows for text in row[:2]]
    labelled(judge, vocabulary(texts))
    real_sources(judge, arguments.per_source)


_FOUND = {GroundingStatus.SUPPORTED, GroundingStatus.PARTIAL}


if __name__ == "__main__":
    main()
