"""The metadata a document's toolchain adds to its own front matter (citecore.pandoc.project):
Quarto's project file, profiles, included files and folder metadata; R Markdown's output
options; bookdown's first file — and `citecheck check` reading the bibliographies they name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.pandoc.metadata_layers import (
    BibliographyRule,
    NamedFile,
    ToolchainMetadata,
    quarto_merge,
)
from citecore.pandoc.project import toolchain_metadata
from citecore.pandoc.quarto_project import quarto_project

_ENTRY = "@misc{{{key}, title = {{A work called {key}}}, year = 2020}}\n"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def _bib(*keys: str) -> str:
    return "".join(_ENTRY.format(key=k) for k in keys)


def _undefined(document: Path, *extra: str) -> set[str]:
    out = document.parent / "report.json"
    main(["check", str(document), "--no-verify", "-o", str(out), *extra])
    findings = json.loads(out.read_text(encoding="utf-8"))["findings"]
    return {f["key"] for f in findings if f["kind"] == "undefined"}


def test_quarto_merge_joins_lists_and_merges_maps_as_quarto_does() -> None:
    assert quarto_merge({"bibliography": "a.bib"}, {"bibliography": ["b.bib"]}) == {
        "bibliography": ["a.bib", "b.bib"]
    }
    assert quarto_merge(["a", "b"], ["b", "c"]) == ["a", "b", "c"]
    assert quarto_merge({"x": {"y": 1, "z": 2}}, {"x": {"y": 3}}) == {"x": {"y": 3, "z": 2}}
    assert quarto_merge("old", "new") == "new"
    assert quarto_merge("kept", None) == "kept"


def test_a_book_chapter_reads_the_projects_bibliography(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "_quarto.yml": "project:\n  type: book\nbibliography: references.bib\n",
            "references.bib": _bib("knuth84"),
            "chapters/intro.qmd": "# Intro\n\nSee @knuth84 and @ghost.\n",
        },
    )
    chapter = tmp_path / "chapters" / "intro.qmd"
    assert quarto_project(chapter) == tmp_path
    metadata = toolchain_metadata(chapter, {})
    assert metadata.rule is BibliographyRule.JOINED
    assert metadata.bibliographies == (
        NamedFile("references.bib", tmp_path, str(tmp_path / "_quarto.yml")),
    )
    assert _undefined(chapter) == {"ghost"}


def test_folder_metadata_and_the_documents_own_are_joined(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "_quarto.yml": "project:\n  type: website\nbibliography: site.bib\n",
            "site.bib": _bib("a"),
            "posts/_metadata.yml": "bibliography: posts.bib\n",
            "posts/posts.bib": _bib("b"),
            "posts/p1/own.bib": _bib("c"),
            "posts/p1/index.qmd": "---\nbibliography: own.bib\n---\n\n[@a; @b; @c; @d]\n",
        },
    )
    post = tmp_path / "posts" / "p1" / "index.qmd"
    assert _undefined(post) == {"d"}


def test_profiles_and_included_files_are_merged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(
        tmp_path,
        {
            "_quarto.yml": "project:\n  type: default\nprofile:\n  default: draft\n"
            "metadata-files: [shared.yml]\n",
            # A list joins the profile's name; two strings would keep the later (mergeConfigs).
            "shared.yml": "bibliography: [shared.bib]\n",
            "_quarto-draft.yml": "bibliography: draft.bib\n",
            "_quarto-final.yml": "bibliography: final.bib\n",
            "shared.bib": _bib("s"),
            "draft.bib": _bib("d"),
            "final.bib": _bib("f"),
            "paper.qmd": "Text [@s; @d; @f].\n",
        },
    )
    monkeypatch.delenv("QUARTO_PROFILE", raising=False)
    assert _undefined(tmp_path / "paper.qmd") == {"f"}
    monkeypatch.setenv("QUARTO_PROFILE", "final")
    assert _undefined(tmp_path / "paper.qmd") == {"d"}


def test_the_first_formats_block_adds_its_bibliography(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "_quarto.yml": "project:\n  type: manuscript\n"
            "format:\n  pdf:\n    bibliography: print.bib\n  html: default\n",
            "print.bib": _bib("p"),
            "paper.qmd": "Text [@p].\n",
        },
    )
    assert _undefined(tmp_path / "paper.qmd") == set()


def test_a_name_not_beside_its_layer_is_the_documents(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "_quarto.yml": "project:\n  type: default\nbibliography: refs.bib\n",
            "sub/refs.bib": _bib("a"),
            "sub/doc.qmd": "Text [@a].\n",
        },
    )
    assert _undefined(tmp_path / "sub" / "doc.qmd") == set()


def test_a_broken_project_file_is_one_line_and_the_document_is_still_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(
        tmp_path,
        {
            "_quarto.yml": "project:\n  type: book\nbibliography: [unclosed\n",
            "doc.qmd": "---\nbibliography: own.bib\n---\n\nText [@a; @b].\n",
            "own.bib": _bib("a"),
        },
    )
    assert _undefined(tmp_path / "doc.qmd") == {"b"}
    said = capsys.readouterr().err
    assert f"{tmp_path / '_quarto.yml'}:" in said and "not read as YAML" in said


def test_r_markdowns_pandoc_args_replace_the_documents_bibliography(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "paper.Rmd": "---\noutput:\n  html_document:\n    pandoc_args: "
            '["--bibliography=args.bib"]\n  pdf_document: default\nbibliography: own.bib\n---\n\n'
            "Text [@a; @o].\n",
            "args.bib": _bib("a"),
            "own.bib": _bib("o"),
        },
    )
    metadata = toolchain_metadata(tmp_path / "paper.Rmd", {"output": {"html_document": {}}})
    assert metadata.rule is BibliographyRule.OWN  # the format named no arguments
    assert _undefined(tmp_path / "paper.Rmd") == {"o"}


def test_output_yml_gives_the_format_when_the_document_names_none(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "_output.yml": "bookdown::html_document2:\n"
            "  pandoc_args: [--bibliography, shared.bib]\n",
            "shared.bib": _bib("s"),
            "paper.Rmd": "---\ntitle: x\n---\n\nText [@s].\n",
        },
    )
    assert _undefined(tmp_path / "paper.Rmd") == set()


def test_a_bookdown_chapter_reads_the_books_front_matter(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "_bookdown.yml": 'rmd_files: ["index.Rmd", "02-methods.Rmd"]\n',
            "index.Rmd": "---\ntitle: Book\nbibliography: book.bib\n---\n\n# Preface\n",
            "book.bib": _bib("m"),
            "02-methods.Rmd": "# Methods\n\nAs in @m and @x.\n",
        },
    )
    assert _undefined(tmp_path / "02-methods.Rmd") == {"x"}


def test_a_markdown_file_outside_any_project_adds_nothing(tmp_path: Path) -> None:
    (tmp_path / "doc.md").write_text("Text.\n", encoding="utf-8")
    assert toolchain_metadata(tmp_path / "doc.md", {}) == ToolchainMetadata()


def test_a_readme_in_a_quarto_project_is_not_rendered_by_quarto(tmp_path: Path) -> None:
    _write(tmp_path, {"_quarto.yml": "bibliography: refs.bib\n", "README.md": "Text.\n"})
    assert toolchain_metadata(tmp_path / "README.md", {}).toolchain == "pandoc"


def test_project_nocite_and_options_reach_the_check(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "_quarto.yml": "project:\n  type: default\nbibliography: refs.bib\n"
            "nocite: |\n  @listed\ncitecheck:\n  fail-on: [undefined]\n",
            "refs.bib": _bib("listed", "cited"),
            "doc.qmd": "Text [@cited].\n",
        },
    )
    metadata = toolchain_metadata(tmp_path / "doc.qmd", {})
    assert metadata.nocite == ("listed",)
    assert metadata.options == {"fail-on": ["undefined"]}
    out = tmp_path / "r.json"
    assert main(["check", str(tmp_path / "doc.qmd"), "--no-verify", "-o", str(out)]) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert not [f for f in report["findings"] if f["kind"] == "unused"]


def test_custom_cross_reference_kinds_are_no_citations(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "_quarto.yml": "project:\n  type: book\nbibliography: refs.bib\n"
            "crossref:\n  custom:\n    - kind: float\n      key: dino\n",
            "refs.bib": _bib("knuth84"),
            "doc.qmd": "---\ncrossref:\n  custom:\n    - kind: float\n      key: vid\n---\n\n"
            "See @dino-trex, @vid-intro, @tip-towel and @knuth84; @ghost-x is no kind.\n",
        },
    )
    assert toolchain_metadata(tmp_path / "doc.qmd", {}).crossref_kinds == {"dino"}
    assert _undefined(tmp_path / "doc.qmd") == {"ghost-x"}


def test_a_metadata_file_given_to_check_is_under_the_documents_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(
        tmp_path,
        {
            "meta.yml": "bibliography: shared.bib\nnocite: '@listed'\n",
            "shared.bib": _bib("s", "listed"),
            "own.bib": _bib("o"),
            "bare.md": "Text [@s; @o].\n",
            "own.md": "---\nbibliography: own.bib\n---\n\nText [@s; @o].\n",
        },
    )
    monkeypatch.chdir(tmp_path)
    assert _undefined(tmp_path / "bare.md", "--metadata-file", "meta.yml") == {"o"}
    assert _undefined(tmp_path / "own.md", "--metadata-file", "meta.yml") == {"s"}


@pytest.mark.parametrize(
    "listing",
    [
        "---\nnocite: |\n  @listed, @gone\nbibliography: refs.bib\n---\n\nText [@cited].\n",
        "---\nnocite: '@listed @gone'\nbibliography: refs.bib\n---\n\nText [@cited].\n",
        "---\nbibliography: refs.bib\n---\n\nText [@cited].\n\n---\nnocite: |\n"
        "  @listed, @gone\n...\n",
    ],
    ids=["yaml-block", "inlines", "a-later-yaml-block"],
)
def test_nocite_in_every_form_lists_entries_and_cites_nothing(tmp_path: Path, listing: str) -> None:
    _write(tmp_path, {"refs.bib": _bib("cited", "listed", "spare"), "doc.md": listing})
    out = tmp_path / "r.json"
    main(["check", str(tmp_path / "doc.md"), "--no-verify", "-o", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [c["key"] for c in report["citations"]] == ["cited"]
    kinds = sorted((f["kind"], f["key"]) for f in report["findings"])
    assert kinds == [("nocite_not_found", "gone"), ("unused", "spare")]
