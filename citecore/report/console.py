"""The findings as a rich table, for a terminal."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table
from rich.text import Text

from citecore.model import CheckResult, Severity
from citecore.report.labels import one_line, where
from citecore.report.summary import summary

_STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "dim"}


def build_table(result: CheckResult, only_issues: bool = False) -> Table:
    """A rich Table of findings with a caption of summary counts."""
    counts = summary(result)
    table = Table(
        title="citecheck",
        caption=", ".join(
            [
                f"{counts.citations} citations",
                f"{counts.references} entries",
                *(f"{n} {s}" for s, n in sorted(counts.by_severity.items())),
            ]
        ),
    )
    for column in ("severity", "kind", "where", "key", "message"):
        table.add_column(column, overflow="fold")
    for item in result.findings:
        if only_issues and item.severity is Severity.INFO:
            continue
        # Text, not markup: a message quoting "[Retracted]" or "[/]" is shown as written.
        table.add_row(
            item.severity.value,
            item.kind.value,
            Text(where(item)),
            Text(item.key or ""),
            Text(one_line(item.message)),
            style=_STYLES[item.severity],
        )
    return table


def render_text(result: CheckResult, only_issues: bool = False, width: int = 120) -> str:
    """The table as plain text (no colour), for files and pipes."""
    buffer = io.StringIO()
    Console(file=buffer, width=width, no_color=True, color_system=None).print(
        build_table(result, only_issues)
    )
    return buffer.getvalue()
