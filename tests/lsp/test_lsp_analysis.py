"""The editor's analysis of text being typed: half-written front matter, bibliographies named
as a string or a list, the document's own `citecheck:` options, a bibliography not found yet,
comma-joined keys — each read as the build would read the saved file, none of it fatal."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.lsp.analysis import analyse_document, semicolon_separated
from citecore.model import FindingKind

BIB = "@book{known, title = {A Book}, author = {Doe, Jane}, year = 2001}\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "more.bib").write_text(
        "@book{other, title = {Another Book}, author = {Roe, Rita}, year = 2002}\n"
    )
    return tmp_path


def _kinds(folder: Path, text: str) -> list[tuple[str, str | None]]:
    analysis = analyse_document(folder / "paper.md", text, {"verify": False})
    return [(f.kind.value, f.key) for f in analysis.result.findings]


@pytest.mark.parametrize(
    "front",
    [
        "bibliography: refs.bib",
        "bibliography: [refs.bib, more.bib]",
        "bibliography:\n  - refs.bib\n  - more.bib",
    ],
)
def test_bibliographies_named_as_the_writer_names_them(folder: Path, front: str) -> None:
    text = f"---\n{front}\n---\n\nA claim [@known] and [@ghost].\n"
    assert [k for k in _kinds(folder, text) if k[0] == "undefined"] == [("undefined", "ghost")]


def test_half_typed_front_matter_is_read_as_none_until_it_parses(folder: Path) -> None:
    analysis = analyse_document(
        folder / "paper.md", "---\nbibliography: [refs.bib\n---\n[@known]\n", {"verify": False}
    )
    assert [f.key for f in analysis.result.findings if f.kind is FindingKind.UNDEFINED] == ["known"]
    assert analysis.problems == []


def test_a_bibliography_not_found_is_said_and_the_rest_checked(folder: Path) -> None:
    analysis = analyse_document(
        folder / "paper.md",
        "---\nbibliography: missing.bib\n---\nA claim [@a,@b].\n",
        {"verify": False},
    )
    assert len(analysis.problems) == 1 and "missing.bib" in analysis.problems[0]
    assert FindingKind.COMMA_SEPARATED_KEYS in {f.kind for f in analysis.result.findings}


def test_the_editor_reads_the_projects_bibliographies_as_a_build_does(folder: Path) -> None:
    (folder / "_quarto.yml").write_text("project:\n  type: book\nbibliography: refs.bib\n")
    (folder / "ch").mkdir()
    chapter = folder / "ch" / "one.qmd"
    text = '---\ndate: "`r Sys.Date()`"\nbibliography: ../more.bib\n---\n\n[@known; @other; @x]\n'
    analysis = analyse_document(chapter, text, {"verify": False})
    undefined = [f.key for f in analysis.result.findings if f.kind is FindingKind.UNDEFINED]
    assert undefined == ["x"] and analysis.problems == []


def test_an_editors_missing_bibliography_leaves_the_others_read(folder: Path) -> None:
    text = "---\nbibliography: [/home/author/gone.bib, refs.bib]\n---\n\n[@known; @x]\n"
    analysis = analyse_document(folder / "paper.md", text, {"verify": False})
    undefined = [f.key for f in analysis.result.findings if f.kind is FindingKind.UNDEFINED]
    assert undefined == ["x"]
    assert len(analysis.problems) == 1 and "gone.bib" in analysis.problems[0]


def test_the_documents_own_options_apply(folder: Path) -> None:
    text = (
        "---\nbibliography: refs.bib\ncitecheck:\n  cutoff: 2000-01-01\n---\n\nA claim [@known].\n"
    )
    assert ("cutoff", "known") in _kinds(folder, text)


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ("[@a,@b]", "[@a; @b]"),
        ("[see @a , @b, p. 3]", "[see @a; @b, p. 3]"),
        ("[@a, -@b]", "[@a; -@b]"),
        ("[@a; @b]", "[@a; @b]"),
        ("[@a, p. 3]", "[@a, p. 3]"),
        ("@a,@b", "@a,@b"),  # no brackets: two citations already
    ],
)
def test_semicolons_where_a_comma_joins_keys(written: str, fixed: str) -> None:
    assert semicolon_separated(written) == fixed


@pytest.mark.parametrize("start", ["---\r\n", "\ufeff---\n"], ids=["windows-line-ends", "bom"])
def test_a_front_matter_from_windows_is_read(folder: Path, start: str) -> None:
    end = "\r\n" if "\r" in start else "\n"
    text = end.join([start.rstrip("\r\n"), "bibliography: refs.bib", "---", "", "[@known]", ""])
    assert _kinds(folder, text) == []


def test_the_editor_reads_the_projects_nocite_and_cross_reference_kinds(folder: Path) -> None:
    (folder / "_quarto.yml").write_text(
        "project:\n  type: book\nbibliography: refs.bib\nnocite: '@other @gone'\n"
        "crossref:\n  custom:\n    - kind: float\n      key: dino\n"
    )
    (folder / "refs.bib").write_text(BIB + (folder / "more.bib").read_text())
    analysis = analyse_document(folder / "ch.qmd", "[@known] and @dino-trex.\n", {"verify": False})
    kinds = sorted((f.kind.value, f.key) for f in analysis.result.findings)
    assert kinds == [("nocite_not_found", "gone")]
