"""Imports run one way, down the pipeline: a module never imports one above it (annotations
read only by the type checker excepted). docs/architecture.md draws the same layers."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import REPO

# Lower first. A module may import its own layer and the layers below it.
LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "citecore",
        "citecore.errors",
        "citecore.model",
        "citecore.normalize",
        "citecore.identifiers",
        "citecore.serialize",
        "citecore.cache",
        "citecore.options",
        "citecore.files",
        "citecore.logs",
        "citecore.lazy",
    ),
    (
        "citecore.extract",
        "citecore.bib",
        "citecore.pandoc.reader",
        "citecore.pandoc.metadata",
        "citecore.pandoc.front_matter",
        "citecore.pandoc.inputs",
    ),
    ("citecore.registries",),
    ("citecore.verify",),
    ("citecore.fetch",),
    ("citecore.ground",),
    (
        "citecore.findings",
        "citecore.policy",
        "citecore.pool.model",
        "citecore.pool.policy",
        "citecore.pool.build",
        "citecore.pool.corroborate",
        "citecore.pool.bibtex",
    ),
    ("citecore.report", "citecore.annotate"),
    ("citecore.api", "citecore.screen"),
    (
        "citecore.cli",
        "citecore.lsp",
        "citecore.filter",
    ),
)


def layer_of(module: str) -> int:
    """The layer of a module: that of the longest prefix named in LAYERS."""
    best, found = "", -1
    for index, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > len(best):
                best, found = name, index
    assert found >= 0, f"{module} is in no layer: add it to LAYERS"
    return found


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


def test_imports_run_down_the_pipeline() -> None:
    upward = []
    for path in sorted((REPO / "citecore").rglob("*.py")):
        module = ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        mine = layer_of(module)
        for line, imported in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            if layer_of(imported) > mine:
                upward.append(f"{path.relative_to(REPO)}:{line}: {module} imports {imported}")
    assert upward == []


def test_every_module_has_a_layer() -> None:
    for path in (REPO / "citecore").rglob("*.py"):
        layer_of(".".join(Path(path).relative_to(REPO).with_suffix("").parts))


# A module a reader can hold in mind: past this, it holds more than one job (split it by job).
MODULE_LINES = 400


def test_every_module_is_small_enough_to_read_whole() -> None:
    long = [
        f"{path.relative_to(REPO)}: {lines} lines"
        for path in sorted((REPO / "citecore").rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    ]
    assert long == []


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
