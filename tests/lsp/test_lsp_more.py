"""Smaller promises of the editor's pieces: grounding in hovers, a bibliography analysed alone,
latexmkrc found above a chapter, citation groups that are never half a bracket, and the help
text every kind of finding carries."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from lsprotocol.types import DiagnosticSeverity

from citecore.extract.latex_root import main_files_for
from citecore.lsp.analysis import Analysis, analyse_bibliography
from citecore.lsp.features import hover_text
from citecore.lsp.scan import markdown_citations
from citecore.model import (
    Bibliography,
    CheckResult,
    CitationResult,
    FindingKind,
    GroundingStatus,
    Reference,
    SourceLocation,
)
from citecore.report.kinds import HELP
from tests.generated_markdown import document


def _analysis(text: str, grounding: dict[tuple[int, str], CitationResult]) -> Analysis:
    reference = Reference("k", "article", SourceLocation("refs.bib", 1), title="T")
    result = CheckResult((), Bibliography(("refs.bib",), {"k": reference}), (), {}, ())
    return Analysis(Path("p.md"), markdown_citations(text), result, grounding=grounding)


def test_a_supported_claim_shows_its_passage_and_page() -> None:
    grounded = CitationResult(
        GroundingStatus.SUPPORTED, "local", page=7, passage="errors fell by\n35 percent"
    )
    found = hover_text(_analysis("A claim [@k].\n", {(0, "k"): grounded}), 0, 10)
    assert found is not None
    assert "Claim: **supported**, p. 7 (local judge)" in found[0]
    assert "> errors fell by 35 percent" in found[0]


def test_an_unconfirmed_claim_shows_why_not_a_passage() -> None:
    doubt = CitationResult(
        GroundingStatus.UNCONFIRMED, "local", passage="unrelated", reason="no passage says so"
    )
    found = hover_text(_analysis("A claim [@k].\n", {(0, "k"): doubt}), 0, 10)
    assert found is not None
    assert "no passage says so" in found[0] and "unrelated" not in found[0]


def test_a_bibliography_alone_is_checked_entry_by_entry(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@book{a, title = {A}, author = {Doe, J}, year = 2999}\n"
        "@book{b, title = {B}, author = {Roe, R}, year = 2001, doi = {not-a-doi}}\n"
    )
    analysis = analyse_bibliography(bib, {"verify": False})
    assert {(f.kind, f.key) for f in analysis.result.findings} >= {
        (FindingKind.FUTURE_YEAR, "a"),
        (FindingKind.MALFORMED_ID, "b"),
    }
    assert analysis.citations == []


def test_a_latexmkrc_above_the_chapters_folder_names_the_main_file(tmp_path: Path) -> None:
    (tmp_path / "book" / "parts").mkdir(parents=True)
    (tmp_path / "book" / "book.tex").write_text("\\documentclass{book}\n")
    (tmp_path / "book" / ".latexmkrc").write_text('@default_files = ("book.tex");\n')
    chapter = tmp_path / "book" / "parts" / "one.tex"
    chapter.write_text("A chapter.\n")
    assert main_files_for(chapter, tmp_path) == [(tmp_path / "book" / "book.tex").resolve()]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document())
def test_a_citation_group_is_a_whole_bracket_or_the_key_itself(text: str) -> None:
    lines = text.splitlines()
    for cited in markdown_citations(text):
        span = cited.citation_span
        if span.start_line != span.end_line:
            continue
        shown = lines[span.start_line][span.start_character : span.end_character]
        assert shown == cited.group_text
        assert (shown.startswith("[") and shown.endswith("]")) or shown.lstrip("-").startswith(
            "@"
        ), shown


def test_every_kind_of_finding_has_a_title_and_help_a_writer_can_act_on() -> None:
    assert set(HELP) == set(FindingKind)
    for kind, words in HELP.items():
        assert words.title and not words.title.endswith("."), kind
        assert words.help.endswith((".", ")")) and len(words.help) > 40, kind


def test_unsupported_and_unproved_claims_are_diagnostics_on_their_citations() -> None:
    from citecore.lsp.features import diagnostics

    text = "One claim [@k].\nAnother claim @k.\nA third [@k].\nA fourth [@k].\n"
    grounding = {
        (0, "k"): CitationResult(
            GroundingStatus.UNSUPPORTED, "local", page=7, reason="says otherwise"
        ),
        (1, "k"): CitationResult(GroundingStatus.SUPPORTED, "local", ungrounded=True),
        (2, "k"): CitationResult(GroundingStatus.SUPPORTED, "local", page=3, passage="p"),
        (3, "k"): CitationResult(
            GroundingStatus.UNCONFIRMED,
            "local",
            page=2,
            reason="lexical judge: the passage does not say 'fourth'",
        ),
    }
    shown = diagnostics(_analysis(text, grounding), {})[Path("p.md")]
    assert [(d.code, d.range.start.line, d.range.start.character, d.severity) for d in shown] == [
        ("unsupported", 0, 10, DiagnosticSeverity.Warning),
        ("ungrounded", 1, 14, DiagnosticSeverity.Warning),
        ("unconfirmed", 3, 9, DiagnosticSeverity.Information),
    ]
    assert "(p. 7): says otherwise" in shown[0].message
    assert "the passage does not say 'fourth'" in shown[2].message
