"""The build log of one check: the lines every shell prints on stderr, made in one place.

The pandoc filter, the latexmk hook, the pre-commit hook and the `check`/`latex`/`verify`
commands print the same lines in the same order: one per finding (only those that fail the run
when `quiet` is set), then, for an offline run, how many references it could not check and how
to check them, and last how many problems fail the run. Two styles: pandoc's (`[WARNING]
citecheck: …`, the level marking what fails) and latexmk's (`citecheck: …`, the way its log
prints a tool's lines; with no level to tell them apart, a failing build shows only what
fails).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from pathlib import Path

from citecore.model import CheckResult, Finding, Severity
from citecore.options import Options
from citecore.policy import failing_findings
from citecore.report.warnings import offline_line, warning_line

_PANDOC_PREFIXES = ("[ERROR] ", "[WARNING] ", "[INFO] ")


class LogStyle(enum.Enum):
    """How a build's log shows citecheck's lines."""

    PANDOC = "pandoc"  # [WARNING] citecheck: paper.md:3: [not_found] smith: …
    LATEXMK = "latexmk"  # citecheck: main.tex:3: [not_found] smith: …


def build_log(
    result: CheckResult,
    options: Options,
    *,
    rerun: str,
    style: LogStyle = LogStyle.PANDOC,
    findings: bool = True,
    what_fails: str = "this build",
    report: Path | None = None,
) -> list[str]:
    """The lines of one check's log, in `style`: one per finding (with `findings`; only the
    failing ones under `options.quiet`, and information only when it fails), then the offline
    line telling how to check what was not (`rerun`), then "N citation problem(s) fail
    `what_fails`" (naming the `report` written) when any fail."""
    failing = failing_findings(result.findings, options)
    failed = set(failing)
    lines: list[str] = []
    if findings:
        lines += [
            warning_line(f, f in failed) for f in _shown(result.findings, failing, options, style)
        ]
    offline = offline_line(result, options.offline, rerun)
    if offline:
        lines.append(offline)
    if failing:  # the last line of a failed build says why it failed
        see = f"; see {report}" if report is not None else ""
        lines.append(
            f"[ERROR] citecheck: {len(failing)} citation problem(s) fail {what_fails}{see}"
        )
    return lines if style is LogStyle.PANDOC else [_without_level(line) for line in lines]


def _shown(
    findings: Sequence[Finding], failing: list[Finding], options: Options, style: LogStyle
) -> Sequence[Finding]:
    """What the log shows: under `quiet` only what fails; in latexmk's style, where no level
    tells them apart, only what fails when anything does; else every finding that is not mere
    information (information that fails is shown)."""
    if options.quiet or (style is LogStyle.LATEXMK and failing):
        return failing
    failed = set(failing)
    return [f for f in findings if f.severity is not Severity.INFO or f in failed]


def _without_level(line: str) -> str:
    for prefix in _PANDOC_PREFIXES:
        if line.startswith(prefix):
            return line.removeprefix(prefix)
    return line
