"""Annotated drafts on generated documents (hypothesis; every construct able to hold a
citation, from tests/generated_markdown.py): each flagged citation is decorated exactly once in
HTML and Word, and annotating never adds, drops or reorders a citation — pandoc's AST of the
annotated document cites what the writer's cites (report, never repair)."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path
from tempfile import TemporaryDirectory

import panflute as pf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.annotate import annotate
from citecore.annotate.checked import DocumentCheck
from citecore.annotate.flags import flags_for
from citecore.extract.markdown import extract_citations
from citecore.model import (
    Bibliography,
    CheckResult,
    Finding,
    FindingKind,
    Severity,
)
from citecore.pandoc.document import dump_document
from tests.generated_markdown import KEYS, ast_citation_ids, document
from tests.pandoc_json import read_ast, render_ast

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _read(text: str) -> pf.Doc:
    return read_ast(text)


def _checked(doc: pf.Doc, flagged_keys: set[str]) -> DocumentCheck:
    extraction = extract_citations(doc)
    citations = tuple(c for g in extraction.groups for c in g.citations)
    findings = tuple(
        Finding(FindingKind.UNDEFINED, Severity.ERROR, f"no entry for {key}", key)
        for key in sorted(flagged_keys)
    )
    result = CheckResult(("p.md",), Bibliography(), citations, {}, findings)
    return DocumentCheck(result, extraction)


def _cited(doc: pf.Doc) -> list[str]:
    """The citation ids of a document, as its JSON holds them."""
    return list(ast_citation_ids(json.loads(dump_document(doc))["blocks"]))


def _convert(doc: pf.Doc, output_format: str, *extra: str) -> str:
    """The annotated document as a build writes it: citeproc renders the citations after the
    filter ran (a citation nested in another's suffix is shown only then)."""
    return render_ast(doc, output_format, "--citeproc", *extra, standalone=True)


@SETTINGS
@given(document(), st.sets(KEYS, min_size=1))
def test_each_flagged_citation_is_highlighted_once_in_html(text: str, keys: set[str]) -> None:
    doc = _read(text)
    before = _cited(doc)
    check = _checked(doc, keys)
    expected = len(flags_for(check))
    assert annotate(doc, check, "html") == expected
    assert _cited(doc) == before
    html = _convert(doc, "html")
    assert len(re.findall(r'<span\s+class="citecheck\s+citecheck-error', html)) == expected


@SETTINGS
@given(document(), st.sets(KEYS, min_size=1))
def test_each_flagged_citation_gets_one_word_comment(text: str, keys: set[str]) -> None:
    doc = _read(text)
    before = _cited(doc)
    check = _checked(doc, keys)
    expected = annotate(doc, check, "docx")
    assert _cited(doc) == before
    with TemporaryDirectory() as folder:
        target = Path(folder) / "out.docx"
        _convert(doc, "docx", "-o", str(target))
        with zipfile.ZipFile(target) as docx:
            names = docx.namelist()
            comments = docx.read("word/comments.xml").decode() if expected else ""
    assert comments.count("<w:comment ") == expected
    assert ("word/comments.xml" in names) or expected == 0


@SETTINGS
@given(document(), st.sets(KEYS, min_size=1))
def test_latex_notes_never_change_what_is_cited(text: str, keys: set[str]) -> None:
    doc = _read(text)
    before = _cited(doc)
    check = _checked(doc, keys)
    flagged = annotate(doc, check, "latex")
    assert _cited(doc) == before
    latex = _convert(doc, "latex")
    assert latex.count("\\citecheckNote{") <= flagged  # none in headings, captions move notes


def test_a_citation_read_into_anothers_suffix_is_flagged_on_the_one_shown() -> None:
    doc = _read("As shown [@a,@b].\n")
    check = _checked(doc, {"b"})
    assert annotate(doc, check, "html") == 1
    html = _convert(doc, "html")
    span = re.search(r'<span\s+class="citecheck[^>]*title="([^"]*)"', html)
    assert span is not None and "no entry for b" in span.group(1)
    assert 'data-cites="a"' in html.split(span.group(0), 1)[1]  # the outer, visible citation


def test_a_citation_in_an_inline_images_alt_text_stays_in_the_reports_only() -> None:
    doc = _read("An icon ![logo of [@a]](logo.png) and a claim [@a].\n")
    check = _checked(doc, {"a"})
    assert len(check.result.citations) == 2  # both are citations, as pandoc reads them
    assert annotate(doc, check, "docx") == 1  # only the one a reader can see is annotated
