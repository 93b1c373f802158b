"""Benchmark: any grounding judge on the real labelled sets, and passage recall of the ranking.

The sets (../shared/corpus/grounding/), each claim judged as a build judges it — the source's
passages ranked against the claim, the best five given to the judge:

- WiCE: real Wikipedia sentences against the web page each cites (supported, partially
  supported, not supported), the page's sentences as the source;
- COVID-Fact: real claims (SUPPORTED) and the counter-claims people made by changing one word
  of them (REFUTED), their evidence sentences as the source;
- SciFact-RTE and HealthVer: claims with one evidence text.

Printed per set and label: how the claims are called; the share of counter-claims and
unsupported claims called `supported`/`partial` (a writer stops reading there: target <= 3%);
the share of supported claims called `unsupported` (an accusation: target <= 3%); recall of
`supported`. Then passage recall@1/3/5 on WiCE's marked supporting sentences (a claim counts
when a ranked passage holds one of its supporting sentences), lexical and fused side by side.

    python bench/grounding_sets.py                      # the local judge, every set
    python bench/grounding_sets.py --sets wice --stride 4
    python bench/grounding_sets.py --judge openai --judge-url http://127.0.0.1:8080 \\
        --judge-model qwen2.5-7b-instruct                 # llama.cpp / Ollama / vLLM
    GOOGLE_API_KEY=… python bench/grounding_sets.py --judge gemini --stride 20

`--stride N` judges every Nth claim (a model judge is slow and costs money); `--ranking-only`
prints only the passage recall.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.ground.embedding import sentence_embedder
from citecore.ground.evidence import EvidenceIndex, Passage, passages
from citecore.ground.judges import Judge, JudgeVerdict
from citecore.ground.judges.guard import guarded
from citecore.ground.judges.local import LocalJudge
from citecore.ground.text import Page, SourceText
from citecore.model import GroundingStatus
from tests.paths import CORPUS

GROUNDING = CORPUS / "grounding"
_FOUND = (GroundingStatus.SUPPORTED, GroundingStatus.PARTIAL)
# Each set's labels as supports (the source supports the claim), refutes, neither or part.
_SUPPORTS, _PART, _REFUTES, _NEITHER = "supports", "partly", "refutes", "neither"


@dataclass(frozen=True, slots=True)
class Item:
    """One labelled claim and its source's sentences (and, for WiCE, which of them support)."""

    claim: str
    sentences: tuple[str, ...]
    label: str
    supporting: frozenset[int] = frozenset()


def wice() -> Iterator[Item]:
    labels = {"supported": _SUPPORTS, "partially_supported": _PART, "not_supported": _NEITHER}
    with (GROUNDING / "wice" / "claim_test.jsonl").open(encoding="utf-8") as stream:
        for line in stream:
            row = json.loads(line)
            marked = frozenset(i for group in row["supporting_sentences"] for i in group)
            yield Item(row["claim"], tuple(row["evidence"]), labels[row["label"]], marked)


def covidfact() -> Iterator[Item]:
    labels = {"SUPPORTED": _SUPPORTS, "REFUTED": _REFUTES}
    path = GROUNDING / "covidfact" / "covidfact_lines1001-end.jsonl"
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            row = json.loads(line)
            yield Item(row["claim"], tuple(row["evidence"]), labels[row["label"]])


def scifact() -> Iterator[Item]:
    path = GROUNDING / "scifact-rte" / "dev.tsv"
    with path.open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream, delimiter="\t"):
            label = _SUPPORTS if row["entailment"] == "entailment" else _NEITHER
            yield Item(row["sentence2"], (row["sentence1"],), label)


def healthver() -> Iterator[Item]:
    labels = {"Supports": _SUPPORTS, "Refutes": _REFUTES, "Neutral": _NEITHER}
    path = GROUNDING / "healthver" / "healthver_dev_first300.csv"
    with path.open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            yield Item(row["claim"], (row["evidence"],), labels[row["label"]])


SETS = {"wice": wice, "covidfact": covidfact, "scifact": scifact, "healthver": healthver}


def source_of(item: Item) -> SourceText:
    """The item's sentences as one page, a paragraph each (a web page's lines and an abstract's
    sentences alike end where they end)."""
    return SourceText("source", "-", (Page(1, "\n\n".join(item.sentences)),))


def judged(judge: Judge, item: Item, ranked: bool) -> JudgeVerdict:
    """The verdict a build would give: the best five passages to the judge, then the guard."""
    source = source_of(item)
    index = EvidenceIndex(passages(source), sentence_embedder() if ranked else None)
    evidence = index.rank(item.claim)
    return guarded(judge.judge(item.claim, evidence), item.claim)


def _words(text: str) -> tuple[str, ...]:
    return tuple(re.findall(r"\w+", text.casefold()))


def punctuation_only(items: Sequence[Item]) -> set[str]:
    """COVID-Fact's counter-claims that differ from a true claim of the same evidence by
    punctuation or case alone (the data set's own garbled counter-claims: no word changed)."""
    true: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    for item in items:
        if item.label == _SUPPORTS:
            true.setdefault(item.sentences, set()).add(_words(item.claim))
    return {
        item.claim
        for item in items
        if item.label == _REFUTES and _words(item.claim) in true.get(item.sentences, set())
    }


def _missed(label: str, status: GroundingStatus) -> bool:
    """A call a writer would be misled by: a supported claim accused, or a counter-claim or
    unsupported one granted."""
    if label == _SUPPORTS:
        return status is GroundingStatus.UNSUPPORTED
    return label in (_REFUTES, _NEITHER) and status in _FOUND


def _share(counts: Counter[GroundingStatus], wanted: Sequence[GroundingStatus]) -> float:
    return sum(counts[s] for s in wanted) / max(1, sum(counts.values()))


def judge_table(
    judge: Judge, names: Sequence[str], stride: int, ranked: bool, misses: TextIO | None
) -> None:
    """How each set's claims are called, per label, with the targets' figures; each call that
    would mislead a writer written to `misses` (JSON lines) when given."""
    for name in names:
        started = time.perf_counter()
        by_label: dict[str, Counter[GroundingStatus]] = {}
        items = list(SETS[name]())
        garbled = punctuation_only(items)
        granted_garbled = 0
        for item in items[::stride]:
            verdict = judged(judge, item, ranked)
            by_label.setdefault(item.label, Counter())[verdict.status] += 1
            granted_garbled += item.claim in garbled and verdict.status in _FOUND
            if misses is not None and _missed(item.label, verdict.status):
                row = {"set": name, "label": item.label, "status": verdict.status.value}
                row |= {"claim": item.claim, "reason": verdict.reason, "passage": verdict.passage}
                misses.write(json.dumps(row, ensure_ascii=False) + "\n")
        took = time.perf_counter() - started
        total = sum(sum(c.values()) for c in by_label.values())
        print(
            f"{name}: {total} claims, {took:.1f} s ({1000 * took / max(1, total):.0f} ms a claim)"
        )
        for label, counts in sorted(by_label.items()):
            calls = ", ".join(
                f"{s.value} {n / sum(counts.values()):.1%}" for s, n in counts.most_common()
            )
            print(f"  {label:8} n={sum(counts.values()):5}  {calls}")
            if label == _SUPPORTS:
                recall = _share(counts, [GroundingStatus.SUPPORTED])
                accused = _share(counts, [GroundingStatus.UNSUPPORTED])
                print(
                    f"           recall of supported {recall:.3f}; called unsupported "
                    f"{accused:.1%} (target <= 3%)"
                )
            elif label in (_REFUTES, _NEITHER):
                print(
                    f"           called supported/partial {_share(counts, _FOUND):.1%}"
                    + (" (target <= 3%)" if label == _REFUTES else "")
                )
            if label == _REFUTES and name == "covidfact":
                judged_garbled = len(
                    [c for c in garbled if c in {i.claim for i in items[::stride]}]
                )
                total = sum(counts.values()) - judged_garbled
                granted = sum(counts[s] for s in _FOUND) - granted_garbled
                print(
                    f"           of which {judged_garbled} differ from a true claim by "
                    f"punctuation alone ({granted_garbled} granted); the {total} that change "
                    f"a word: called supported/partial {granted / max(1, total):.1%} "
                    "(target <= 3%)"
                )


def _held(passage: Passage, item: Item) -> set[int]:
    """The item's supporting sentences a passage holds (or a part of: a long sentence may be
    cut into passages)."""
    held = set()
    for number in item.supporting:
        sentence = " ".join(item.sentences[number].split())
        if sentence and (sentence in passage.text or passage.text in sentence):
            held.add(number)
    return held


def passage_recall(stride: int) -> None:
    """Recall@1/3/5 of WiCE's marked supporting sentences, lexical and fused side by side."""
    embedder = sentence_embedder()
    rankings = {"lexical": None, "fused": embedder} if embedder else {"lexical": None}
    items = [i for i in list(wice())[::stride] if i.supporting]
    marked = sum(len(i.supporting) for i in items)
    print(
        f"passage recall on WiCE: {len(items)} claims with marked supporting sentences "
        f"({marked} sentences); claims: a ranked passage holds one of them; sentences: the "
        "share of all marked sentences the ranked passages hold"
    )
    for name, chosen in rankings.items():
        hits, held = Counter[int](), Counter[int]()
        started = time.perf_counter()
        for item in items:
            ranked = EvidenceIndex(passages(source_of(item)), chosen).rank(item.claim, limit=5)
            for k in (1, 3, 5):
                found = set().union(*(_held(r.passage, item) for r in ranked[:k]))
                hits[k] += bool(found)
                held[k] += len(found)
        took = time.perf_counter() - started
        claims = "  ".join(f"@{k} {hits[k] / len(items):.3f}" for k in (1, 3, 5))
        sentences = "  ".join(f"@{k} {held[k] / marked:.3f}" for k in (1, 3, 5))
        ranking = EvidenceIndex([], chosen).ranking
        print(f"  {name:8} ({ranking}): claims {claims} | sentences {sentences}  [{took:.1f} s]")
    if not embedder:
        print("  (no sentence embedder installed: pip install 'citecore[embed]')")


def make_judge(options: argparse.Namespace) -> Judge:
    """The judge the command line asks for."""
    if options.judge == "openai":
        from citecore.ground.judges.openai_compat import OpenAICompatJudge

        return OpenAICompatJudge(options.judge_url, options.judge_model, options.timeout)
    if options.judge == "gemini":
        import os

        from google import genai

        from citecore.ground.judges.gemini import DEFAULT_MODEL, GeminiJudge

        client = genai.Client(api_key=os.environ["GOOGLE_API_KEY"])
        # No File Search store: the model judges the ranked passages it is given, as the
        # OpenAI-compatible judge does.
        return GeminiJudge(client, "", options.judge_model or DEFAULT_MODEL)
    return LocalJudge()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--judge", choices=["local", "openai", "gemini"], default="local")
    parser.add_argument("--judge-url", default="")
    parser.add_argument("--judge-model", default="")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--stride", type=int, default=1)
    parser.add_argument("--lexical", action="store_true", help="rank passages by BM25 only")
    parser.add_argument("--ranking-only", action="store_true")
    parser.add_argument("--misses", type=Path, help="write every misleading call here (JSONL)")
    options = parser.parse_args()
    names = [n for n in options.sets.split(",") if n]
    if not options.ranking_only:
        judge = make_judge(options)
        print(f"judge: {judge.name} {judge.model}")
        with ExitStack() as stack:
            misses = stack.enter_context(options.misses.open("w")) if options.misses else None
            judge_table(judge, names, options.stride, not options.lexical, misses)
        judge.close()
    if "wice" in names:
        passage_recall(options.stride)


if __name__ == "__main__":
    main()
