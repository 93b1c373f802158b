"""Every report of one hand-built result: what the writer reads in REVIEW-CITES.md, the JSON
report's fields, the terminal table, the build-log lines and the annotated BibTeX."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from citecore.model import (
    Bibliography,
    CheckResult,
    Citation,
    CitationContext,
    CitationId,
    CitationMode,
    CitationResult,
    FieldMismatch,
    Finding,
    FindingKind,
    GroundingStatus,
    Match,
    Outage,
    Person,
    Reference,
    ReferenceFlag,
    ReferenceResult,
    ReferenceVerdict,
    Severity,
    Source,
    SourceLocation,
)
from citecore.options import ReportFormat
from citecore.report import render_report
from citecore.report.bibtex import annotate_bibtex, remove_verdict_fields
from citecore.report.console import render_text
from citecore.report.json_report import to_json_data
from citecore.report.markdown import render as render_markdown
from citecore.report.summary import summary
from citecore.report.warnings import warning_line

BIB = "refs.bib"


def _reference(key: str, line: int, title: str, year: int) -> Reference:
    return Reference(
        key,
        "article",
        SourceLocation(BIB, line),
        title=title,
        year=year,
        authors=(Person("Peng", "Hao"),),
    )


RFA = _reference("rfa", 1, "Random Feature Attention", 2019)
GHOST = _reference("ghost", 9, "Citation Graph Transformers", 2023)
QA = _reference("qa", 17, "PaperQA", 2023)


def _citation(key: str, line: int, claim: str, ordinal: int) -> Citation:
    return Citation(
        key,
        CitationMode.NORMAL,
        SourceLocation("paper.md", line),
        CitationId("paper.md", ordinal),
        claim=claim,
        context=CitationContext.BODY,
    )


RESULT = CheckResult(
    documents=("paper.md",),
    bibliography=Bibliography((BIB,), {"rfa": RFA, "ghost": GHOST, "qa": QA}),
    citations=(
        _citation("rfa", 3, "Random features approximate attention [@rfa].", 0),
        _citation("ghost", 4, "Graphs verify claims [@ghost].", 1),
        _citation("qa", 5, "PaperQA cites passages | with pipes [@qa].", 2),
    ),
    references={
        "rfa": ReferenceResult(
            "rfa",
            ReferenceVerdict.MISMATCH,
            flags=frozenset({ReferenceFlag.SUGGESTED}),
            mismatches=(FieldMismatch("year", "2019", "2021"),),
            match=Match(Source.OPENALEX, "Random Feature Attention", ("Peng, Hao",), 2021),
            suggested=Match(
                Source.OPENALEX,
                "Random Feature Attention",
                ("Peng, Hao",),
                2021,
                doi="10.48550/arxiv.2103.02143",
            ),
            sources=("openalex",),
        ),
        "ghost": ReferenceResult("ghost", ReferenceVerdict.NOT_FOUND, sources=("crossref",)),
        "qa": ReferenceResult("qa", ReferenceVerdict.VERIFIED, sources=("arxiv",)),
    },
    findings=(
        Finding(
            FindingKind.MISMATCH, Severity.ERROR, "year 2019 vs 2021", "rfa", SourceLocation(BIB, 1)
        ),
        Finding(
            FindingKind.NOT_FOUND,
            Severity.ERROR,
            "could not be confirmed",
            "ghost",
            SourceLocation("paper.md", 4),
        ),
        Finding(
            FindingKind.UNCONFIRMED,
            Severity.INFO,
            "no passage shares its words",
            "qa",
            SourceLocation("paper.md", 5),
        ),
        Finding(FindingKind.OUTAGE, Severity.WARNING, "registries unreachable"),
    ),
    grounding={
        CitationId("paper.md", 2): CitationResult(
            GroundingStatus.SUPPORTED, "local", page=2, passage="It cites them."
        )
    },
    outage=Outage(("ghost",), unreachable=("dblp",)),
)


def test_summary_counts() -> None:
    counts = summary(RESULT)
    assert (counts.citations, counts.references) == (3, 3)
    assert counts.by_verdict == {"mismatch": 1, "not_found": 1, "verified": 1}
    assert counts.by_severity == {"error": 2, "info": 1, "warning": 1}
    assert counts.by_status == {"supported": 1}


def test_review_cites_tells_the_writer_what_to_fix() -> None:
    text = render_markdown(RESULT)
    assert "- **3** citations of **3** keys; **3** bibliography entries" in text
    assert "- reference verdicts: 1 mismatch, 1 not_found, 1 verified" in text
    assert text.index("## What to fix") < text.index("## Counts")  # what to fix comes first
    fix = text.split("## What to fix")[1].split("## Counts")[0]
    rows = [line for line in fix.splitlines() if line.startswith("| ")][1:]
    assert "3 to fix (2 error, 1 warning), one row each:" in fix  # the count is the rows'
    assert len(rows) == 3
    # One row per reference: its entry's place, where it is cited, each problem.
    assert rows[0] == (
        "| ❌ error | `rfa` (refs.bib:1) | paper.md:3 | `mismatch` year 2019 vs 2021 |"
    )
    assert "(at paper.md:4: “Graphs verify claims [@ghost].”)" in rows[1]  # its claim
    assert rows[2].startswith("| ⚠️ warning | the run |")  # a problem of no reference
    info = text.split("<details>")[1]
    assert "<summary>Information: 1 unconfirmed</summary>" in info  # information folded
    assert "passages \\| with pipes" in info  # cells stay one cell
    assert "paper.md:5 `qa`, supported, p. 2 (local judge): “It cites them.”" in text
    assert "`rfa` as the registry records it (openalex):" in text
    assert "doi = {10.48550/arxiv.2103.02143}" in text
    only = render_markdown(RESULT, only_issues=True)
    assert "unconfirmed" not in only.split("## ")[1] and "## Claims" not in only


def test_no_problems_is_said_plainly() -> None:
    clean = CheckResult(("paper.md",), Bibliography(), (), {}, ())
    assert "No problems found." in render_markdown(clean)


def test_json_report_fields() -> None:
    data = json.loads(render_report(RESULT, ReportFormat.JSON, only_issues=False))
    assert data == to_json_data(RESULT)
    assert data["tool"] == "citecheck" and data["inputs"]["bibliographies"] == [BIB]
    by_key = {r["key"]: r for r in data["references"]}
    assert by_key["rfa"]["verdict"] == "mismatch"
    assert by_key["rfa"]["suggested"]["doi"] == "10.48550/arxiv.2103.02143"
    assert by_key["rfa"]["mismatches"] == [
        {"field": "year", "given": "2019", "found": "2021", "reason": ""}
    ]
    assert data["citations"][2]["grounding"]["page"] == 2
    assert data["citations"][0]["context"] == "body"
    assert data["outage"]["unchecked"] == ["ghost"] and data["outage"]["unreachable"] == ["dblp"]
    assert data["summary"]["by_verdict"]["not_found"] == 1
    issues = to_json_data(RESULT, only_issues=True)
    assert [f["kind"] for f in issues["findings"]] == ["mismatch", "not_found", "outage"]
    assert {r["key"] for r in issues["references"]} == {"rfa", "ghost"}


def test_the_terminal_table_holds_every_finding() -> None:
    text = render_text(RESULT, width=160)
    for fragment in ("mismatch", "refs.bib:1", "not_found", "paper.md:4", "unconfirmed"):
        assert fragment in text
    assert "3 citations, 3 entries, 2 error, 1 info, 1 warning" in text
    assert "unconfirmed" not in render_text(RESULT, only_issues=True, width=160)


LINE = "refs.bib:1: [mismatch] rfa: year 2019 vs 2021"


@pytest.mark.parametrize(
    ("finding", "failing", "line"),
    [
        (RESULT.findings[0], False, f"[WARNING] citecheck: {LINE}"),
        (RESULT.findings[0], True, f"[ERROR] citecheck: {LINE}"),
        (
            RESULT.findings[2],
            False,
            "[INFO] citecheck: paper.md:5: [unconfirmed] qa: no passage shares its words",
        ),
        (RESULT.findings[3], False, "[WARNING] citecheck: [outage] registries unreachable"),
    ],
)
def test_build_log_lines(finding: Finding, failing: bool, line: str) -> None:
    assert warning_line(finding, failing) == line


def test_annotated_bibtex_adds_fields_and_removes_them_again() -> None:
    text = "@article{rfa,\r\n  title = {Random Feature Attention},\r\n  year = {2019}\r\n}\r\n"
    annotated = annotate_bibtex(text, RESULT.references, RESULT.bibliography.references)
    assert "cite_check = {mismatch}" in annotated.replace("\r\n", "\n")
    assert "\r\n  cite_check" in annotated  # the file's own line ends
    assert annotate_bibtex(annotated, RESULT.references).count("cite_check = {") == 1
    assert remove_verdict_fields(annotated) == text


def test_the_open_access_field_comes_from_the_verdicts_field_not_its_notes() -> None:
    # Notes are for people; what a writer of files reads is a field of the record.
    text = "@article{rfa,\n  title = {Random Feature Attention},\n  year = {2019}\n}\n"
    said = ReferenceResult(
        "rfa", ReferenceVerdict.VERIFIED, notes=("open-access copy: https://example.org/said",)
    )
    found = replace(said, open_access_url="https://example.org/found")
    assert "cite_check_oa" not in annotate_bibtex(text, {"rfa": said})
    assert "cite_check_oa = {https://example.org/found}" in annotate_bibtex(text, {"rfa": found})
