"""Benchmark: how long the language server takes to turn an edit into diagnostics.

Builds a 300-citation Markdown document and a 300-citation LaTeX document (one sentence per
line, no blank lines: the layout that once made claim reading take 16 s) over a 150-entry
bibliography, then times `analyse_document` + `diagnostics` on the edited text — what
`citecheck lsp` does on each didChange: scan, bibliography from its cache, local checks, every
cited entry's verdict asked of the (here empty) registry cache — and prints the median and 95th
percentile of 30 edits per document (target: ≤ 50 ms for 300 citations).
Run with `python bench/lsp_latency.py [--citations 300]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.lsp.analysis import analyse_document
from citecore.lsp.features import diagnostics


def _bibliography(entries: int) -> str:
    return "".join(
        f"@article{{key{n}, title = {{A Study of Topic Number {n} in Depth}}, "
        f"author = {{Author{n}, Ann and Writer, Will}}, journal = {{Journal of Tests}}, "
        f"year = {{{2000 + n % 24}}}, doi = {{10.5555/test.{n}}}}}\n"
        for n in range(entries)
    )


def _markdown(citations: int, entries: int) -> str:
    lines = ["---", "bibliography: refs.bib", "---", ""]
    for n in range(citations):
        key = f"key{n % entries}" if n % 37 else f"missing{n}"
        lines.append(f"Sentence {n} states a finding about topic {n} [see @{key}, p. {n % 9 + 1}].")
    return "\n".join(lines) + "\n"


def _latex(citations: int, entries: int) -> str:
    body = "\n".join(
        f"Sentence {n} states a finding \\citep[p.~{n % 9 + 1}]{{key{n % entries}}}."
        for n in range(citations)
    )
    return (
        "\\documentclass{article}\n\\usepackage{natbib}\n\\begin{document}\n"
        f"{body}\n\\bibliographystyle{{plainnat}}\n\\bibliography{{refs}}\n\\end{{document}}\n"
    )


def _time(path: Path, text: str, edits: int) -> list[float]:
    analyse_document(path, text, {})  # first open: imports, the bibliography parsed and cached
    times = []
    for n in range(edits):
        edited = text.replace("Sentence 7 ", f"Sentence 7 (edit {n}) ", 1)
        start = time.perf_counter()
        analysis = analyse_document(path, edited, {})
        diagnostics(analysis, {path: edited})
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    """Print the latency figures."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--citations", type=int, default=300)
    parser.add_argument("--entries", type=int, default=150)
    parser.add_argument("--edits", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        os.environ["XDG_CACHE_HOME"] = str(root / "cache")
        os.environ["CITECHECK_OFFLINE"] = "1"
        (root / "refs.bib").write_text(_bibliography(args.entries))
        documents = {
            "paper.md": _markdown(args.citations, args.entries),
            "main.tex": _latex(args.citations, args.entries),
        }
        print(f"{args.citations} citations, {args.entries} entries, {args.edits} edits each")
        for name, text in documents.items():
            path = root / name
            path.write_text(text)
            times = sorted(_time(path, text, args.edits))
            p95 = times[int(0.95 * (len(times) - 1))]
            print(f"  {name:9s} median {statistics.median(times):6.1f} ms   p95 {p95:6.1f} ms")


if __name__ == "__main__":
    main()
