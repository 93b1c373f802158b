"""The composite GitHub Action (action.yml): its expressions name declared inputs and step
outputs, the steps GitHub needs are there, and its check step — run here with bash as the
runner runs it — writes valid SARIF and reports citecheck's exit status as its output."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from citecore.model import Source
from citecore.registries.settings import base_url_variable
from tests.action_runner import ActionRun, run_action
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


def test_no_variable_the_action_sets_is_one_citecheck_reads() -> None:
    """citecheck reads every CITECHECK_<OPTION>; a variable of the action's own of that form
    would be read as an option (CITECHECK_FAIL_ON=none once failed every job)."""
    for step in ACTION["runs"]["steps"]:
        for name in step.get("env", {}):
            assert not name.startswith("CITECHECK_"), name


_REFUSED = {base_url_variable(source): "http://127.0.0.1:1" for source in Source}
_CASES = {"check": ("problems", "docs/paper.md"), "latex": ("latex-natbib", "docs/main.tex")}


def _run(tmp_path: Path, inputs: dict[str, str], online: bool = False) -> ActionRun:
    command = inputs.get("command", "check")
    case, document = _CASES.get(command, _CASES["check"])
    shutil.copytree(CASES / case, tmp_path / "docs")
    environ = dict(os.environ)
    if online:  # asked of the registries: here, loopback addresses that refuse
        environ.pop("CITECHECK_OFFLINE", None)
        environ.update(_REFUSED)
    return run_action(
        REPO / "action.yml",
        {"document": document, **inputs},
        tmp_path,
        skip_run=frozenset({"Install citecheck"}),  # installed already; the index is not here
        environ=environ,
    )


# Every value the action documents for each input, with what the job must then do.
@pytest.mark.parametrize(
    ("inputs", "exit_code", "job_fails"),
    [
        ({}, "1", True),  # the defaults: check, fail-on errors, online
        ({"fail-on": "errors", "online": "false"}, "1", True),
        ({"fail-on": "none", "online": "false"}, "1", False),
        ({"fail-on": "future_year", "online": "false"}, "0", False),
        ({"fail-on": "not_found,retracted", "online": "false"}, "0", False),
        ({"fail-on": "undefined", "online": "false", "upload-sarif": "false"}, "1", True),
        ({"command": "latex", "fail-on": "none", "online": "false"}, "1", False),
        ({"command": "latex", "fail-on": "errors", "online": "false"}, "1", True),
        ({"sarif-file": "out/cites.sarif", "online": "false"}, "1", True),
    ],
)
def test_the_actions_steps_for_every_documented_value(
    tmp_path: Path, inputs: dict[str, str], exit_code: str, job_fails: bool
) -> None:
    (tmp_path / "out").mkdir()
    run = _run(tmp_path, inputs, online=inputs.get("online", "true") == "true")
    check = run.step("Check citations")
    assert check.returncode == 0, check.output  # the check step itself never fails
    assert run.outputs["citecheck"]["exit-code"] == exit_code, check.output
    assert run.failed is job_fails
    assert run.step("Fail per fail-on").ran is job_fails
    sarif_file = inputs.get("sarif-file", "citecheck.sarif")
    log = json.loads((tmp_path / sarif_file).read_text(encoding="utf-8"))
    assert _errors(log) == []
    upload = run.step("Upload SARIF to code scanning")
    assert upload.ran is (inputs.get("upload-sarif", "true") == "true")
    if upload.ran:
        assert upload.with_values["sarif_file"] == sarif_file
    if inputs.get("command", "check") == "check":
        uris = {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in log["runs"][0]["results"]
        }
        assert "docs/paper.md" in uris  # relative to the workspace, as code scanning reads it


@pytest.mark.parametrize("inputs", [{"command": "verify"}, {"online": "maybe"}])
def test_an_input_value_the_action_does_not_know_fails_the_step(
    tmp_path: Path, inputs: dict[str, str]
) -> None:
    run = _run(tmp_path, inputs)
    check = run.step("Check citations")
    assert check.returncode == 2
    assert "::error::input" in check.output
    assert run.failed
