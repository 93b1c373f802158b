"""Benchmark: grounding a 300-citation document over 50 source PDFs with the local judge.

Generates 50 two-page PDFs (pymupdf) and a Markdown paper citing them 300 times (claims quoted,
edited or unrelated), then runs `citecheck check --ground` in a child process twice on the same
cache: cold (PDF text extraction, judging) and warm (everything from the cache). Prints wall times
and the peak memory of each run (target ≤ 300 MB). Run with `python bench/grounding_run.py`.
"""

from __future__ import annotations

import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

WORDS = (
    "the model reduced error rates in every trial while the baseline improved slowly across "
    "cohorts patients responded to treatment dose measured at weekly intervals over months"
).split()


def sentence(rng: random.Random, number: int) -> str:
    words = [rng.choice(WORDS) for _ in range(12)]
    return f"{' '.join(words).capitalize()} by {number} percent."


def write_sources(folder: Path, count: int, rng: random.Random) -> dict[str, list[str]]:
    """`count` two-page PDFs named key{i}.pdf; returns each key's sentences."""
    sentences: dict[str, list[str]] = {}
    for index in range(count):
        key = f"key{index}"
        lines = [sentence(rng, rng.randint(1, 99)) for _ in range(40)]
        sentences[key] = lines
        document = pymupdf.open()
        for half in (lines[:20], lines[20:]):
            page = document.new_page()
            page.insert_textbox(pymupdf.Rect(50, 50, 550, 800), " ".join(half), fontsize=10)
        document.save(folder / f"{key}.pdf")
        document.close()
    return sentences


def write_paper(
    folder: Path, sentences: dict[str, list[str]], count: int, rng: random.Random
) -> Path:
    keys = sorted(sentences)
    (folder / "refs.bib").write_text(
        "\n".join(f"@misc{{{k}, title = {{Source number {k}}}}}" for k in keys)
    )
    claims = []
    for index in range(count):
        key = rng.choice(keys)
        claim = rng.choice(sentences[key]).rstrip(".")
        if index % 3 == 1:
            claim = claim.replace(" by ", " by 1")  # a changed number
        elif index % 3 == 2:
            claim = "Unrelated weather patterns shift slowly each season"
        claims.append(f"{claim} [@{key}].")
    paragraphs = [" ".join(claims[i : i + 5]) for i in range(0, len(claims), 5)]
    paper = folder / "paper.md"
    paper.write_text("---\nbibliography: refs.bib\n---\n\n" + "\n\n".join(paragraphs) + "\n")
    return paper


def child(paper: str, sources: str, cache: str) -> None:
    """In a child process: one grounding run; prints the peak RSS in MB."""
    from citecore.cli import main as citecheck

    citecheck(
        [
            "check",
            paper,
            "--ground",
            "--sources",
            sources,
            "--no-verify",
            "--cache",
            cache,
            "-f",
            "json",
            "-o",
            str(Path(cache).with_suffix(".json")),
        ]
    )
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def main() -> None:
    """Print cold and warm figures."""
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child(*sys.argv[2:])
        return
    rng = random.Random(11)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "sources").mkdir()
        sentences = write_sources(folder / "sources", 50, rng)
        paper = write_paper(folder, sentences, 300, rng)
        cache = folder / "cache.sqlite3"
        for label in ("cold", "warm"):
            start = time.perf_counter()
            completed = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--child",
                    str(paper),
                    str(folder / "sources"),
                    str(cache),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            elapsed = time.perf_counter() - start
            memory = float(completed.stdout.strip().splitlines()[-1])
            print(
                f"{label}: 300 citations, 50 PDFs: {elapsed:.1f} s, peak RSS {memory:.0f} MB "
                "(target <= 300 MB)"
            )


if __name__ == "__main__":
    main()
