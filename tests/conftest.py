"""Shared test fixtures: where the real corpus is, and how to run the real pandoc."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from citecore.pandoc import pandoc_path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CITECHECK_SHARED", REPO.parent / "shared"))
CORPUS = SHARED / "corpus"
CASES = Path(__file__).resolve().parent / "cases"


def corpus_markdown_papers() -> list[Path]:
    """Every paper of ../shared/corpus/markdown (the one in MANIFEST.tsv for each folder)."""
    manifest = CORPUS / "markdown" / "MANIFEST.tsv"
    rows = [line.split("\t") for line in manifest.read_text().splitlines()[1:] if line.strip()]
    return [CORPUS / "markdown" / row[0] / row[1] for row in rows]


def run_pandoc(
    *args: str, cwd: Path, env: dict[str, str] | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run the real pandoc binary with `citecheck` (this interpreter's) first on PATH."""
    environment = dict(os.environ)
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment['PATH']}"
    environment.update(env or {})
    completed = subprocess.run(
        [pandoc_path(), *args], cwd=cwd, env=environment, capture_output=True, text=True
    )
    if check and completed.returncode != 0:
        raise AssertionError(f"pandoc failed ({completed.returncode}):\n{completed.stderr}")
    return completed


@pytest.fixture
def pandoc() -> str:
    """The pandoc executable citecheck itself would use."""
    return pandoc_path()


requires_latex = pytest.mark.skipif(
    shutil.which("pdflatex") is None, reason="TeX Live is installed by .ci/run"
)
