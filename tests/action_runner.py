"""The composite Action's steps run as a GitHub runner runs them, for the tests.

Each step's `if:` is evaluated (the part of GitHub's expression language action.yml uses:
`inputs.*`, `steps.*.outputs.*`, string literals, `==`, `!=`, `&&`, `||`, `!`, parentheses,
`always()`, `success()`, `hashFiles()`), its `env:` filled in, and a `run:` step is run with
bash as the runner runs it (`bash -e`, `GITHUB_OUTPUT`, `GITHUB_ACTION_PATH`). A `uses:` step
cannot run here: it is recorded as would-run or skipped, with its `with:` filled in.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

_TOKEN = re.compile(
    r"\s*(?:(?P<string>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\)|,)"
    r"|(?P<name>[A-Za-z_][\w.-]*))"
)


@dataclass
class StepRun:
    """What became of one step: run (with its exit status and output) or skipped."""

    name: str
    ran: bool
    uses: str = ""
    returncode: int = 0
    output: str = ""
    with_values: dict[str, str] = field(default_factory=dict)


@dataclass
class ActionRun:
    """The steps of one run of the action, and whether the job failed."""

    steps: list[StepRun]
    outputs: dict[str, dict[str, str]]

    @property
    def failed(self) -> bool:
        return any(s.ran and s.returncode != 0 for s in self.steps)

    def step(self, name: str) -> StepRun:
        return next(s for s in self.steps if s.name == name)


class _Expression:
    """A recursive-descent reader of one `${{ … }}` expression."""

    def __init__(self, text: str, context: Mapping[str, Any], workspace: Path) -> None:
        self.tokens = [m for m in _TOKEN.finditer(text) if m.group().strip()]
        joined = "".join(m.group().strip() for m in self.tokens)
        if joined != re.sub(r"\s+", "", text):
            raise ValueError(f"expression not understood: {text!r}")
        self.at = 0
        self.context = context
        self.workspace = workspace

    def value(self) -> Any:
        result = self._or()
        if self.at != len(self.tokens):
            raise ValueError("trailing tokens")
        return result

    def _peek(self) -> str:
        return self.tokens[self.at].group().strip() if self.at < len(self.tokens) else ""

    def _take(self) -> str:
        token = self._peek()
        self.at += 1
        return token

    def _or(self) -> Any:
        left = self._and()
        while self._peek() == "||":
            self._take()
            right = self._and()
            left = left or right
        return left

    def _and(self) -> Any:
        left = self._compare()
        while self._peek() == "&&":
            self._take()
            right = self._compare()
            left = left and right
        return left

    def _compare(self) -> Any:
        left = self._unary()
        while self._peek() in ("==", "!="):
            op = self._take()
            right = self._unary()
            # GitHub compares strings case-insensitively.
            equal = str(left).lower() == str(right).lower()
            left = equal if op == "==" else not equal
        return left

    def _unary(self) -> Any:
        if self._peek() == "!":
            self._take()
            return not self._unary()
        if self._peek() == "(":
            self._take()
            inner = self._or()
            assert self._take() == ")"
            return inner
        token = self._take()
        if token.startswith("'"):
            return token[1:-1].replace("''", "'")
        if self._peek() == "(":
            self._take()
            arguments = []
            while self._peek() != ")":
                arguments.append(self._or())
                if self._peek() == ",":
                    self._take()
            self._take()
            return self._call(token, arguments)
        return self._lookup(token)

    def _call(self, name: str, arguments: list[Any]) -> Any:
        if name in ("always", "success"):
            return True
        if name == "hashFiles":
            files = [self.workspace / str(a) for a in arguments]
            found = [f for f in files if f.is_file()]
            digest = hashlib.sha256(b"".join(f.read_bytes() for f in found))
            return digest.hexdigest() if found else ""
        raise ValueError(f"function {name} not known to this runner")

    def _lookup(self, dotted: str) -> Any:
        value: Any = self.context
        for part in dotted.split("."):
            value = value.get(part, "") if isinstance(value, Mapping) else ""
        return value


def _substitute(text: str, context: Mapping[str, Any], workspace: Path) -> str:
    return re.sub(
        r"\$\{\{(.*?)\}\}",
        lambda m: str(_Expression(m.group(1), context, workspace).value()),
        text,
    )


def _condition(step: Mapping[str, Any], context: Mapping[str, Any], workspace: Path) -> bool:
    condition = str(step.get("if", "success()")).strip()
    if condition.startswith("${{") and condition.endswith("}}"):
        condition = condition[3:-2]
    return bool(_Expression(condition, context, workspace).value())


def run_action(
    action_file: Path,
    inputs: Mapping[str, str],
    workspace: Path,
    *,
    skip_run: frozenset[str] = frozenset(),
    environ: Mapping[str, str] | None = None,
) -> ActionRun:
    """Run the action's steps in `workspace` with `inputs` (the declared defaults fill the
    rest). Steps named in `skip_run` (an install that needs the package index) are treated as
    succeeding without running. Like a runner, steps after a failed one are skipped unless
    their condition says `always()`."""
    action = yaml.safe_load(action_file.read_text(encoding="utf-8"))
    values = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    values.update(inputs)
    outputs: dict[str, dict[str, str]] = {}
    context: dict[str, Any] = {"inputs": values, "steps": {}}
    runs: list[StepRun] = []
    failed = False
    for index, step in enumerate(action["runs"]["steps"]):
        name = str(step.get("name", step.get("uses", index)))
        wanted = _condition(step, context, workspace)
        if failed and "always()" not in str(step.get("if", "")):
            wanted = False
        if not wanted:
            runs.append(StepRun(name, ran=False, uses=str(step.get("uses", ""))))
            continue
        if "uses" in step:
            with_values = {
                k: _substitute(str(v), context, workspace) for k, v in step.get("with", {}).items()
            }
            runs.append(StepRun(name, True, str(step["uses"]), with_values=with_values))
            continue
        if name in skip_run:
            runs.append(StepRun(name, True))
            continue
        output_file = workspace / f".github-output-{index}"
        output_file.write_text("")
        env = {k: _substitute(str(v), context, workspace) for k, v in step.get("env", {}).items()}
        completed = subprocess.run(
            ["bash", "-e", "-c", _substitute(step["run"], context, workspace)],
            cwd=workspace,
            env={
                **(os.environ if environ is None else environ),
                **env,
                "GITHUB_OUTPUT": str(output_file),
                "GITHUB_ACTION_PATH": str(action_file.parent),
                "GITHUB_WORKSPACE": str(workspace),
            },
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        step_outputs = dict(
            line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line
        )
        if "id" in step:
            outputs[step["id"]] = step_outputs
            context["steps"][step["id"]] = {"outputs": step_outputs}
        output = completed.stdout + completed.stderr
        runs.append(StepRun(name, True, returncode=completed.returncode, output=output))
        failed = failed or completed.returncode != 0
    return ActionRun(runs, outputs)


def declared_values(action_file: Path) -> dict[str, Any]:
    """The action's inputs as declared (name → spec)."""
    inputs: dict[str, Any] = yaml.safe_load(action_file.read_text(encoding="utf-8"))["inputs"]
    return inputs
