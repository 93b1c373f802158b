"""Benchmark: the alignment proof against a straightforward token-level LCS.

Aligns 200 claim passages against a generated 100-page source two ways — citecheck's aligner
(inverted-index anchors, then rapidfuzz's LCS on a few windows) and dynamic programming over the
whole token sequences (the method a peer tool uses) — checks that both make the same
accept/reject decisions, and prints both times and the ratio (target ≥ 50×, ≤ 5 ms per claim).
Run with `python bench/align_speed.py [--claims 200]`.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.ground.align import COVERAGE, DENSITY, AlignedSource
from citecore.ground.text import Page, SourceText
from citecore.ground.tokens import tokens

WORDS = (
    "model data training layer attention network result method sample error rate value test "
    "group signal feature effect study analysis protein cell gene patient dose response level "
    "measure time index series field energy system process structure pattern function"
).split()


def make_source(pages: int, rng: random.Random) -> SourceText:
    """A source of `pages` pages of 400 pseudo-words each."""
    return SourceText(
        "generated",
        "0",
        tuple(
            Page(n, " ".join(rng.choice(WORDS) + str(rng.randint(0, 99)) for _ in range(400)))
            for n in range(1, pages + 1)
        ),
    )


def claims(source: SourceText, count: int, rng: random.Random) -> list[str]:
    """Half quoted from the source (some lightly edited), half made up."""
    words = " ".join(p.text for p in source.pages).split()
    found = []
    for index in range(count):
        if index % 2:
            found.append(" ".join(rng.choice(WORDS) + str(rng.randint(0, 99)) for _ in range(20)))
            continue
        start = rng.randrange(0, len(words) - 25)
        quote = words[start : start + 20]
        if index % 4 == 0:
            quote[rng.randrange(20)] = "edited"
        found.append(" ".join(quote))
    return found


def dp_alignment(passage: list[str], source: list[str]) -> tuple[float, float]:
    """Coverage and density by full dynamic-programming LCS (local: the best-matching span)."""
    best_matched, best_span = 0, 1
    previous = [(0, -1)] * (len(source) + 1)  # (matches, start of the matched span)
    for token in passage:
        current = [(0, -1)] * (len(source) + 1)
        for j, other in enumerate(source, 1):
            if token == other:
                matches, start = previous[j - 1]
                current[j] = (matches + 1, start if start >= 0 else j - 1)
            else:
                current[j] = max(previous[j], current[j - 1])
            if current[j][0] > best_matched:
                best_matched, best_span = current[j][0], j - current[j][1]
        previous = current
    return best_matched / len(passage), best_matched / max(best_span, 1)


def main() -> None:
    """Print both timings, their ratio and the decision agreement."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--claims", type=int, default=200)
    parser.add_argument("--pages", type=int, default=100)
    parser.add_argument(
        "--dp-sample",
        type=int,
        default=6,
        help="claims timed with the DP baseline (it is slow; extrapolated)",
    )
    args = parser.parse_args()
    rng = random.Random(7)
    source = make_source(args.pages, rng)
    passages = claims(source, args.claims, rng)
    start = time.perf_counter()
    aligned = AlignedSource(source)
    setup = time.perf_counter() - start
    start = time.perf_counter()
    ours = [aligned.align(p) for p in passages]
    ours_time = time.perf_counter() - start
    sample = passages[: args.dp_sample]
    start = time.perf_counter()
    baseline = [dp_alignment(tokens(p), aligned.tokens) for p in sample]
    dp_time = (time.perf_counter() - start) / len(sample) * len(passages)
    agree = sum(
        (o.coverage >= COVERAGE and o.density >= DENSITY) == (c >= COVERAGE and d >= DENSITY)
        for o, (c, d) in zip(ours[: len(sample)], baseline, strict=True)
    )
    print(f"{len(passages)} claims against {args.pages} pages ({len(aligned.tokens)} tokens)")
    print(
        f"  citecheck aligner: {ours_time * 1000:.1f} ms ({ours_time / len(passages) * 1000:.3f} "
        f"ms per claim; index built in {setup * 1000:.0f} ms)"
    )
    print(f"  token-level DP LCS: {dp_time:.1f} s (extrapolated from {len(sample)} claims)")
    print(
        f"  ratio: {dp_time / ours_time:.0f}x (target >= 50x, <= 5 ms per claim); "
        f"same decisions on {agree}/{len(sample)} sampled claims"
    )


if __name__ == "__main__":
    main()
