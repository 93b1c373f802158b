"""`citecheck render`: pandoc with the filter before citeproc, on a machine with no pandoc on
PATH (the pypandoc-binary wheel's is used), every other option passed through."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from citecore.cli.render import pandoc_arguments
from tests.paths import CASES

CITECHECK = str(Path(sys.executable).parent / "citecheck")


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (["paper.md", "-o", "p.pdf"], ["--filter", "F", "--citeproc", "paper.md", "-o", "p.pdf"]),
        (["p.md", "--citeproc", "-o", "x.html"], ["p.md", "--filter", "F", "--citeproc", "-o",
                                                 "x.html"]),
        (["p.md", "-C", "--lua-filter", "l.lua"], ["p.md", "--filter", "F", "-C", "--lua-filter",
                                                  "l.lua"]),
        (["p.md", "-t", "latex", "--natbib"], ["--filter", "F", "p.md", "-t", "latex", "--natbib"]),
    ],
)  # fmt: skip
def test_the_filter_runs_before_citeproc(given: list[str], expected: list[str]) -> None:
    assert pandoc_arguments(given, "F") == expected


def test_render_works_with_no_pandoc_on_path(tmp_path: Path) -> None:
    shutil.copytree(CASES / "problems", tmp_path / "doc")
    environment = {**os.environ, "PATH": str(tmp_path / "empty")}  # no pandoc, no citecheck
    environment.pop("CITECHECK_PANDOC", None)
    completed = subprocess.run(
        [CITECHECK, "render", "paper.md", "--standalone", "-o", "paper.html"],
        cwd=tmp_path / "doc", env=environment, capture_output=True, text=True, timeout=300,
        check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert "[WARNING] citecheck: paper.md:" in completed.stderr  # the filter ran
    html = (tmp_path / "doc" / "paper.html").read_text(encoding="utf-8")
    assert "citecheck-undefined" in html  # annotated
    assert 'class="references' in html or 'id="refs"' in html  # and citeproc ran after it


def test_render_refuses_r_markdown_with_the_command_to_use(tmp_path: Path) -> None:
    (tmp_path / "paper.Rmd").write_text("Text [@a].\n", encoding="utf-8")
    completed = subprocess.run(
        [CITECHECK, "render", "paper.Rmd", "-o", "x.html"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert completed.returncode == 2
    assert "quarto render" in completed.stderr and "rmarkdown::render" in completed.stderr
