"""The composite GitHub Action (action.yml): its expressions name declared inputs and step
outputs, the steps GitHub needs are there, and its check step — run here with bash as the
runner runs it — writes valid SARIF and reports citecheck's exit status as its output."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.paths import CASES, REPO
from tests.report.test_sarif import _errors

ACTION: dict[str, Any] = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))


def test_every_expression_names_a_declared_input_or_step() -> None:
    text = (REPO / "action.yml").read_text(encoding="utf-8")
    inputs = set(re.findall(r"inputs\.([\w-]+)", text))
    assert inputs <= set(ACTION["inputs"])
    steps = {s.get("id") for s in ACTION["runs"]["steps"]}
    assert set(re.findall(r"steps\.([\w-]+)\.outputs", text)) <= steps


def test_a_composite_action_that_uploads_sarif_and_fails_last() -> None:
    runs = ACTION["runs"]
    assert runs["using"] == "composite"
    uses = [s.get("uses", "") for s in runs["steps"]]
    assert any(u.startswith("github/codeql-action/upload-sarif@") for u in uses)
    assert all("shell" in s for s in runs["steps"] if "run" in s)  # composite steps need one
    assert ACTION["inputs"]["document"]["required"] is True
    assert "exit" in runs["steps"][-1]["run"]


def _check_step() -> dict[str, Any]:
    step: dict[str, Any] = next(s for s in ACTION["runs"]["steps"] if s.get("id") == "citecheck")
    return step


@pytest.mark.parametrize(("fail_on", "expected"), [("errors", "1"), ("future_year", "0")])
def test_the_check_step_writes_sarif_and_its_exit_status(
    tmp_path: Path, fail_on: str, expected: str
) -> None:
    shutil.copytree(CASES / "problems", tmp_path / "docs")
    step = _check_step()
    values = {"command": "check", "document": "docs/paper.md", "fail-on": fail_on,
              "online": "false", "sarif-file": "citecheck.sarif"}  # fmt: skip
    environment = {
        name: re.sub(r"\$\{\{ inputs\.([\w-]+) \}\}", lambda m: values[m.group(1)], value)
        for name, value in step["env"].items()
    }
    output = tmp_path / "github-output"
    completed = subprocess.run(
        ["bash", "-e", "-c", step["run"]],
        cwd=tmp_path,
        env={**os.environ, **environment, "GITHUB_OUTPUT": str(output)},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr  # the step itself never fails
    assert output.read_text() == f"exit-code={expected}\n"
    log = json.loads((tmp_path / "citecheck.sarif").read_text(encoding="utf-8"))
    assert _errors(log) == []
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    }
    assert "docs/paper.md" in uris  # relative to the workspace, as code scanning resolves it
