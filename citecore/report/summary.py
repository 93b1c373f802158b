"""Counts that every report opens with."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from citecore.model import CheckResult


@dataclass(frozen=True, slots=True)
class Summary:
    """How many citations and entries a run saw, and its verdicts, statuses and findings by
    name (value → count)."""

    citations: int
    references: int
    by_verdict: dict[str, int]
    by_status: dict[str, int]
    by_severity: dict[str, int]
    by_kind: dict[str, int]


def summary(result: CheckResult) -> Summary:
    """Counts of citations, references, reference verdicts, grounding statuses and findings."""
    return Summary(
        citations=len(result.citations),
        references=len(result.references),
        by_verdict=dict(Counter(r.verdict.value for r in result.references.values())),
        by_status=dict(Counter(g.status.value for g in result.grounding.values())),
        by_severity=dict(Counter(f.severity.value for f in result.findings)),
        by_kind=dict(Counter(f.kind.value for f in result.findings)),
    )
