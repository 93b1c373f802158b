"""The README is tested: every shell command it shows runs as typed (in a folder holding the
files it names), except the few that need the network, GitHub or a cluster, each listed here
with the reason; its option table is the parser's; its other blocks are what they claim to be
(the editor set-ups run in tests/editors, the Action's inputs are the action's)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from citecore.model import FindingKind
from citecore.options import OPTION_NAMES
from tests.paths import CASES, REPO
from tests.pool.test_pool import POOL
from tests.readme_blocks import readme_blocks

# Commands the test does not run, and why (each must still be in the README as written).
NOT_RUN = {
    "make test": "CI runs it: it is the test command",
    "make demo": "runs `pip install -e .[dev]` first, which needs the package index: the test "
    "runs what it runs next, scripts/demo.sh",
    "python3 -m pip install": "installs into the environment: make install does (dev holds "
    "every extra)",
    "citecheck screen submissions/ -o screening/ --scheduler": "needs a running Dask scheduler "
    "at tcp://scheduler:8786",
    "citecheck screen submissions/ -o screening/ --workers 8": "the first screen command with "
    "8 worker processes: the same run, four times the processes on these 2 cores",
    "llama-server": "needs llama.cpp and a model file, which no package index here serves",
    "ollama pull": "needs Ollama and its model registry (network)",
    "citecheck check paper.md --ground --judge openai": "needs llama.cpp's or Ollama's server "
    "running: tests/ground/test_openai_judge.py drives the same judge against a loopback server "
    "speaking their API",
}
# What a command may exit with: 0 clean, 1 findings (the workspace has problems on purpose).
ACCEPTED = {0, 1}
# Files the README's commands name, made from the test cases.
_PAPER = """---
bibliography: refs.bib
---
# Introduction

Deep networks learn layered representations [@lecun2015deep]. Residual links make very deep
networks trainable [@he2016deep], and attention alone suffices for translation [@vaswani2017].
A claim rests on a key that does not exist [@ghost2020].
"""
_SOURCE = """# Attention Is All You Need

We trained on the WMT 2014 English-German dataset of about 4.5 million sentence pairs.
"""


def shell_commands() -> list[tuple[int, str]]:
    """Every command of the README's `sh` blocks (continued lines joined, comments dropped),
    with the README line its block starts on."""
    commands = []
    for block in readme_blocks():
        if block.language not in ("sh", "bash"):
            continue
        for line in block.text.replace("\\\n", " ").splitlines():
            command = line.split("  #")[0].strip()
            if command and not command.startswith("#"):
                commands.append((block.line, command))
    return commands


def _not_run(command: str) -> str:
    return next((why for prefix, why in NOT_RUN.items() if command.startswith(prefix)), "")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A writer's folder holding every file the README's commands name."""
    folder = tmp_path_factory.mktemp("readme")
    shutil.copytree(CASES / "latex-natbib", folder, dirs_exist_ok=True)
    (folder / "paper.md").write_text(_PAPER, encoding="utf-8")
    (folder / "vaswani2017.md").write_text(_SOURCE, encoding="utf-8")
    with (folder / "refs.bib").open("a", encoding="utf-8") as bib:
        bib.write(
            "\n@inproceedings{vaswani2017,\n  title = {Attention Is All You Need},\n"
            "  author = {Vaswani, Ashish and others},\n  year = {2017},\n"
            "  file = {vaswani2017.md}\n}\n"
        )
    (folder / "papers").mkdir()
    shutil.copy(folder / "vaswani2017.md", folder / "papers" / "vaswani2017.md")
    (folder / "citation_pool.json").write_text(json.dumps(POOL), encoding="utf-8")
    (folder / "candidates.json").write_text(
        json.dumps([{"title": "Attention Is All You Need", "discovered_for": ["intro"]}]),
        encoding="utf-8",
    )
    submissions = folder / "submissions"
    submissions.mkdir()
    shutil.copytree(CASES / "problems", submissions / "paper1")
    shutil.copy(CASES / "problems" / "refs.bib", submissions / "refs2.bib")
    (folder / "venue.tsv").write_text(
        f"paper1\t{submissions / 'paper1'}\nrefs2\t{submissions / 'refs2.bib'}\n", encoding="utf-8"
    )
    return folder


def _environment() -> dict[str, str]:
    from citecore.pandoc.reader import pandoc_path

    # This installation's citecheck first on PATH, and a pandoc (the README's plain pandoc
    # command is for a writer who has one).
    path = os.pathsep.join(
        [str(Path(sys.executable).parent), str(Path(pandoc_path()).parent), os.environ["PATH"]]
    )
    return {**os.environ, "PATH": path}


@pytest.mark.parametrize(
    "command", [pytest.param(c, id=f"README:{line}:{c[:60]}") for line, c in shell_commands()]
)
def test_every_readme_command_runs_as_typed(workspace: Path, command: str) -> None:
    why = _not_run(command)
    if why:
        pytest.skip(why)
    if command == "make demo":  # pragma: no cover - listed in NOT_RUN
        return
    run = command.replace("path/to/citecheck", str(REPO))  # the README says what it stands for
    cwd = REPO if run.startswith("python3 -c") else workspace
    completed = subprocess.run(
        run, shell=True, cwd=cwd, env=_environment(), capture_output=True, text=True,
        timeout=600, check=False,
    )  # fmt: skip
    output = completed.stdout[-3000:] + completed.stderr[-3000:]
    assert completed.returncode in ACCEPTED, f"{command!r} exited {completed.returncode}:\n{output}"
    assert "Traceback" not in output and "internal error" not in output, output


def test_the_demo_script_make_demo_runs() -> None:
    completed = subprocess.run(
        ["bash", "scripts/demo.sh"], cwd=REPO, env=_environment(), capture_output=True,
        text=True, timeout=900, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-3000:]
    lines = (completed.stdout + completed.stderr).splitlines()
    assert len(lines) < 80, "the demo should fit on a screen or two"
    assert (REPO / "build" / "tour" / "REVIEW-CITES.md").is_file()


def test_every_skipped_command_is_in_the_readme() -> None:
    commands = [c for _, c in shell_commands()]
    for prefix in NOT_RUN:
        assert any(c.startswith(prefix) for c in commands), f"NOT_RUN names {prefix!r}"


def test_the_options_table_is_the_parsers() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text.split("## Options")[1].split("\n## ")[0]
    named = {
        cell.strip("`").replace("-", "_")
        for row in table.splitlines()
        if row.startswith("| `")
        for cell in row.split("|")[1].strip().split(", ")
    }
    assert named == set(OPTION_NAMES)


def test_the_finding_kinds_table_is_the_models() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text.split("## Finding kinds")[1].split("\n## ")[0]
    named = {
        cell.strip().strip("`")
        for row in table.splitlines()
        if row.startswith("| `")
        for cell in row.split("|")[1].split(",")
    }
    assert named == {k.value for k in FindingKind}


def test_the_readmes_synopsis_names_only_flags_check_has() -> None:
    """The README's command-line synopsis and `citecheck check --help` agree."""
    completed = subprocess.run(
        [str(Path(sys.executable).parent / "citecheck"), "check", "--help"],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    synopsis = next(b for b in readme_blocks() if b.text.startswith("citecheck check paper.md ["))
    words = shlex.split(synopsis.text.replace("…", ""))
    flags = {w.strip("[],") for w in words if w.startswith("[-")}
    assert flags and all(f" {flag}" in completed.stdout for flag in flags)


def test_the_other_blocks_are_what_they_say() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    for block in readme_blocks():
        if block.language == "json":
            json.loads(block.text)
        elif block.language == "yaml":
            data = yaml.safe_load(block.text)
            if isinstance(data, dict) and "steps" in data:  # the Action's use
                step = next(s for s in data["steps"] if "with" in s)
                assert set(step["with"]) <= set(action["inputs"])
            if isinstance(data, dict) and "repos" in data:  # pre-commit's
                ids = {h["id"] for r in data["repos"] for h in r["hooks"]}
                assert ids <= {h["id"] for h in hooks}
        elif block.language == "python":  # run as a reader would, from the checkout, offline
            subprocess.run(
                [sys.executable, "-c", block.text],
                cwd=REPO,
                env={**os.environ, "CITECHECK_OFFLINE": "1"},
                check=True,
                capture_output=True,
            )
