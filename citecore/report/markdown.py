"""REVIEW-CITES.md: summary counts, then one table row per finding, in document order."""

from __future__ import annotations

from citecore.model import CheckResult, GroundingStatus, ReferenceResult, Severity
from citecore.report.correction import corrected_bibtex
from citecore.report.labels import one_line, where
from citecore.report.summary import summary

_ICONS = {Severity.ERROR: "❌ error", Severity.WARNING: "⚠️ warning", Severity.INFO: "ℹ️ info"}


def _cell(text: str, limit: int = 0) -> str:
    """Text safe inside a Markdown table cell."""
    return one_line(text, limit).replace("|", "\\|")


def render(result: CheckResult, only_issues: bool = False) -> str:
    """REVIEW-CITES.md as text."""
    counts = summary(result)
    claims = {(c.location.file, c.location.line, c.key): c.claim for c in result.citations}
    lines = ["# Citation review", ""]
    if result.documents:  # a bibliography checked alone has no documents and no citations
        lines.append(f"Documents: {', '.join(f'`{d}`' for d in result.documents)}  ")
    lines += [
        "Bibliographies: " + (", ".join(f"`{b}`" for b in result.bibliography.sources) or "none"),
        "",
        (
            f"- **{counts.citations}** citations of **{len({c.key for c in result.citations})}**"
            f" keys; **{counts.references}** bibliography entries"
            if result.documents
            else f"- **{counts.references}** bibliography entries"
        ),
        "- findings: "
        + (", ".join(f"{n} {s}" for s, n in sorted(counts.by_severity.items())) or "none"),
        "- reference verdicts: "
        + ", ".join(f"{n} {v}" for v, n in sorted(counts.by_verdict.items())),
    ]
    if result.grounding:
        ungrounded = sum(1 for g in result.grounding.values() if g.ungrounded)
        lines.append(
            "- grounding: "
            + ", ".join(f"{n} {s}" for s, n in sorted(counts.by_status.items()))
            + f" ({ungrounded} ungrounded)"
        )
    lines += [
        "",
    ]
    findings = [f for f in result.findings if not only_issues or f.severity is not Severity.INFO]
    supported = [] if only_issues else _supported_claims(result)
    if not findings:
        lines.append("No problems found.")
        return "\n".join(lines + supported) + "\n"
    lines += [
        "| status | where | key | claim | details |",
        "|---|---|---|---|---|",
    ]
    cited_at: dict[str, list[str]] = {}
    for citation in result.citations:
        cited_at.setdefault(citation.key, []).append(str(citation.location))
    for item in findings:
        claim = ""
        if item.location is not None:
            claim = claims.get((item.location.file, item.location.line, item.key or ""), "")
        if not claim and item.key in cited_at:  # a problem of the entry: say where it is cited
            places = cited_at[item.key]
            claim = "cited at " + ", ".join(places[:5]) + (" …" if len(places) > 5 else "")
        lines.append(
            f"| {_ICONS[item.severity]} `{item.kind.value}` | {_cell(where(item))} "
            f"| {_cell(item.key or '')} | {_cell(claim, 160)} | {_cell(item.message)} |"
        )
    return "\n".join(lines + supported + _corrections(result)) + "\n"


def _supported_claims(result: CheckResult) -> list[str]:
    """Each claim its source supports, with the passage and page that support it."""
    entries = []
    for index, grounding in sorted(result.grounding.items()):
        if grounding.status not in (GroundingStatus.SUPPORTED, GroundingStatus.PARTIAL):
            continue
        citation = result.citations[index]
        page = f", p. {grounding.page}" if grounding.page else ""
        passage = f": “{one_line(grounding.passage, 300)}”" if grounding.passage else ""
        entries.append(
            f"- {citation.location} `{citation.key}`, {grounding.status.value}{page} "
            f"({grounding.judge} judge){passage}  \n  claim: {one_line(citation.claim, 300)}"
        )
    return ["", "## Claims and the passages that support them", "", *entries] if entries else []


def _corrections(result: CheckResult) -> list[str]:
    """The registry's record of each mismatched or suggested entry, under the writer's key."""
    entries = []
    for key, verdict in result.references.items():
        reference = result.bibliography.references.get(key)
        entry = corrected_bibtex(reference, verdict) if reference is not None else ""
        if entry:
            entries += [
                "",
                f"`{key}` as the registry records it ({_source(verdict)}):",
                "",
                "```bibtex",
                entry.rstrip("\n"),
                "```",
            ]
    if not entries:
        return []
    return ["", "## Corrections", "", "citecheck changes nothing: apply what is right.", *entries]


def _source(verdict: ReferenceResult) -> str:
    record = verdict.suggested or verdict.match
    return record.source.value if record is not None else "registry"
