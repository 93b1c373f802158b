"""Counts that every report opens with."""

from __future__ import annotations

from collections import Counter
from typing import Any

from citecore.model import CheckResult


def summary(result: CheckResult) -> dict[str, Any]:
    """Counts of citations, references, reference verdicts, grounding statuses and findings."""
    grounding = Counter(g.status.value for g in result.grounding.values())
    return {
        "citations": len(result.citations),
        "references": len(result.references),
        "by_verdict": dict(Counter(r.verdict.value for r in result.references.values())),
        "by_status": dict(grounding),
        "by_severity": dict(Counter(f.severity.value for f in result.findings)),
        "by_kind": dict(Counter(f.kind.value for f in result.findings)),
    }
