"""Inside `quarto render` the filter sees the metadata Quarto has merged (the project's, the
folders', the profile's and the document's); `citecheck check` assembles the same metadata itself.
Both must decide the same: the same bibliographies read, the same keys undefined. Quarto's render
is stood in for by what it hands pandoc (its merged bibliographies, as the oracle reads Quarto's
rules, on pandoc's command line) with citecheck's Quarto extension as the filter: Quarto itself
cannot be installed here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.cli import main
from tests.conftest import run_pandoc
from tests.paths import REPO
from tests.toolchain_oracle import _front_matter, quarto_bibliographies

_ENTRY = "@misc{{{key}, title = {{A work called {key}}}, year = 2020}}\n"
_PROJECTS = {
    "book": {
        "_quarto.yml": "project:\n  type: book\nbook:\n  chapters: [index.qmd, ch/one.qmd]\n"
        "bibliography: references.bib\n",
        "references.bib": _ENTRY.format(key="knuth84"),
        "ch/_metadata.yml": "bibliography: [chapters.bib]\n",
        "ch/chapters.bib": _ENTRY.format(key="lamport94"),
        "ch/one.qmd": '---\ntitle: One\ndate: "`r Sys.Date()`"\n---\n\n'
        "Typesetting [@knuth84], documents [@lamport94], nothing [@ghost].\n",
    },
    "profile": {
        "_quarto.yml": "project:\n  type: default\nprofile:\n  default: journal\n",
        "_quarto-journal.yml": "bibliography: journal.bib\n",
        "journal.bib": _ENTRY.format(key="a"),
        "own.bib": _ENTRY.format(key="b"),
        "paper.qmd": "---\nbibliography: own.bib\nformat: html\n---\n\n[@a; @b; @c]\n",
    },
}


def _report(path: Path) -> tuple[set[str], set[str]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    undefined = {f["key"] for f in data["findings"] if f["kind"] == "undefined"}
    return undefined, {Path(b).resolve().name for b in data["inputs"]["bibliographies"]}


@pytest.mark.parametrize(
    ("project", "document"), [("book", "ch/one.qmd"), ("profile", "paper.qmd")]
)
def test_the_filter_inside_quarto_and_check_decide_alike(
    project: str, document: str, tmp_path: Path
) -> None:
    for name, text in _PROJECTS[project].items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    source = tmp_path / document
    merged = quarto_bibliographies(source, _front_matter(source.read_text()), tmp_path)
    assert merged  # the project names bibliographies: Quarto hands them all to pandoc
    filtered = tmp_path / "filter.json"
    run_pandoc(
        source.name,
        "-f",
        "markdown",
        *[a for name in merged for a in ("--bibliography", name)],
        "-L",
        str(REPO / "_extensions" / "citecheck" / "citecheck.lua"),
        "-M",
        f"citecheck.report={filtered}",
        "-M",
        "citecheck.verify=false",
        "-t",
        "html",
        "-o",
        "out.html",
        cwd=source.parent,
    )
    checked = tmp_path / "check.json"
    main(["check", str(source), "--no-verify", "-o", str(checked)])
    assert _report(filtered) == _report(checked)
    assert _report(checked)[0] == ({"ghost"} if project == "book" else {"c"})
