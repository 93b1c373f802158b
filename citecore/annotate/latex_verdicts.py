"""`<jobname>.citecheck.tex`: the verdicts citecheck.sty reads, and warnings for the LaTeX log.

One `\\citecheckVerdict{key}{level}{reason}` per flagged key (the margin notes), and one
`\\citecheckWarning{line}{text}` per finding with a place (LaTeX prints it as `Package citecheck
Warning: … on input line N.`, which editors pick up).
"""

from __future__ import annotations

from collections import defaultdict

from citecore.annotate.latex import escape_latex
from citecore.model import CheckResult, Finding, Severity
from citecore.report.labels import one_line


def _level(findings: list[Finding]) -> str:
    return max((f.severity for f in findings), key=lambda s: s.rank).value


def render_verdicts(result: CheckResult, note_limit: int = 140) -> str:
    """The verdict file for citecheck.sty."""
    by_key: dict[str, list[Finding]] = defaultdict(list)
    for item in result.findings:
        if item.key and item.severity is not Severity.INFO:
            by_key[item.key].append(item)
    lines = ["% Written by citecheck; read by citecheck.sty. Do not edit."]
    for key, findings in sorted(by_key.items()):
        reasons = " · ".join(dict.fromkeys(f"{f.kind.value}: {f.message}" for f in findings))
        note = escape_latex(one_line(reasons, note_limit))
        lines.append(f"\\citecheckVerdict{{{key}}}{{{_level(findings)}}}{{{note}}}")
    for item in result.findings:
        if item.severity is Severity.INFO or item.location is None or item.location.line is None:
            continue
        text = escape_latex(
            f"{item.location}: [{item.kind.value}] {item.key or ''}: {one_line(item.message, 200)}"
        )
        lines.append(f"\\citecheckWarning{{{item.location.line}}}{{{text}}}")
    return "\n".join(lines) + "\n"
