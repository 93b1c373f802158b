"""The Quarto extension's Lua shim, run by the real pandoc with `--lua-filter` (no Quarto binary
is installable here; Quarto runs the same Lua through its own pandoc)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.conftest import CASES, REPO, run_pandoc

SHIM = REPO / "_extensions" / "citecheck" / "citecheck.lua"


@pytest.fixture
def quarto_case(tmp_path: Path) -> Path:
    folder = tmp_path / "quarto"
    shutil.copytree(CASES / "quarto-crossref", folder)
    return folder


def run_shim(
    folder: Path, env: dict[str, str] | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Render the case's paper.qmd to HTML with the shim, as Quarto's pandoc would."""
    return run_pandoc(
        "-f",
        "markdown",
        "paper.qmd",
        "--lua-filter",
        str(SHIM),
        "-t",
        "html",
        cwd=folder,
        env=env,
        check=check,
    )


def test_extension_manifest_contributes_the_filter() -> None:
    manifest = yaml.safe_load((SHIM.parent / "_extension.yml").read_text())
    assert manifest["contributes"]["filters"] == ["citecheck.lua"]


def test_shim_checks_the_document_and_skips_cross_references(quarto_case: Path) -> None:
    completed = run_shim(quarto_case)
    citecheck_lines = [line for line in completed.stderr.splitlines() if "citecheck" in line]
    assert citecheck_lines[0] == (
        "[WARNING] citecheck: paper.qmd:9: [undefined] missing2020: "
        "cited key is not in any bibliography"
    )
    assert len(citecheck_lines) == 2 and "citecheck: offline: " in citecheck_lines[1]
    assert 'class="citecheck citecheck-error citecheck-undefined"' in completed.stdout


def test_shim_fails_the_build_in_strict_mode(quarto_case: Path) -> None:
    completed = run_shim(quarto_case, env={"CITECHECK_STRICT": "1"}, check=False)
    assert completed.returncode != 0
    assert "citation problems fail this build" in completed.stderr


def test_shim_warns_when_citecheck_is_missing(quarto_case: Path) -> None:
    completed = run_shim(quarto_case, env={"CITECHECK_COMMAND": "no-such-citecheck"})
    assert "[WARNING] citecheck: could not run 'no-such-citecheck'" in completed.stderr
    assert "accuracy rises with depth" in " ".join(completed.stdout.split())
