"""Every report, against its oracle the CheckResult it was made from (hypothesis): any text a
document, a bibliography or a registry can hold — newlines, pipes, brackets that look like
markup, backticks — comes out in each format complete, in place, and without breaking the
format's structure."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.model import (
    Bibliography,
    CheckResult,
    Citation,
    CitationId,
    CitationMode,
    CitationResult,
    Finding,
    FindingKind,
    GroundingStatus,
    ReferenceResult,
    ReferenceVerdict,
    Severity,
    SourceLocation,
)
from citecore.options import ReportFormat
from citecore.report import render_report
from citecore.report.console import render_text
from citecore.report.labels import one_line
from citecore.report.markdown import render as render_markdown
from citecore.report.summary import summary
from citecore.report.warnings import warning_line

# Text as it arrives from documents and registries: markup look-alikes and table breakers too.
AWKWARD = st.sampled_from(
    ["|", "\n", "\r\n", "\x1b[31m", "\x9b", "[bold]", "[/]", "[link=x]", "`", "\\", "*", "  "]
)
TEXT = st.lists(st.text(max_size=12) | AWKWARD, max_size=6).map("".join)
KEY = st.from_regex(r"[A-Za-z][A-Za-z0-9_:.\-]{0,15}", fullmatch=True)
PLACE = st.builds(
    SourceLocation, st.sampled_from(["paper.md", "ch 1.tex", "refs.bib"]), st.integers(1, 500)
)


@st.composite
def results(draw: st.DrawFn) -> CheckResult:
    keys = draw(st.lists(KEY, min_size=1, max_size=5, unique=True))
    citations = tuple(
        Citation(
            draw(st.sampled_from(keys)),
            draw(st.sampled_from(CitationMode)),
            draw(PLACE),
            CitationId("paper.md", ordinal),
            claim=draw(TEXT),
        )
        for ordinal in range(draw(st.integers(0, 6)))
    )
    findings = tuple(
        Finding(
            draw(st.sampled_from(FindingKind)),
            draw(st.sampled_from(Severity)),
            draw(TEXT),
            draw(st.none() | st.sampled_from(keys)),
            draw(st.none() | PLACE),
        )
        for _ in range(draw(st.integers(0, 6)))
    )
    references = {
        key: ReferenceResult(key, draw(st.sampled_from(ReferenceVerdict)), notes=(draw(TEXT),))
        for key in draw(st.lists(st.sampled_from(keys), unique=True))
    }
    grounding = {
        citation.ident: CitationResult(
            draw(st.sampled_from(GroundingStatus)),
            "local",
            page=draw(st.none() | st.integers(1, 40)),
            passage=draw(TEXT),
        )
        for citation in citations
        if draw(st.booleans())
    }
    return CheckResult(
        ("paper.md",), Bibliography(("refs.bib",)), citations, references, findings, grounding
    )


@given(results(), st.booleans())
@settings(max_examples=80, deadline=None)
def test_the_json_report_holds_everything_in_its_place(
    result: CheckResult, only_issues: bool
) -> None:
    data = json.loads(render_report(result, ReportFormat.JSON, only_issues))
    shown = [f for f in result.findings if not only_issues or f.severity is not Severity.INFO]
    assert [(f["kind"], f["message"], f["key"]) for f in data["findings"]] == [
        (f.kind.value, f.message, f.key) for f in shown
    ]
    flagged = {f.key for f in shown}
    expected = [c for c in result.citations if not only_issues or c.key in flagged]
    assert [(c["id"], c["key"], c["line"], c["claim"]) for c in data["citations"]] == [
        (str(c.ident), c.key, c.location.line, c.claim) for c in expected
    ]
    for citation, shown_citation in zip(expected, data["citations"], strict=True):
        grounding = result.grounding_of(citation)
        assert (shown_citation["grounding"] or {}).get("passage") == (
            grounding.passage if grounding else None
        )
    assert data["summary"]["citations"] == summary(result).citations


def _cells(row: str) -> list[str]:
    """A GFM table row's cells: split at pipes no backslash escapes."""
    return re.split(r"(?<!\\)\|", row.strip())[1:-1]


@given(results(), st.booleans())
@settings(max_examples=80, deadline=None)
def test_review_cites_keeps_one_row_per_problem_reference_and_whole_cells(
    result: CheckResult, only_issues: bool
) -> None:
    """What to fix: one row per key with a problem and one per problem of no key, the count
    said equal to the rows, four cells each, every problem's message in its row; information
    (unless left out) one row each, five cells, its message whole."""
    text = render_markdown(result, only_issues)
    problems = [f for f in result.findings if f.severity is not Severity.INFO]
    expected_rows = len({f.key for f in problems if f.key}) + len(
        [f for f in problems if not f.key]
    )
    fix = text.split("## What to fix")[1].split("## Counts")[0] if problems else ""
    rows = [line for line in fix.splitlines() if line.startswith("| ")][1:]
    assert len(rows) == expected_rows
    if problems:
        assert f"\n{expected_rows} to fix (" in fix
    for row in rows:
        assert len(_cells(row)) == 4
    for finding in problems:
        message = one_line(finding.message).replace("|", "\\|")
        assert any(message in row for row in rows), message
    information = [f for f in result.findings if f.severity is Severity.INFO]
    if only_issues or not information:
        assert "<details>" not in text
        return
    folded = text.split("<details>")[1].split("</details>")[0]
    info_rows = [line for line in folded.splitlines() if line.startswith("| ")][1:]
    assert len(info_rows) == len(information)
    for row, finding in zip(info_rows, information, strict=True):
        cells = _cells(row)
        assert len(cells) == 5
        assert cells[4].strip().replace("\\|", "|") == one_line(finding.message)


@given(results(), st.booleans())
@settings(max_examples=80, deadline=None)
def test_the_console_table_shows_text_as_text(result: CheckResult, only_issues: bool) -> None:
    table = " ".join(render_text(result, only_issues, width=400).split())
    for finding in result.findings:
        if only_issues and finding.severity is Severity.INFO:
            continue
        assert one_line(finding.message) in table
        assert "\x1b" not in table  # no escape sequence from the data reaches a terminal


@given(
    st.builds(
        Finding,
        st.sampled_from(FindingKind),
        st.sampled_from(Severity),
        TEXT,
        st.none() | KEY,
        st.none() | PLACE,
    ),
    st.booleans(),
)
def test_a_warning_is_one_line_whatever_the_message(finding: Finding, failing: bool) -> None:
    line = warning_line(finding, failing)
    assert "\n" not in line and "\r" not in line
    assert line.startswith(
        "[ERROR]" if failing else "[INFO]" if finding.severity is Severity.INFO else "[WARNING]"
    )
    assert one_line(finding.message) in line
