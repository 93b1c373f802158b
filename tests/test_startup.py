"""Start-up time, held to what `citecore.startup` writes down: each way in loads nothing its
budget names, and every import left inside a function says, with a `# start-up:` comment, why
it is there."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest

from citecore.startup import CHECK_ONLY, IMPORT_BUDGET
from tests.paths import REPO


def _loaded_by(entry: str) -> list[str]:
    code = f"import importlib, json, sys; importlib.import_module({entry!r}); "
    code += "print(json.dumps(sorted(sys.modules)))"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    return list(json.loads(run.stdout))


@pytest.mark.parametrize("entry", sorted(IMPORT_BUDGET))
def test_a_way_in_loads_nothing_its_budget_names(entry: str) -> None:
    forbidden = IMPORT_BUDGET[entry]
    loaded = [
        module
        for module in _loaded_by(entry)
        if any(module == name or module.startswith(name + ".") for name in forbidden)
    ]
    assert loaded == []


def test_the_build_server_warms_up_what_a_replay_leaves_out() -> None:
    code = "import sys; from citecore.filter.server import warm_up; warm_up(); "
    code += "print(sorted(sys.modules))"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert all(f"'{module}'" in run.stdout for module in CHECK_ONLY)
    for entry in ("citecore.filter.process", "citecore.cli.app"):
        assert set(CHECK_ONLY) <= set(IMPORT_BUDGET[entry])


def _imports_inside_functions() -> list[tuple[str, int, bool]]:
    """(file, line, whether a `# start-up:` comment gives its reason) of every import made
    inside a function: on its line, or on the comment lines just above its block of imports."""
    found = []
    for path in sorted((REPO / "citecore").rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for function in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Import | ast.ImportFrom):
                    found.append(
                        (str(path.relative_to(REPO)), node.lineno, _reasoned(lines, node.lineno))
                    )
    return found


def _reasoned(lines: list[str], number: int) -> bool:
    """Whether line `number` (1-based), or a comment above the imports it stands among (blank
    lines between their groups), holds a `# start-up:` reason."""
    index = number - 1
    while index >= 0:
        text = lines[index].strip()
        if "# start-up:" in text:
            return True
        among_imports = not text or text.startswith(("import ", "from ", ")", "#"))
        if index < number - 1 and not (among_imports or text.endswith(",")):
            return False
        index -= 1
    return False


def test_every_import_inside_a_function_says_why() -> None:
    unreasoned = [
        f"{file}:{line}" for file, line, reasoned in _imports_inside_functions() if not reasoned
    ]
    assert unreasoned == []
