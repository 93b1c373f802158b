"""Which findings fail the build (`fail-on` and strict mode), and the exit status that says so."""

from __future__ import annotations

from collections.abc import Iterable

from citecore.errors import ExitCode
from citecore.model import SEVERITY, CheckResult, Finding, FindingKind, Severity
from citecore.options import Options


def failing_kinds(options: Options) -> frozenset[FindingKind]:
    """The finding kinds that fail this run: `fail-on` when given, else every error-level kind
    in strict mode, else none. A strict run also fails on an option value it had to ignore."""
    strict = frozenset({FindingKind.BAD_OPTION}) if options.strict else frozenset()
    if options.fail_on is not None:
        return options.fail_on | strict
    if options.strict:
        return strict | {k for k, s in SEVERITY.items() if s is Severity.ERROR}
    return frozenset()


def failing_findings(findings: Iterable[Finding], options: Options) -> list[Finding]:
    """The findings that make this run fail (exit 1, or a failed pandoc/latexmk build)."""
    kinds = failing_kinds(options)
    return [f for f in findings if f.kind in kinds]


def exit_status(result: CheckResult, options: Options) -> ExitCode:
    """The exit status of a run, for every shell alike: 70 when checking hit a bug in
    citecheck, 2 for a bad option value that fails the run, then an outage only when `fail-on`
    names `outage` (4 when a registry kept rate-limiting, else 6), then 1 for any other failing
    finding (a missing bibliography among them, as `strict`/`fail-on` decide), else 0. By
    default an outage is noted and the build goes on."""
    if any(f.kind is FindingKind.INTERNAL_ERROR for f in result.findings):
        return ExitCode.INTERNAL_ERROR  # a bug is a bug, whatever `fail-on` says
    failing = failing_findings(result.findings, options)
    if any(f.kind is FindingKind.BAD_OPTION for f in failing):
        return ExitCode.BAD_INPUT
    if result.outage is not None and any(f.kind is FindingKind.OUTAGE for f in failing):
        return ExitCode.RATE_LIMITED if result.outage.rate_limited else ExitCode.UNREACHABLE
    return ExitCode.FINDINGS if failing else ExitCode.OK
