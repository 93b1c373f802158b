"""Emitting a CheckResult: build warnings, REVIEW-CITES.md, the JSON report, a console table."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from citecore.model import CheckResult
from citecore.options import ReportFormat


def render_report(result: CheckResult, report_format: ReportFormat, only_issues: bool) -> str:
    """The report as text in `report_format` (a table renders as plain text without colour)."""
    from citecore.report import console, json_report, markdown

    if report_format is ReportFormat.JSON:
        return json_report.render(result, only_issues)
    if report_format is ReportFormat.MARKDOWN:
        return markdown.render(result, only_issues)
    return console.render_text(result, only_issues)


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to `path` so that readers see the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        umask = os.umask(0)
        os.umask(umask)
        Path(temporary).chmod(0o666 & ~umask)  # mkstemp makes 0600; a report is for everyone
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
