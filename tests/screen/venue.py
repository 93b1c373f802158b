"""A small venue to screen, and citecheck run as a writer runs it: shared by the screen tests."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from tests.hallmark import _entries

CITECHECK_ENTRY = "import sys; from citecore.cli import main; sys.exit(main())"


def citecheck_run(
    args: list[str], environment: dict[str, str], timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """`citecheck ARGS` run in a process of its own with `environment`."""
    return subprocess.run(
        [sys.executable, "-c", CITECHECK_ENTRY, *args],
        env=environment,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def write_venue(folder: Path, papers: int, per_paper: int, seed: int = 1) -> Path:
    """Submissions citing overlapping draws from the labelled HALLMARK references (real and
    fabricated ones), as .bib files, one Markdown document citing a few of them, and a
    LaTeX project."""
    entries = _entries(60)
    rng = random.Random(seed)
    submissions = folder / "submissions"
    submissions.mkdir(parents=True)
    for n in range(papers):
        (submissions / f"paper{n}.bib").write_text(
            "\n".join(rng.sample(entries, per_paper)), encoding="utf-8"
        )
    document = submissions / "essay"
    document.mkdir()
    (document / "refs.bib").write_text("\n".join(entries[:6]), encoding="utf-8")
    keys = [e.split("{", 1)[1].split(",", 1)[0] for e in entries[:4]]
    (document / "essay.md").write_text(
        "---\nbibliography: refs.bib\n---\n\n"
        + "\n\n".join(f"A claim [@{k}]." for k in keys)
        + "\n",
        encoding="utf-8",
    )
    project = submissions / "thesis"
    project.mkdir()
    (project / "refs.bib").write_text("\n".join(entries[4:10]), encoding="utf-8")
    latex_keys = ",".join(e.split("{", 1)[1].split(",", 1)[0] for e in entries[4:7])
    (project / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\nAs shown \\cite{"
        + latex_keys
        + "}.\n\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8",
    )
    return submissions


def report_verdicts(report: Path) -> dict[str, str]:
    """Each reference's verdict in a JSON report, by key."""
    data = json.loads(report.read_text(encoding="utf-8"))
    return {r["key"]: r["verdict"] for r in data["references"]}
