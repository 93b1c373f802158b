"""Imports run one way, down the pipeline: a module never imports one above it (annotations
read only by the type checker excepted). docs/architecture.md draws the same layers."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from radon.complexity import cc_visit  # type: ignore[import-untyped]

from tests.paths import REPO

# Lower first. A module may import its own layer and the layers below it. "citecore.x.*" is the
# folder citecore/x and every module in it; any other name is that one module. A module named
# nowhere fails the test: a new room is placed on purpose, never by default.
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "citecore.version",
        "citecore.startup",
        "citecore.errors",
        "citecore.model.*",
        "citecore.normalize",
        "citecore.identifiers",
        "citecore.serialize",
        "citecore.cache",
        "citecore.options.*",
        "citecore.files",
        "citecore.pdf_errors",
        "citecore.logs",
        "citecore.lazy",
        "citecore.http_clients",
    ),
    ("citecore.pandoc.*",),
    ("citecore.extract.*", "citecore.bib.*"),
    ("citecore.registries.*",),
    ("citecore.verify.*",),
    ("citecore.fetch.*",),
    ("citecore.ground.*",),
    ("citecore.findings", "citecore.policy", "citecore.pool.*"),
    ("citecore.report.*",),
    ("citecore.annotate.*",),
    ("citecore.api.*", "citecore.screen.*"),
    ("citecore.cli.*", "citecore.lsp.*", "citecore.filter.*"),
    ("citecore",),  # the package's public face: the API, loaded on first use
)


def _names(entry: str, module: str) -> bool:
    if entry.endswith(".*"):
        folder = entry.removesuffix(".*")
        return module == folder or module.startswith(folder + ".")
    return module == entry


def layer_of(module: str) -> int:
    """The layer of a citecore module; AssertionError for a module LAYERS does not place."""
    found = [index for index, entries in enumerate(LAYERS) for e in entries if _names(e, module)]
    assert len(found) == 1, f"{module} is in {len(found)} layers: place it in LAYERS once"
    return found[0]


def _runtime_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of every citecore import outside `if TYPE_CHECKING:` blocks."""
    checking = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in ast.walk(block)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("citecore"):
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("citecore")]
    return found


def _modules() -> list[tuple[Path, str]]:
    """(path, module name) of every module of the package."""
    return [
        (path, ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"))
        for path in sorted((REPO / "citecore").rglob("*.py"))
    ]


def _imports() -> list[tuple[str, int, str, str]]:
    """(file, line, module, imported module) of every runtime citecore import."""
    return [
        (str(path.relative_to(REPO)), line, module, imported)
        for path, module in _modules()
        for line, imported in _runtime_imports(ast.parse(path.read_text(encoding="utf-8")))
    ]


def test_imports_run_down_the_pipeline() -> None:
    upward = [
        f"{file}:{line}: {module} imports {imported}"
        for file, line, module, imported in _imports()
        if layer_of(imported) > layer_of(module)
    ]
    assert upward == []


def test_every_module_has_a_layer() -> None:
    for _, module in _modules():
        layer_of(module)


def test_a_module_the_layers_do_not_place_fails() -> None:
    with pytest.raises(AssertionError, match="in 0 layers"):
        layer_of("citecore.no_such.thing")
    with pytest.raises(AssertionError, match="in 0 layers"):
        layer_of("citecore.no_such_module")


def _folder(module: str) -> str:
    """The room of a module: its folder under citecore/, or the module itself at the top."""
    return ".".join(module.split(".")[:2])


def test_no_two_folders_import_each_other() -> None:
    """No folder cycles, however long: a room that needs another and is needed by it is one
    room, or a third is missing."""
    needs: dict[str, set[str]] = {}
    for _, _, module, imported in _imports():
        if _folder(module) != _folder(imported):
            needs.setdefault(_folder(module), set()).add(_folder(imported))

    def reached(start: str) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for folder in needs.get(todo.pop(), ()):
                if folder not in seen:
                    seen.add(folder)
                    todo.append(folder)
        return seen

    cycles = sorted(folder for folder in needs if folder in reached(folder))
    assert cycles == []


# A module a reader can hold in mind: past this, it holds more than one job (split it by job).
MODULE_LINES = 400


def test_every_module_is_small_enough_to_read_whole() -> None:
    long = [
        f"{path.relative_to(REPO)}: {lines} lines"
        for path in sorted((REPO / "citecore").rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    ]
    assert long == []


# A function a reader can follow: past this many paths through it (McCabe, as radon counts
# them: radon's rank D and worse), it does several jobs (split it by job).
FUNCTION_COMPLEXITY = 20


def test_every_function_does_one_job() -> None:
    def with_closures(blocks: list[Any]) -> list[Any]:
        # radon lists methods as functions of their own, a function's closures inside it
        # (a class has none).
        return [
            b for block in blocks for b in (block, *with_closures(getattr(block, "closures", [])))
        ]

    tangled = [
        f"{path.relative_to(REPO)}: {block.fullname} ({block.complexity})"
        for path in sorted((REPO / "citecore").rglob("*.py"))
        for block in with_closures(cc_visit(path.read_text(encoding="utf-8")))
        if block.complexity > FUNCTION_COMPLEXITY
    ]
    assert tangled == []


def _lines(folders: list[Path]) -> int:
    return sum(
        len(path.read_text(encoding="utf-8").splitlines())
        for folder in folders
        for path in folder.rglob("*.py")
    )


def test_the_tests_are_never_thinner_than_the_code() -> None:
    """Test lines at least source lines (citecore, filters, latexmk): a change that adds code
    adds the tests that say what it promises."""
    source = _lines([REPO / "citecore", REPO / "filters", REPO / "latexmk"])
    tests = _lines([REPO / "tests"])
    assert tests >= source, f"{tests} test lines for {source} source lines"
