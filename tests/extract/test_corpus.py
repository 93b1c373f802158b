"""The real papers of ../shared/corpus/markdown: pandoc's own AST and citeproc are the oracles
(after knitr, for R Markdown and Quarto, as `rmarkdown::render` and `quarto render` run it)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from citecore.api import check_markdown_file
from citecore.extract.markdown import is_crossref
from citecore.model import CitationId, FindingKind
from citecore.options import Options
from citecore.pandoc.knitr import is_knitr_source
from tests.conftest import CorpusPaper, corpus_markdown_papers, run_pandoc
from tests.generated_markdown import ast_citation_ids
from tests.knitr_oracle import knit

PAPERS = corpus_markdown_papers()


def _as_pandoc_reads(paper: CorpusPaper, work: Path) -> str:
    """The file pandoc reads: the paper itself, or for R Markdown and Quarto what knitr wrote
    of it (in `work`; pandoc still runs in the paper's folder, for its bibliography)."""
    if not is_knitr_source(paper.path):
        return paper.path.name
    knitted = work / "knitted.md"
    knitted.write_text(knit(paper.path.read_text(encoding="utf-8"), paper.path.parent))
    return str(knitted)


def _pandoc_ids(paper: CorpusPaper, work: Path) -> Counter[str]:
    """Cited ids in pandoc's own AST: body and metadata, except `nocite` (which cites nothing in
    the text) and Quarto cross-references."""
    args = ("-f", "markdown", _as_pandoc_reads(paper, work), "-t", "json")
    ast = json.loads(run_pandoc(*args, cwd=paper.path.parent).stdout)
    meta = {k: v for k, v in ast["meta"].items() if k not in ("nocite", "references")}
    ids = Counter(ast_citation_ids(ast["blocks"])) + Counter(ast_citation_ids(meta))
    return Counter({k: n for k, n in ids.items() if not is_crossref(k)})


def _options(paper: CorpusPaper) -> Options:
    override = paper.bibliography_override
    return Options(bibliographies=(str(paper.path.parent / override),) if override else ())


def test_the_corpus_is_there() -> None:
    assert len(PAPERS) == 22


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.name)
def test_extracted_keys_equal_pandocs_ast(paper: CorpusPaper, tmp_path: Path) -> None:
    check = check_markdown_file(paper.path, _options(paper))
    assert Counter(c.key for c in check.result.citations) == _pandoc_ids(paper, tmp_path)
    assert not check.extraction.unmapped, "every citation maps to a source line"
    citations = check.result.citations
    assert [c.ident for c in citations] == [
        CitationId(str(paper.path), n) for n in range(len(citations))
    ]
    lines = paper.path.read_text().splitlines()
    for citation in check.result.citations:
        assert citation.location.line is not None
        line = lines[citation.location.line - 1]
        assert re.search(rf"@\{{?{re.escape(citation.key)}", line), (citation, line)


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.name)
def test_undefined_keys_equal_citeprocs(paper: CorpusPaper, tmp_path: Path) -> None:
    # Some papers name a CSL style the corpus does not carry; pandoc's default style does.
    default_csl = tmp_path / "default.csl"
    default_csl.write_text(
        run_pandoc("--print-default-data-file", "default.csl", cwd=tmp_path).stdout
    )
    args = ["-f", "markdown", _as_pandoc_reads(paper, tmp_path), "--citeproc", "-t", "plain"]
    args += ["--csl", str(default_csl)]
    if paper.bibliography_override:
        args += ["--bibliography", paper.bibliography_override]
    completed = run_pandoc(*args, cwd=paper.path.parent, check=False)
    assert completed.returncode == 0, completed.stderr
    missing = {k for k in re.findall(r"citation (\S+) not found", completed.stderr)}
    check = check_markdown_file(paper.path, _options(paper))
    undefined = {f.key for f in check.result.findings if f.kind is FindingKind.UNDEFINED}
    assert undefined == {k for k in missing if not is_crossref(k)}
