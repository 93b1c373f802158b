"""Annotated drafts on documents read by the real pandoc: which citations are flagged with
what, and how each output format shows it."""

from __future__ import annotations

from pathlib import Path

import panflute as pf
import pytest

from citecore.annotate import annotate, html, output_family
from citecore.annotate.checked import DocumentCheck
from citecore.annotate.flags import Flag, flags_for
from citecore.extract.markdown import CiteGroup, extract_citations
from citecore.model import (
    Bibliography,
    CheckResult,
    CitationResult,
    Finding,
    FindingKind,
    GroundingStatus,
    Severity,
)
from tests.conftest import run_pandoc
from tests.pandoc_json import read_ast, render_ast

TEXT = """# About [@heading]

A claim [@bad; @good]. Another [@good].[^1] A grounded one [@grounded].

[^1]: In a note [@bad].
"""


def _checked(
    findings: tuple[Finding, ...], grounding: dict[int, CitationResult], text: str = TEXT
) -> tuple[DocumentCheck, pf.Doc]:
    """The check of `text` with these findings and groundings, and the document it read."""
    doc = read_ast(text)
    extraction = extract_citations(doc)
    citations = tuple(c for g in extraction.groups for c in g.citations)
    # The tests name a grounded citation by its place in reading order.
    by_ident = {citations[ordinal].ident: verdict for ordinal, verdict in grounding.items()}
    result = CheckResult(("paper.md",), Bibliography(), citations, {}, findings, by_ident)
    return DocumentCheck(result, extraction), doc


def _check(findings: tuple[Finding, ...], grounding: dict[int, CitationResult]) -> DocumentCheck:
    return _checked(findings, grounding)[0]


FINDINGS = (
    Finding(FindingKind.UNDEFINED, Severity.ERROR, "cited key is not in any bibliography", "bad"),
    Finding(FindingKind.FUTURE_YEAR, Severity.WARNING, "date 2031 is in the future", "heading"),
    Finding(FindingKind.UNUSED, Severity.INFO, "never cited", "good"),  # information: no flag
)
UNDEFINED = "undefined: cited key is not in any bibliography"
# Citation order: heading, bad, good, good, bad (the note, where it is referenced), grounded.
GROUNDED = {5: CitationResult(GroundingStatus.SUPPORTED, "local", page=7, passage="p")}


def test_flags_name_the_worst_severity_and_every_problem() -> None:
    check = _check(FINDINGS, GROUNDED)
    flagged = [(tuple(c.key for c in g.citations), f) for g, f in flags_for(check)]
    assert flagged == [
        (("heading",), Flag(Severity.WARNING, ("future_year: date 2031 is in the future",))),
        (("bad", "good"), Flag(Severity.ERROR, (UNDEFINED,))),
        (("bad",), Flag(Severity.ERROR, (UNDEFINED,))),
        (("grounded",), Flag(Severity.INFO, ("supported, p. 7 (local)",))),
    ]


def test_an_unproved_supported_verdict_is_not_shown_as_support() -> None:
    unproved = {5: CitationResult(GroundingStatus.SUPPORTED, "local", ungrounded=True)}
    assert [f for _, f in flags_for(_check((), unproved))] == []


def test_a_long_note_is_cut_with_an_ellipsis() -> None:
    flag = Flag(Severity.ERROR, ("a" * 150, "b" * 150))
    assert len(flag.text()) == 220 and flag.text().endswith("…")


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("html5", "html"),
        ("revealjs", "html"),
        ("latex", "latex"),
        ("beamer", "latex"),
        ("docx", "docx"),
        ("markdown", None),
        ("html+smart", "html"),
        ("epub3", "html"),
    ],
)
def test_output_families(name: str, family: str | None) -> None:
    assert output_family(name) == family


def _render(checked: tuple[DocumentCheck, pf.Doc], output_format: str) -> str:
    check, doc = checked  # annotation decorates the checked document
    count = annotate(doc, check, output_format)
    assert count == len(flags_for(check))
    return render_ast(doc, output_format, standalone=True)


def test_html_spans_carry_severity_kind_and_reasons() -> None:
    html = _render(_checked(FINDINGS, GROUNDED), "html")
    assert 'class="citecheck citecheck-error citecheck-undefined"' in html
    assert 'class="citecheck citecheck-warning citecheck-future_year"' in html
    assert 'class="citecheck citecheck-info citecheck-supported"' in html
    assert 'title="undefined: cited key is not in any bibliography"' in html
    assert ".citecheck-error" in html  # the stylesheet


def test_latex_margin_notes_inline_in_notes_none_in_headings() -> None:
    latex = _render(_checked(FINDINGS, GROUNDED), "latex")
    assert latex.count("\\citecheckNote{error}") == 1  # the body's flagged citation
    assert latex.count("\\citecheckInlineNote{error}") == 1  # the footnote's
    assert "\\citecheckNote{warning}" not in latex  # a heading holds no note
    assert "\\citecheckNote{info}{supported, p. 7 (local)}" in latex


def test_docx_gets_a_comment_per_flagged_citation() -> None:
    check, doc = _checked(FINDINGS, GROUNDED)
    annotate(doc, check, "docx")
    assert render_ast(doc, "native").count("comment-start") == 4


def test_other_formats_and_clean_documents_are_left_alone() -> None:
    check, doc = _checked(FINDINGS, GROUNDED)
    before = render_ast(doc, "native")
    assert annotate(doc, check, "markdown") == 0
    clean, clean_doc = _checked((), {})
    unchanged = render_ast(clean_doc, "native")
    assert annotate(clean_doc, clean, "html") == 0
    assert render_ast(clean_doc, "native") == unchanged
    assert render_ast(doc, "native") == before


NESTED = "Shown as one [@outer,@inner] and [@plain,@grounded2].\n"


def _nested_check(
    findings: tuple[Finding, ...], grounding: dict[int, CitationResult]
) -> DocumentCheck:
    return _checked(findings, grounding, NESTED)[0]


def test_a_nested_citations_problem_joins_the_outer_flag_at_the_worst_severity() -> None:
    findings = (
        Finding(FindingKind.FUTURE_YEAR, Severity.WARNING, "date 2031 is in the future", "outer"),
        Finding(FindingKind.UNDEFINED, Severity.ERROR, "cited key is not in any bibliography",
                "inner"),
    )  # fmt: skip
    flagged = [(tuple(c.key for c in g.citations), f) for g, f in flags_for(_nested_check(
        findings, {}))]  # fmt: skip
    assert flagged == [
        (
            ("outer",),
            Flag(
                Severity.ERROR,
                ("future_year: date 2031 is in the future", f"{UNDEFINED}"),
            ),
        )
    ]


def test_a_nested_supported_citation_is_shown_on_the_outer_one() -> None:
    # Citation order: outer, inner, plain, grounded2 (a Cite before those in its suffix).
    grounded = {3: CitationResult(GroundingStatus.SUPPORTED, "local", page=2, passage="p")}
    flagged = [(tuple(c.key for c in g.citations), f) for g, f in flags_for(_nested_check(
        (), grounded))]  # fmt: skip
    assert flagged == [(("plain",), Flag(Severity.INFO, ("supported, p. 2 (local)",)))]


def test_an_ungrounded_or_partial_verdict_is_no_support_note() -> None:
    grounding = {
        3: CitationResult(GroundingStatus.SUPPORTED, "local", page=2, ungrounded=True),
        2: CitationResult(GroundingStatus.PARTIAL, "local", page=4, passage="p"),
    }
    assert flags_for(_nested_check((), grounding)) == []


def test_an_unconfirmed_claim_is_marked_lightly_with_what_to_do() -> None:
    """The margin note says which words the source does not carry, where to look, and what to
    do."""
    reason = "lexical judge: the passage does not say 'resistant' (4/5 words of the claim)"
    unconfirmed = {5: CitationResult(GroundingStatus.UNCONFIRMED, "local", page=3, reason=reason)}
    [(group, flag)] = flags_for(_check((), unconfirmed))
    assert [c.key for c in group.citations] == ["grounded"]
    assert flag.tone == "unconfirmed" and flag.severity is Severity.INFO
    assert flag.lines[0] == (
        "unconfirmed (local): the passage does not say 'resistant' (4/5 words of the claim); "
        "the closest passage is on p. 3: check it against the source"
    )


def test_a_problem_of_one_citation_is_not_shown_on_a_clean_one_of_the_same_key(
    tmp_path: Path,
) -> None:
    (tmp_path / "p.md").write_text(
        "---\nbibliography: r.bib\n---\nFirst a clean one [@b].\n\nThen [@a,@b].\n",
        encoding="utf-8",
    )
    (tmp_path / "r.bib").write_text(
        "@article{a, title={Alpha}, author={Smith, J}, year={2020}}\n"
        "@article{b, title={Beta}, author={Jones, A}, year={2021}}\n",
        encoding="utf-8",
    )
    html = run_pandoc("p.md", "--filter", "citecheck", "--citeproc", "-t", "html", cwd=tmp_path)
    assert html.stdout.count('class="citecheck ') == 1  # one note, on [@a,@b] only
    first = html.stdout.split("Then")[0]
    assert "citecheck" not in first


def test_an_equal_copy_of_a_cite_is_not_mistaken_for_the_flagged_one() -> None:
    # Two Cite elements equal field by field (a filter or a template can make them): the flag
    # of the second wraps the second, not the first one a comparison by value would find.
    doc = read_ast("[@a] [@a]\n")
    para = doc.content[0].content
    first, second = para[0], para[2]
    for cite in (first, second):  # pandoc numbers them; a filter may not
        cite.citations[0].hash, cite.citations[0].note_num = 0, 1
    assert first == second and first is not second
    extraction = extract_citations(doc)
    group = extraction.groups[1]
    assert group.element is second and isinstance(group, CiteGroup)
    html.annotate(doc, [(group, Flag(Severity.ERROR, (UNDEFINED,)))])
    assert para[0] is first
    assert isinstance(para[2], pf.Span) and para[2].content[0] is second


def test_a_citation_in_the_metadata_stays_in_the_reports_only() -> None:
    # A note in the title or abstract would travel into the title block and the PDF's
    # properties; the finding is still reported, at its line.
    text = "---\nabstract: As shown [@bad].\n---\n\nIn the body [@bad].\n"
    check, doc = _checked(FINDINGS, {}, text)
    assert [c.key for c in check.result.citations] == ["bad", "bad"]
    [(group, _flag)] = flags_for(check)
    assert group.container is doc.content[0].content
    assert annotate(doc, check, "html") == 1
    assert render_ast(doc, "html", standalone=True).count('class="citecheck ') == 1
