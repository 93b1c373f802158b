"""Fetched text in annotated drafts is text: a registry title or a source passage holding HTML,
LaTeX or Word markup is shown as written, never interpreted (it reaches the HTML tooltip, the
margin note and the Word comment)."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import panflute as pf

from citecore.annotate import annotate
from citecore.annotate.checked import DocumentCheck
from citecore.extract.markdown import extract_citations
from citecore.model import (
    Bibliography,
    CheckResult,
    Finding,
    FindingKind,
    Severity,
)
from tests.conftest import requires_latex
from tests.pandoc_json import read_ast, render_ast

HOSTILE = "title '\"><script>alert(1)</script> \\input{/etc/passwd} 100% & $x$_{1} <w:t>"


def _check() -> tuple[DocumentCheck, pf.Doc]:
    doc = read_ast("A claim [@k].\n")
    extraction = extract_citations(doc)
    citations = tuple(c for g in extraction.groups for c in g.citations)
    finding = Finding(FindingKind.MISMATCH, Severity.ERROR, HOSTILE, "k")
    check = DocumentCheck(
        CheckResult(("p.md",), Bibliography(), citations, {}, (finding,)), extraction
    )
    return check, doc


def _output(output_format: str) -> str:
    check, doc = _check()
    annotate(doc, check, output_format)
    return render_ast(doc, output_format, standalone=True)


def test_html_tooltips_escape_markup() -> None:
    html = _output("html")
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert '"><' not in html.split("citecheck-mismatch", 1)[1].split(">", 1)[0]


def test_latex_notes_escape_specials() -> None:
    latex = _output("latex")
    note = latex.split("\\citecheckNote{error}{", 1)[1]
    assert "\\input{/etc/passwd}" not in note.split("}\n", 1)[0]
    assert "100\\%" in note and "\\&" in note and "\\$x\\$" in note


def test_word_comments_hold_the_text(tmp_path: Path) -> None:
    check, doc = _check()
    annotate(doc, check, "docx")
    target = tmp_path / "out.docx"
    render_ast(doc, "docx", "-o", str(target))
    with zipfile.ZipFile(target) as docx:
        comments = docx.read("word/comments.xml").decode("utf-8")
    assert "&lt;script&gt;" in comments and "<script>" not in comments
    assert "&lt;w:t&gt;" in comments


@requires_latex
def test_a_note_quoting_characters_pdflatex_lacks_does_not_stop_the_build(
    tmp_path: Path,
) -> None:
    doc = read_ast("A claim [@k].\n")
    extraction = extract_citations(doc)
    citations = tuple(c for g in extraction.groups for c in g.citations)
    finding = Finding(FindingKind.MISMATCH, Severity.ERROR, "title: α-synuclein ≤ 中文", "k")
    result = CheckResult(("p.md",), Bibliography(), citations, {}, (finding,))
    annotate(doc, DocumentCheck(result, extraction), "latex")
    target = tmp_path / "out.pdf"
    render_ast(doc, "latex", "-o", str(target), "--pdf-engine=pdflatex", standalone=True)
    text = subprocess.run(
        ["pdftotext", str(target), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "?-synuclein" in " ".join(text.split())
