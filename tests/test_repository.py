"""A clone is complete and portable: no build artefacts, no symbolic links (a Windows checkout and
some wheels break on them), and no docstring that sends the reader to a design file the
repository does not hold."""

from __future__ import annotations

import ast
import shutil
import subprocess

import pytest

from tests.paths import REPO


def _tracked() -> list[tuple[str, str]]:
    """(mode, path) of every file git tracks; skipped outside a git checkout (an sdist)."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    listing = subprocess.run(
        ["git", "ls-files", "-s"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    return [(line.split()[0], line.split("\t", 1)[1]) for line in listing.splitlines()]


def test_no_wheel_or_archive_is_committed() -> None:
    built = [path for _, path in _tracked() if path.endswith((".whl", ".tar.gz", ".egg"))]
    assert built == []


def test_no_symbolic_link_is_committed() -> None:
    links = [path for mode, path in _tracked() if mode == "120000"]
    assert links == []


def test_the_latex_files_ship_inside_the_package() -> None:
    """The wheel carries citecheck.sty and the rc file (pyproject's package-data names them)."""
    for name in ("citecheck.sty", "citecheck.latexmkrc"):
        shipped = REPO / "citecore" / "latexmk" / name
        assert shipped.is_file() and not shipped.is_symlink()


def test_no_docstring_names_a_design_file_outside_the_repository() -> None:
    outside = ("DESIGN.md", "STYLE.md", "../shared/DESIGN", "../shared/STYLE")
    named = []
    for module in sorted((REPO / "citecore").rglob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                docstring = ast.get_docstring(node) or ""
                named += [f"{module.name}: {word}" for word in outside if word in docstring]
    assert named == []
