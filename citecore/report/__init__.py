"""Emitting a CheckResult: build warnings, REVIEW-CITES.md, the JSON report, SARIF for code
scanning, a console table."""

from __future__ import annotations

from citecore.model import CheckResult
from citecore.options import ReportFormat


def render_report(result: CheckResult, report_format: ReportFormat, only_issues: bool) -> str:
    """The report as text in `report_format` (a table renders as plain text without colour)."""
    # start-up: each format when asked for: a build writing no report (an edit's rebuild)
    # never loads the BibTeX corrections and their comparison rules (~25 ms, -X importtime).
    if report_format is ReportFormat.JSON:
        from citecore.report import json_report  # start-up: as said above

        return json_report.render(result, only_issues)
    if report_format is ReportFormat.MARKDOWN:
        from citecore.report import markdown  # start-up: as said above

        return markdown.render(result, only_issues)
    if report_format is ReportFormat.SARIF:
        from citecore.report import sarif  # start-up: as said above

        return sarif.render(result, only_issues)
    from citecore.report import console  # start-up: rich, ~55 ms: only a table needs it

    return console.render_text(result, only_issues)
