"""Where writers commit: the main file a changed chapter belongs to, `citecheck pre-commit` on
changed files, and the hook itself under the real `pre-commit try-repo` on a fixture repository
(its environment built offline from this interpreter's packages)."""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.extract.latex_root import main_files_for
from tests.emulator import RegistryEmulator
from tests.paths import CASES, REPO
from tests.verify.test_resolve import no_hits, reference

MAIN = "\\documentclass{article}\n\\begin{document}\n\\input{chapters/one}\n\\end{document}\n"


def _project(root: Path, main_name: str = "thesis.tex") -> Path:
    (root / "chapters").mkdir(parents=True)
    (root / main_name).write_text(MAIN)
    chapter = root / "chapters" / "one.tex"
    chapter.write_text("A claim \\cite{k}.\n")
    return chapter


def test_a_main_file_is_its_own_root(tmp_path: Path) -> None:
    _project(tmp_path)
    assert main_files_for(tmp_path / "thesis.tex") == [(tmp_path / "thesis.tex").resolve()]


def test_a_magic_comment_names_the_root(tmp_path: Path) -> None:
    chapter = _project(tmp_path)
    (tmp_path / "other.tex").write_text(MAIN)
    chapter.write_text("% !TEX root = ../other.tex\nA claim \\cite{k}.\n")
    assert main_files_for(chapter, tmp_path) == [(tmp_path / "other.tex").resolve()]


def test_latexmkrc_default_files_name_the_root(tmp_path: Path) -> None:
    chapter = _project(tmp_path)
    (tmp_path / "draft.tex").write_text(MAIN)
    (tmp_path / "latexmkrc").write_text("@default_files = ('draft.tex');\n$pdf_mode = 1;\n")
    assert main_files_for(chapter, tmp_path) == [(tmp_path / "draft.tex").resolve()]


def test_the_workspace_is_searched_for_mains_that_include_the_file(tmp_path: Path) -> None:
    chapter = _project(tmp_path)
    (tmp_path / "unrelated.tex").write_text("\\documentclass{article}\n\\begin{document}\n")
    (tmp_path / "broken.tex").write_text("\\documentclass{article}\n\\input{")
    assert main_files_for(chapter, tmp_path) == [(tmp_path / "thesis.tex").resolve()]
    orphan = tmp_path / "chapters" / "orphan.tex"
    orphan.write_text("No project includes me.\n")
    assert main_files_for(orphan, tmp_path) == []


def test_pre_commit_checks_what_changed_and_says_each_problem_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(CASES / "latex-natbib", tmp_path / "paper")
    shutil.copytree(CASES / "problems", tmp_path / "notes")
    monkeypatch.chdir(tmp_path)
    changed = ["paper/chapters/intro.tex", "notes/paper.md", "notes/refs.bib", "README.txt"]
    assert main(["pre-commit", *changed]) == 1
    err = capsys.readouterr().err.splitlines()
    assert "[ERROR] citecheck: paper/chapters/intro.tex:4: [undefined] ghost2020: cited key is " \
        "not in any bibliography" in err  # fmt: skip
    unparsed = [line for line in err if "[unparsed] broken2019" in line]
    assert len(unparsed) == 1  # the document and its bibliography both changed: said once
    assert main(["pre-commit", "README.txt"]) == 0


def test_pre_commit_fails_only_on_the_kinds_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shutil.copytree(CASES / "problems", tmp_path / "notes")
    monkeypatch.chdir(tmp_path)
    assert main(["pre-commit", "notes/paper.md", "--fail-on", "future_year"]) == 0


def _git(folder: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.org", "-c", "user.name=t", *args],
        cwd=folder, check=True, capture_output=True,
    )  # fmt: skip


@pytest.mark.skipif(shutil.which("pre-commit") is None, reason="needs pre-commit")
def test_the_hook_under_pre_commit_try_repo(tmp_path: Path) -> None:
    fixture = tmp_path / "writer"
    shutil.copytree(CASES / "problems", fixture)
    _git(fixture, "init", "-q")
    _git(fixture, "add", "-A")
    _git(fixture, "commit", "-qm", "draft")
    environment = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        # The hook's environment is built from what this interpreter has: no index, no network.
        "VIRTUALENV_SYSTEM_SITE_PACKAGES": "1",
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",
    }
    if sys.prefix != sys.base_prefix:
        # In a virtualenv the "system" site-packages the hook's environment sees are the base
        # interpreter's, which lack citecheck's dependencies: this one's are lent on the path.
        lent = [*site.getsitepackages(), environment.get("PYTHONPATH", "")]
        environment["PYTHONPATH"] = os.pathsep.join(p for p in lent if p)
    completed = subprocess.run(
        ["pre-commit", "try-repo", str(REPO), "citecheck", "--files", "paper.md", "refs.bib"],
        cwd=fixture, env=environment, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    output = completed.stdout + completed.stderr
    assert completed.returncode == 1, output
    assert "citecheck" in output and "Failed" in output
    assert "paper.md:7: [undefined] ghost2020" in output
    (fixture / "paper.md").write_text("---\nbibliography: refs.bib\n---\nA claim [@smith2020].\n")
    (fixture / "refs.bib").write_text(
        "@article{smith2020, title = {A Title}, author = {Smith, Ann}, year = 2020}\n"
    )
    clean = subprocess.run(
        ["pre-commit", "try-repo", str(REPO), "citecheck", "--files", "paper.md", "refs.bib"],
        cwd=fixture, env=environment, capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert clean.returncode == 0, clean.stdout + clean.stderr


def test_a_magic_root_in_quotes_or_without_suffix_and_a_missing_one(tmp_path: Path) -> None:
    chapter = _project(tmp_path)
    (tmp_path / "other.tex").write_text(MAIN)
    chapter.write_text('%!TEX root = "../other"\nA claim.\n')
    assert main_files_for(chapter, tmp_path) == [(tmp_path / "other.tex").resolve()]
    # A root that does not exist is not trusted: the workspace is searched instead.
    chapter.write_text("% !TEX root = ../gone.tex\nA claim.\n")
    assert main_files_for(chapter, tmp_path) == [
        (tmp_path / name).resolve()
        for name in ("other.tex", "thesis.tex")  # both input it
    ]


def test_a_commented_documentclass_does_not_make_a_main_file(tmp_path: Path) -> None:
    from citecore.extract.latex_root import is_main_file

    path = tmp_path / "notes.tex"
    path.write_text("% \\documentclass{article} is what a main file starts with\nText.\n")
    assert not is_main_file(path)
    path.write_text("\\documentclass[12pt]{report}\n")
    assert is_main_file(path)


def test_pre_commit_online_asks_the_registries(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    online: RegistryEmulator,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / "refs.bib").write_text(
        "@book{k, title = {A Book Nobody Indexed}, author = {Doe, Jane}, year = 1999}\n"
    )
    no_hits(online, reference("@book{k, title = {A Book Nobody Indexed}, author = {Doe, Jane}}"))
    monkeypatch.chdir(tmp_path)
    assert main(["pre-commit", "refs.bib"]) == 0  # offline: nothing asked, nothing accused
    assert online.requests() == 0
    assert main(["pre-commit", "refs.bib", "--online"]) == 1
    assert "[not_found] k:" in capsys.readouterr().err


def test_what_the_hook_checks_for_the_files_a_commit_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from citecore.cli.precommit import _targets

    _project(tmp_path)
    for name in ("paper.md", "notes.qmd", "refs.bib", "README.txt", "data.csv"):
        (tmp_path / name).write_text("x\n")
    monkeypatch.chdir(tmp_path)
    changed = [Path(n) for n in ("chapters/one.tex", "thesis.tex", "paper.md", "notes.qmd",
                                 "refs.bib", "README.txt", "data.csv", "deleted.md")]  # fmt: skip
    # The chapter and its main file are one target; text files, data and deleted files none.
    assert _targets(changed) == [
        Path("thesis.tex"),
        Path("paper.md"),
        Path("notes.qmd"),
        Path("refs.bib"),
    ]


def test_the_developers_hooks_are_make_lint() -> None:
    # .pre-commit-config.yaml is for working on citecheck: the same three checks as `make lint`.
    config = REPO / ".pre-commit-config.yaml"
    validated = subprocess.run(
        ["pre-commit", "validate-config", str(config)], capture_output=True, text=True, check=False
    )
    assert validated.returncode == 0, validated.stdout + validated.stderr
    entries = re.findall(r"^\s+entry: (.+)$", config.read_text(), re.MULTILINE)
    lint = (REPO / "Makefile").read_text().split("\nlint:\n", 1)[1].split("\n\n", 1)[0]
    # pre-commit names the files itself where `make lint` says "." (every file).
    assert entries == [line.strip().removesuffix(" .") for line in lint.splitlines()]


def test_an_offline_commit_says_how_to_check_each_target_online(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "my refs.bib").write_text(
        "@article{a, title = {A Study}, author = {Doe, Jane}, year = {2020}}\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CITECHECK_CACHE", str(tmp_path / "cache.db"))  # nothing cached
    main(["pre-commit", "my refs.bib"])
    (offline,) = [line for line in capsys.readouterr().err.splitlines() if "offline:" in line]
    assert offline.endswith(
        "run `citecheck pre-commit --online 'my refs.bib'` (or give the hook `args: [--online]`)"
        " to check them"
    )
