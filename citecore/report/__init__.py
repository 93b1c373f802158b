"""Emitting a CheckResult: build warnings, REVIEW-CITES.md, the JSON report, SARIF for code
scanning, a console table."""

from __future__ import annotations

from citecore.model import CheckResult
from citecore.options import ReportFormat
from citecore.report import json_report, markdown, sarif


def render_report(result: CheckResult, report_format: ReportFormat, only_issues: bool) -> str:
    """The report as text in `report_format` (a table renders as plain text without colour)."""
    from citecore.report import console  # rich, ~55 ms: only a table needs it

    if report_format is ReportFormat.JSON:
        return json_report.render(result, only_issues)
    if report_format is ReportFormat.MARKDOWN:
        return markdown.render(result, only_issues)
    if report_format is ReportFormat.SARIF:
        return sarif.render(result, only_issues)
    return console.render_text(result, only_issues)
