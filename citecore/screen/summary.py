"""The venue's table: one row per submission, written as JSON, CSV and a self-contained HTML page
a program chair can sort (click a column heading), each row linking to the submission's report.
"""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Sequence
from typing import Any

from citecore.model import CheckResult, FindingKind, ReferenceFlag, ReferenceVerdict
from citecore.screen.submissions import Submission

COLUMNS = (
    "submission",
    "kind",
    "references",
    "verified",
    "mismatch",
    "not_found",
    "retracted",
    "unverifiable",
    "unparsed",
    "report",
    "problem",
)
_TEXT = ("submission", "kind", "report", "problem")  # left-aligned, sorted as text
_COUNTED = ("references", "verified", "mismatch", "not_found", "retracted", "unverifiable")
# Verdicts a venue reads as "could not be checked": not an accusation of the submission.
_UNCHECKED = (ReferenceVerdict.UNVERIFIABLE, ReferenceVerdict.ERROR, ReferenceVerdict.UNCHECKED)


def submission_row(submission: Submission, result: CheckResult, report: str) -> dict[str, Any]:
    """The submission's counts: references checked, each verdict, retractions (a flag beside
    any verdict), the report's path relative to the summary, and as its problem a bibliography
    it names that is not there (the rest of it was read and checked)."""
    verdicts = [r.verdict for r in result.references.values()]
    missing = [f for f in result.findings if f.kind is FindingKind.MISSING_BIBLIOGRAPHY]
    return {
        "submission": submission.id,
        "kind": submission.kind.value,
        "references": len(verdicts),
        "verified": verdicts.count(ReferenceVerdict.VERIFIED),
        "mismatch": verdicts.count(ReferenceVerdict.MISMATCH),
        "not_found": verdicts.count(ReferenceVerdict.NOT_FOUND),
        "retracted": sum(ReferenceFlag.RETRACTED in r.flags for r in result.references.values()),
        "unverifiable": sum(v in _UNCHECKED for v in verdicts),
        "unparsed": verdicts.count(ReferenceVerdict.UNPARSED),
        "report": report,
        "problem": "; ".join(f.message for f in missing),
    }


def unread_row(submission: Submission, problem: str) -> dict[str, Any]:
    """The row of a submission that could not be read: no counts, the reason."""
    row: dict[str, Any] = dict.fromkeys(COLUMNS, 0)
    row.update(submission=submission.id, kind=submission.kind.value, report="", problem=problem)
    return row


def summary_json(rows: Sequence[dict[str, Any]], totals: dict[str, Any]) -> str:
    """The table and the run's totals as JSON."""
    return json.dumps({"totals": totals, "submissions": list(rows)}, indent=2) + "\n"


def summary_csv(rows: Sequence[dict[str, Any]]) -> str:
    """The table as CSV, one header line then a line per submission."""
    stream = io.StringIO()
    writer = csv.DictWriter(stream, fieldnames=COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return stream.getvalue()


_SCRIPT = """
document.querySelectorAll('th').forEach(function (th, column) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var down = th.dataset.order !== 'down';
    th.dataset.order = down ? 'down' : 'up';
    rows.sort(function (a, b) {
      var x = a.cells[column].dataset.value, y = b.cells[column].dataset.value;
      var nx = parseFloat(x), ny = parseFloat(y);
      var order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return down ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
"""

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; }
table { border-collapse: collapse; }
th, td { padding: 0.3em 0.7em; border-bottom: 1px solid #ddd; text-align: right; }
th { cursor: pointer; background: #f4f4f4; position: sticky; top: 0; }
td.text, th.text { text-align: left; }
td.flag { background: #fde8e8; font-weight: bold; }
"""


def summary_html(rows: Sequence[dict[str, Any]], totals: dict[str, Any], title: str) -> str:
    """A self-contained page: the totals, then the table sortable by any column (no network,
    no files beside it but the reports it links)."""
    text = ' class="text"'
    head = "".join(
        f"<th{text if c in _TEXT else ''}>{html.escape(c.replace('_', ' '))}</th>" for c in COLUMNS
    )
    body = []
    for row in rows:
        cells = []
        for column in COLUMNS:
            value = row.get(column, "")
            shown = html.escape(str(value))
            if column == "report" and value:
                shown = f'<a href="{html.escape(str(value), quote=True)}">report</a>'
            flagged = column in ("mismatch", "not_found", "retracted") and value
            style = ' class="flag"' if flagged else ' class="text"' if column in _TEXT else ""
            data = html.escape(str(value), quote=True)
            cells.append(f'<td{style} data-value="{data}">{shown}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    summary = ", ".join(f"{html.escape(str(v))} {html.escape(k)}" for k, v in totals.items())
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><p>{summary}</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        f"<script>{_SCRIPT}</script></body></html>\n"
    )


def totals_of(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The counts summed over every submission, and how many could not be read."""
    totals: dict[str, Any] = {"submissions": len(rows)}
    for column in _COUNTED:
        totals[column] = sum(int(row.get(column) or 0) for row in rows)
    totals["unread"] = sum(bool(row.get("problem")) for row in rows)
    return totals
