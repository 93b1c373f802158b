"""Citations carry an identity from extraction, and every per-citation result is joined to its
citation by it: a stage that drops or reorders citations cannot move a verdict onto another
sentence (the real pandoc reads the document)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from citecore.annotate.checked import DocumentCheck
from citecore.annotate.flags import flags_for
from citecore.extract.markdown import MarkdownExtraction, extract_citations
from citecore.findings import grounding_findings
from citecore.model import (
    Bibliography,
    CheckResult,
    CitationId,
    CitationResult,
    GroundingStatus,
)
from citecore.options import ReportFormat
from citecore.report import render_report
from tests.pandoc_json import read_ast

TEXT = """---
abstract: An abstract that cites [@meta].
---

Nets train well [@a; see @b, p. 3].[^1] Attention replaced recurrence [@c].

[^1]: A note cites [@d].

Figures need captions [@e, and @f].
"""


def _extraction() -> MarkdownExtraction:
    return extract_citations(read_ast(TEXT))


def test_extraction_numbers_citations_in_reading_order() -> None:
    citations = _extraction().citations
    assert [(c.key, c.ident.ordinal) for c in citations] == [
        ("meta", 0),
        ("a", 1),
        ("b", 2),
        ("d", 3),  # a note's citations come where the note is referenced
        ("c", 4),
        ("e", 5),
        ("f", 6),
    ]
    assert {c.ident.document for c in citations} == {"<stdin>"}
    assert str(citations[4].ident) == "<stdin>#4"


def test_a_result_refuses_two_citations_with_one_identity() -> None:
    citations = _extraction().citations
    twice = (*citations, replace(citations[-1], key="g"))
    with pytest.raises(ValueError, match="share an identity"):
        CheckResult(("paper.md",), Bibliography(), twice, {}, ())


def test_a_result_refuses_a_verdict_for_a_citation_it_does_not_hold() -> None:
    citations = _extraction().citations
    stray = {CitationId("<stdin>", 99): CitationResult(GroundingStatus.SUPPORTED, "local")}
    with pytest.raises(ValueError, match="names no citation"):
        CheckResult(("paper.md",), Bibliography(), citations, {}, (), stray)


def _reordered(
    verdicts: dict[str, CitationResult],
) -> tuple[DocumentCheck, dict[CitationId, CitationResult]]:
    """The check of TEXT with its citations reversed and `c`'s dropped, and verdicts by key."""
    extraction = _extraction()
    kept = tuple(c for c in reversed(extraction.citations) if c.key != "c")
    grounding = {c.ident: verdicts[c.key] for c in kept if c.key in verdicts}
    result = CheckResult(("paper.md",), Bibliography(), kept, {}, (), grounding)
    return DocumentCheck(result, extraction), grounding


SUPPORTED = CitationResult(GroundingStatus.SUPPORTED, "local", page=7, passage="Nets train.")
UNCONFIRMED = CitationResult(GroundingStatus.UNCONFIRMED, "local", reason="not said")


def test_a_verdict_stays_on_its_citation_when_others_are_reordered_or_dropped() -> None:
    check, _ = _reordered({"d": SUPPORTED, "f": UNCONFIRMED})
    shown = {tuple(c.key for c in group.citations): flag.lines for group, flag in flags_for(check)}
    assert shown == {
        ("d",): ("supported, p. 7 (local)",),
        # f sits in e's suffix (`[@e, and @f]`): shown on the Cite a reader sees.
        ("e",): ("unconfirmed (local): not said: check it against the source",),
    }


def test_reports_and_findings_join_verdicts_by_identity() -> None:
    check, grounding = _reordered({"a": SUPPORTED, "e": UNCONFIRMED})
    result = check.result
    data = json.loads(render_report(result, ReportFormat.JSON, False))
    by_id = {c["id"]: (c["key"], (c["grounding"] or {}).get("status")) for c in data["citations"]}
    assert by_id == {
        "<stdin>#6": ("f", None),
        "<stdin>#5": ("e", "unconfirmed"),
        "<stdin>#3": ("d", None),
        "<stdin>#2": ("b", None),
        "<stdin>#1": ("a", "supported"),
        "<stdin>#0": ("meta", None),
    }
    assert [f.key for f in grounding_findings(result.citations, grounding)] == ["e"]
    markdown = render_report(result, ReportFormat.MARKDOWN, False)
    assert "`a`, supported, p. 7" in markdown and "`b`, supported" not in markdown
