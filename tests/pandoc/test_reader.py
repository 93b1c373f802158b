"""Finding pandoc and reading a document with it, as a writer's machine has it: pandoc on PATH,
only the pypandoc-binary wheel's, one named by `CITECHECK_PANDOC`, or none; a document pandoc
cannot read, one it reads under a suffix it cannot guess (`.qmd`, `.Rmd`), and one knitr would
change first. Each failure is one line naming the file."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

import panflute as pf
import pytest

from citecore.errors import DocumentParseError, PandocNotFoundError
from citecore.pandoc.reader import pandoc_path, read_markdown


def _cites(doc: pf.Doc) -> list[str]:
    found: list[str] = []

    def cited(element: pf.Element, doc: pf.Doc) -> None:
        if isinstance(element, pf.Cite):
            found.extend(c.id for c in element.citations)

    doc.walk(cited)
    return found


def test_the_pandoc_named_in_the_environment_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITECHECK_PANDOC", "/opt/pandoc-3.5/bin/pandoc")
    assert pandoc_path() == "/opt/pandoc-3.5/bin/pandoc"


def test_without_pandoc_on_path_the_wheels_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    pypandoc = pytest.importorskip("pypandoc", reason="the pypandoc-binary wheel is not installed")
    monkeypatch.delenv("CITECHECK_PANDOC", raising=False)
    monkeypatch.setenv("PATH", "")
    found = pandoc_path()
    assert found == str(pypandoc.get_pandoc_path())
    assert os.access(found, os.X_OK)


def test_with_no_pandoc_anywhere_one_line_says_how_to_get_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CITECHECK_PANDOC", raising=False)
    monkeypatch.setenv("PATH", "")
    monkeypatch.setitem(sys.modules, "pypandoc", None)  # the wheel is not installed
    with pytest.raises(
        PandocNotFoundError, match=re.escape("install pandoc 3.x or `pip install pypandoc-binary`")
    ):
        pandoc_path()


def test_a_pandoc_that_cannot_run_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "paper.md").write_text("A claim [@k].\n")
    monkeypatch.setenv("CITECHECK_PANDOC", str(tmp_path / "no-pandoc-here"))
    with pytest.raises(PandocNotFoundError, match=r"cannot run pandoc at .*no-pandoc-here"):
        read_markdown(tmp_path / "paper.md")


def test_what_pandoc_cannot_read_is_one_line_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing = tmp_path / "failing-pandoc"
    failing.write_text(
        "#!/bin/sh\necho 'first line' >&2\necho 'Unknown input format' >&2\nexit 21\n"
    )
    failing.chmod(failing.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("CITECHECK_PANDOC", str(failing))
    (tmp_path / "paper.md").write_text("A claim [@k].\n")
    with pytest.raises(DocumentParseError) as raised:
        read_markdown(tmp_path / "paper.md")
    message = str(raised.value)
    assert message.startswith(f"{tmp_path / 'paper.md'}: pandoc could not read it: ")
    assert "Unknown input format" in message and "\n" not in message


@pytest.mark.parametrize("suffix", [".md", ".markdown", ".qmd", ".Rmd", ".rmarkdown"])
def test_every_markdown_suffix_is_read_as_markdown(tmp_path: Path, suffix: str) -> None:
    document = tmp_path / f"paper{suffix}"
    document.write_text("---\ntitle: T\n---\n\nA claim [@smith2020; @doe2019].\n")
    assert _cites(read_markdown(document)) == ["smith2020", "doe2019"]


def test_a_quarto_document_is_read_as_knitr_leaves_it(tmp_path: Path) -> None:
    document = tmp_path / "paper.qmd"
    document.write_text(
        "---\ntitle: T\n---\n\nA claim [@kept].\n\n"
        "```{r}\n#| echo: false\nx <- '[@notacite]'\n```\n"
        "\n```{r}\n#| include: false\ny <- 1\n```\n\nInline `r 1 + 1` and [@after].\n"
    )
    cited = _cites(read_markdown(document))
    assert cited[0] == "kept" and cited[-1] == "after"
    assert "notacite" not in cited


def test_a_document_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    document = tmp_path / "paper.Rmd"
    document.mkdir()  # a folder where a file was expected
    with pytest.raises(DocumentParseError, match=re.escape(f"{document}: cannot read it")):
        read_markdown(document)
