"""Which findings fail the build: `fail-on` and strict mode."""

from __future__ import annotations

from collections.abc import Iterable

from citecore.checks import SEVERITY
from citecore.model import Finding, FindingKind, Severity
from citecore.options import Options


def failing_kinds(options: Options) -> frozenset[FindingKind]:
    """The finding kinds that fail this run: `fail-on` when given, else every error-level kind
    in strict mode, else none."""
    if options.fail_on is not None:
        return options.fail_on
    if options.strict:
        return frozenset(k for k, s in SEVERITY.items() if s is Severity.ERROR)
    return frozenset()


def failing_findings(findings: Iterable[Finding], options: Options) -> list[Finding]:
    """The findings that make this run fail (exit 1, or a failed pandoc/latexmk build)."""
    kinds = failing_kinds(options)
    return [f for f in findings if f.kind in kinds]
