"""Benchmark: pandoc + the citecheck filter against pandoc + a no-op panflute filter.

Generates a 300-citation document with a 120-entry bibliography, then times both pipelines in
the same run, interleaved, and prints the medians and their ratio (target: ≤ 1.15×). Run with
`make bench` or `python bench/filter_overhead.py [--runs N]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from citecore.pandoc import pandoc_path

NOOP_FILTER = """import panflute as pf
pf.run_filter(lambda element, doc: None)
"""


def write_inputs(folder: Path, citations: int = 300, entries: int = 120) -> Path:
    """A Markdown paper citing `citations` times from a bibliography of `entries` entries."""
    bib = [
        f"@article{{key{i},\n  author = {{Author{i}, Ann and Other, Bob}},\n"
        f"  title = {{A study of topic number {i} in {{LaTeX}} and M{{\\\"u}}nchen}},\n"
        f"  journal = {{Journal of Benchmarks}},\n  year = {{{1990 + i % 30}}},\n"
        f"  doi = {{10.1000/bench.{i}}}\n}}\n"
        for i in range(entries)
    ]
    (folder / "refs.bib").write_text("\n".join(bib))
    sentences = []
    for i in range(citations):
        key, other = f"key{i % entries}", f"key{(i * 7) % entries}"
        form = i % 4
        if form == 0:
            sentences.append(f"Claim {i} holds, e.g. in Fig. {i} [@{key}].")
        elif form == 1:
            sentences.append(f"@{key} showed result {i}.")
        elif form == 2:
            sentences.append(f"Both agree on {i}.{i} units [see @{key}, p. {i}; @{other}].")
        else:
            sentences.append(f"A noted claim {i}.^[As argued by @{key}.]")
    paragraphs = [" ".join(sentences[i : i + 5]) for i in range(0, len(sentences), 5)]
    text = "---\ntitle: Benchmark\nbibliography: refs.bib\n---\n\n" + "\n\n".join(paragraphs)
    (folder / "paper.md").write_text(text + "\n")
    (folder / "noop.py").write_text(NOOP_FILTER)
    return folder / "paper.md"


def time_command(args: list[str], cwd: Path) -> float:
    """Wall time of one run, in seconds; the command must succeed."""
    start = time.perf_counter()
    subprocess.run(args, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    """Print the medians of both pipelines and their ratio."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    runs = parser.parse_args().runs
    citecheck = str(Path(sys.executable).parent / "citecheck")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        write_inputs(folder)
        pandoc = pandoc_path()
        base = [pandoc, "paper.md", "-t", "html", "-o", os.devnull]
        pipelines = {
            "pandoc + no-op panflute filter": [*base, "--filter", str(folder / "noop.py")],
            "pandoc + citecheck filter": [*base, "--filter", citecheck],
        }
        for args in pipelines.values():  # warm-up: disk caches, bytecode
            time_command(args, folder)
        times: dict[str, list[float]] = {label: [] for label in pipelines}
        for _ in range(runs):
            for label, args in pipelines.items():
                times[label].append(time_command(args, folder))
    medians = {label: statistics.median(values) for label, values in times.items()}
    for label, median in medians.items():
        print(f"{label:34s} median {median * 1000:7.1f} ms over {runs} runs")
    noop, ours = medians.values()
    print(f"ratio citecheck / no-op: {ours / noop:.2f}x (target <= 1.15x)")


if __name__ == "__main__":
    main()
