"""Every real R Markdown, Quarto and pandoc Markdown document of ../shared/corpus/wild/markdown,
read by citecheck and by its writer's toolchain (knitr, then pandoc): the same keys, the same
number of times, in the same order, each at a line of the source that holds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.extract.knitr import as_knitr_reads, is_knitr_source
from citecore.extract.locate import SourceFile
from citecore.extract.markdown import extract_citations
from citecore.pandoc.reader import read_markdown
from tests.generated_markdown import ast_keys, pandoc_ast
from tests.knitr_oracle import have_knitr, knit
from tests.paths import CORPUS

WILD = CORPUS / "wild" / "markdown"


def documents() -> list[Path]:
    """The main file of every document, as the wild corpus's manifest names it."""
    rows = (WILD.parent / "MANIFEST-markdown.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [WILD / row.split("\t")[0] / row.split("\t")[1] for row in rows]


def oracle_keys(path: Path) -> list[str]:
    """The keys pandoc's AST holds after the writer's toolchain read the document."""
    text = path.read_text(encoding="utf-8")
    markdown = knit(text, path.parent) if is_knitr_source(path) else text
    return ast_keys(pandoc_ast(markdown))


@pytest.mark.skipif(not have_knitr(), reason="needs R's knitr (make test installs it)")
@pytest.mark.parametrize("path", documents(), ids=lambda p: p.parent.name)
def test_citations_are_those_knitr_and_pandoc_read(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    source = SourceFile(str(path), as_knitr_reads(path, text))
    extraction = extract_citations(read_markdown(path), [source])
    assert [c.key for c in extraction.citations] == oracle_keys(path)
    assert not extraction.unmapped
    lines = text.splitlines()
    for citation in extraction.citations:
        line = citation.location.line
        assert line is not None and citation.key in lines[line - 1], (citation.key, line)
