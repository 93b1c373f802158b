"""The editor says what the build says (hypothesis): on generated Markdown documents and LaTeX
projects, the language server's analysis of the open text finds the same local problems —
kind, key and line — as `citecheck check` / `citecheck latex` on the saved files, offline."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.api import check_latex_file, check_markdown_file
from citecore.lsp.analysis import analyse_document
from citecore.model import CheckResult, FindingKind
from citecore.options import resolve_options
from tests.generated_latex import Project, project
from tests.generated_markdown import KEYS, document

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
# What only one side can know: pandoc's line mapping of a citation it could not place, LaTeX's
# own records, and the editor's reading of keys joined by a comma before pandoc has read them.
_ONE_SIDED = {FindingKind.UNMAPPED, FindingKind.NOT_IN_AUX, FindingKind.COMMA_SEPARATED_KEYS}


@pytest.fixture(autouse=True, scope="module")
def offline() -> Iterator[None]:
    before = os.environ.get("CITECHECK_OFFLINE")
    os.environ["CITECHECK_OFFLINE"] = "1"
    yield
    if before is None:
        os.environ.pop("CITECHECK_OFFLINE", None)
    else:
        os.environ["CITECHECK_OFFLINE"] = before


def _bib(keys: set[str]) -> str:
    return "".join(
        f"@book{{{key}, title = {{Book {n}}}, author = {{Doe, Jane}}, year = 2001}}\n"
        for n, key in enumerate(sorted(keys))
    )


def _problems(result: CheckResult) -> set[tuple[str, str | None, str, int | None]]:
    """(kind, key, file name, line) of the problems found in the documents."""
    return {
        (f.kind.value, f.key, Path(f.location.file).name, f.location.line)
        for f in result.findings
        if f.kind not in _ONE_SIDED and f.location and not f.location.file.endswith(".bib")
    }


@SETTINGS
@given(document(), st.sets(KEYS))
def test_markdown_the_editor_and_the_build_agree(text: str, known: set[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "refs.bib").write_text(_bib(known), encoding="utf-8")
        # The generated front matter, if any, has no bibliography: name it on the command line
        # for the build and in citecheck.toml for both.
        (root / "citecheck.toml").write_text('bibliography = ["refs.bib"]\nverify = false\n')
        paper = root / "paper.md"
        paper.write_text(text, encoding="utf-8")
        options = resolve_options({}, folder=root)
        build = check_markdown_file(paper, options).result
        editor = analyse_document(paper, text, {"verify": False}).result
    assert _problems(editor) == _problems(build), text


@SETTINGS
@given(project(), st.sets(KEYS))
def test_latex_the_editor_and_the_build_agree(generated: Project, known: set[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        main = generated.write(root)
        (root / "refs.bib").write_text(_bib(known), encoding="utf-8")
        options = resolve_options({"verify": False}, folder=root)
        build = _problems(check_latex_file(main, options))
        files = [main, *(root / name for name in generated.parts if name.endswith(".tex"))]
        editor = set().union(
            *(
                _problems(analyse_document(f, f.read_text("utf-8"), {"verify": False}, root).result)
                for f in dict.fromkeys(files)
            )
        )
    undefined = FindingKind.UNDEFINED.value
    assert {p for p in editor if p[0] == undefined} == {p for p in build if p[0] == undefined}
