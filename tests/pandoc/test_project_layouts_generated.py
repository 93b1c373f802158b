"""Quarto project layouts, generated (hypothesis): a project file naming bibliographies as a
string or a list, at the top or in a format's block, relative to the project or absolute; folder
metadata at any depth; profiles chosen by `profile: default:`; the document's own front matter
(RStudio's inline date among it) — held to pandoc's citeproc given the bibliographies Quarto
would hand it (the oracle's own reading of Quarto's rules, tests/toolchain_oracle.py): the keys
`check` calls undefined are those citeproc does not find."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.cli import main
from tests.knitr_oracle import have_knitr
from tests.toolchain_oracle import Layout, oracle

pytestmark = pytest.mark.skipif(not have_knitr(), reason="needs R's knitr (make test installs it)")

# Each bibliography defines one key of its own name: which were read shows in what is undefined.
BIBS = ("proj", "prof", "meta", "deep", "own", "fmt")


@st.composite
def bibliography_field(draw: st.DrawFn, name: str, root: Path, folder: Path) -> str:
    """`bibliography:` naming `name.bib` (which lies in `root`) in one of its forms, absolute or
    relative to `folder` (the folder of the file that names it)."""
    path = root / f"{name}.bib"
    written = str(path) if draw(st.booleans()) else os.path.relpath(path, folder)
    if draw(st.booleans()):
        return f"bibliography: {written}\n"
    return f"bibliography:\n  - {written}\n"


@st.composite
def layout(draw: st.DrawFn, root: Path) -> tuple[dict[Path, str], Path]:
    """The files of one project (path → text) and its document."""
    depth = draw(st.integers(0, 2))
    folders = [root / Path(*["d"] * i) for i in range(depth + 1)]
    document = folders[-1] / "doc.qmd"
    files: dict[Path, str] = {}
    for name in BIBS:
        files[root / f"{name}.bib"] = f"@misc{{{name}, title = {{{name}}}, year = 2020}}\n"
    project = "project:\n  type: default\n"
    if draw(st.booleans()):
        project += draw(bibliography_field("proj", root, root))
    if draw(st.booleans()):
        project += "format:\n  html:\n    " + draw(bibliography_field("fmt", root, root)).replace(
            "\n  -", "\n      -"
        )
    if draw(st.booleans()):
        project += "profile:\n  default: extra\n"
        files[root / "_quarto-extra.yml"] = draw(bibliography_field("prof", root, root))
    files[root / "_quarto.yml"] = project
    for index, folder in enumerate(folders):
        if draw(st.booleans()):
            own = "meta" if index < depth else "deep"
            files[folder / "_metadata.yml"] = draw(bibliography_field(own, root, folder))
    front = '---\ntitle: "Doc"\ndate: "`r Sys.Date()`"\n'
    if draw(st.booleans()):
        front += draw(bibliography_field("own", root, document.parent))
    files[document] = front + "---\n\nText [" + "; ".join(f"@{b}" for b in BIBS) + "; @ghost].\n"
    return files, document


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_a_quarto_projects_bibliographies_are_those_quarto_hands_pandoc(
    data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("project")
    files, document = data.draw(layout(root))
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    expected = oracle(Layout("generated", document, document.parent, by_quarto=True), root)
    assert expected.failure is None, expected.failure
    out = root / "report.json"
    main(["check", str(document), "--no-verify", "-o", str(out)])
    findings = json.loads(out.read_text(encoding="utf-8"))["findings"]
    assert {f["key"] for f in findings if f["kind"] == "undefined"} == expected.undefined
    assert "ghost" in expected.undefined
