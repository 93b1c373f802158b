"""The build log: one function makes the lines every shell prints, in pandoc's or latexmk's
style; the filter, the latexmk hook, the pre-commit hook and `check` print the same lines of the
same findings."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.cli.app import main
from citecore.model import (
    Bibliography,
    CheckResult,
    Finding,
    FindingKind,
    Reference,
    ReferenceResult,
    ReferenceVerdict,
    Severity,
    SourceLocation,
)
from citecore.options import build_options
from citecore.report.build_log import LogStyle, build_log
from tests.conftest import run_pandoc

GHOST = Finding(
    FindingKind.UNDEFINED,
    Severity.ERROR,
    "cited key is not in any bibliography",
    key="ghost",
    location=SourceLocation("paper.md", 5),
)
RETRACTED = Finding(
    FindingKind.NOT_FOUND, Severity.WARNING, "in no registry", key="doe", location=None
)
SPARE = Finding(FindingKind.UNUSED, Severity.INFO, "listed, never cited", key="spare")
DOE = Reference("doe", "article", SourceLocation("refs.bib", 1), title="A Study of Things")
UNCHECKED = ReferenceResult("doe", ReferenceVerdict.UNVERIFIABLE)
RESULT = CheckResult(
    ("paper.md",),
    Bibliography(("refs.bib",), {"doe": DOE}),
    (),
    {"doe": UNCHECKED},
    (GHOST, RETRACTED, SPARE),
)


def test_the_pandoc_style_marks_what_fails_and_says_how_many() -> None:
    lines = build_log(RESULT, build_options({"fail_on": ["undefined"]}), rerun="run again")
    assert lines == [
        "[ERROR] citecheck: paper.md:5: [undefined] ghost: cited key is not in any bibliography",
        "[WARNING] citecheck: [not_found] doe: in no registry",
        "[ERROR] citecheck: 1 citation problem(s) fail this build",
    ]


def test_information_is_shown_only_when_it_fails() -> None:
    options = build_options({"fail_on": ["undefined", "unused"]})
    lines = build_log(RESULT, options, rerun="", what_fails="this commit")
    assert "[ERROR] citecheck: [unused] spare: listed, never cited" in lines
    assert lines[-1] == "[ERROR] citecheck: 2 citation problem(s) fail this commit"


def test_quiet_shows_only_what_fails() -> None:
    quiet = build_options({"quiet": True, "fail_on": ["undefined"]})
    assert build_log(RESULT, quiet, rerun="") == [
        "[ERROR] citecheck: paper.md:5: [undefined] ghost: cited key is not in any bibliography",
        "[ERROR] citecheck: 1 citation problem(s) fail this build",
    ]
    assert build_log(RESULT, build_options({"quiet": True}), rerun="") == []


def test_the_latexmk_style_has_no_levels_and_a_failing_build_shows_what_fails() -> None:
    lines = build_log(
        RESULT, build_options({"fail_on": ["undefined"]}), rerun="", style=LogStyle.LATEXMK
    )
    assert lines == [
        "citecheck: paper.md:5: [undefined] ghost: cited key is not in any bibliography",
        "citecheck: 1 citation problem(s) fail this build",
    ]
    clean = build_log(RESULT, build_options({}), rerun="", style=LogStyle.LATEXMK)
    assert clean == [
        "citecheck: paper.md:5: [undefined] ghost: cited key is not in any bibliography",
        "citecheck: [not_found] doe: in no registry",
    ]


def test_an_offline_run_says_what_it_did_not_check_before_what_fails() -> None:
    options = build_options({"offline": True, "fail_on": ["undefined"]})
    lines = build_log(RESULT, options, rerun="build again online", report=Path("r.md"))
    assert lines[-2].startswith("[WARNING] citecheck: offline: 1 of 1 references")
    assert lines[-2].endswith("build again online to check them")
    assert lines[-1] == "[ERROR] citecheck: 1 citation problem(s) fail this build; see r.md"
    latexmk = build_log(RESULT, options, rerun="x", style=LogStyle.LATEXMK, findings=False)
    assert latexmk[0].startswith("citecheck: offline: 1 of 1 references")
    assert len(latexmk) == 2


PAPER = """---
bibliography: refs.bib
citecheck:
  offline: true
  strict: true
---

A claim on nothing [@ghost]. A claim on something [@doe].
"""
BIB = "@article{doe, title = {A Study of Things}, author = {Doe, Jane}, year = {2020}}\n"
TEX = (
    "\\documentclass{article}\\begin{document}\nA claim on nothing \\cite{ghost}.\n"
    "A claim on something \\cite{doe}.\n\\bibliographystyle{plain}\\bibliography{refs}\n"
    "\\end{document}\n"
)


def _finding_lines(text: str) -> list[str]:
    """A log's lines that name a finding, without their level."""
    return [
        line.split("] ", 1)[1] if line.startswith("[") else line
        for line in text.splitlines()
        if "citecheck: " in line and ": [" in line and "citecheck: offline:" not in line
    ]


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "paper.md").write_text(PAPER)
    (tmp_path / "main.tex").write_text(TEX)
    (tmp_path / "citecheck.toml").write_text("offline = true\nstrict = true\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITECHECK_CACHE", str(tmp_path / "cache.db"))
    monkeypatch.setenv("CITECHECK_SERVER", "off")
    return tmp_path


def test_every_shell_prints_the_same_lines_of_the_same_findings(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    built = run_pandoc("paper.md", "--filter", "citecheck", "-t", "plain", cwd=project, check=False)
    assert built.returncode != 0
    assert main(["check", "paper.md", "-o", "report.md"]) == 1
    checked = capsys.readouterr().err
    assert main(["pre-commit", "paper.md"]) == 1
    committed = capsys.readouterr().err
    logs = {"filter": built.stderr, "check": checked, "pre-commit": committed}
    findings = {shell: _finding_lines(log) for shell, log in logs.items()}
    assert findings["filter"] == findings["check"] == findings["pre-commit"]
    assert "citecheck: paper.md:8: [undefined] ghost:" in " ".join(findings["filter"])
    assert "[ERROR] citecheck: 1 citation problem(s) fail this build" in built.stderr
    assert "[ERROR] citecheck: 1 citation problem(s) fail this run" in checked
    assert "[ERROR] citecheck: 1 citation problem(s) fail this commit" in committed
    for log in logs.values():
        assert "citecheck: offline: 1 of 1 references" in log
    assert main(["latexmk-hook", "main.tex"]) == 1
    hooked = capsys.readouterr().err.splitlines()
    assert hooked[0].startswith("citecheck: main.tex:2: [undefined] ghost:")
    assert "citecheck: 1 citation problem(s) fail this build" in hooked
    assert any(line.startswith("citecheck: offline: 1 of 1") for line in hooked)
