"""REVIEW-CITES.md: what to fix first, one row per reference with a problem; the counts; the
information folded below; the supported claims and the corrections."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable

from citecore.model import CheckResult, Finding, GroundingStatus, ReferenceResult, Severity
from citecore.report.correction import corrected_bibtex
from citecore.report.labels import one_line, where
from citecore.report.summary import Summary, summary

_ICONS = {Severity.ERROR: "❌ error", Severity.WARNING: "⚠️ warning", Severity.INFO: "ℹ️ info"}


def _cell(text: str, limit: int = 0) -> str:
    """Text safe inside a Markdown table cell."""
    return one_line(text, limit).replace("|", "\\|")


def render(result: CheckResult, only_issues: bool = False) -> str:
    """REVIEW-CITES.md as text: what to fix first (one row per reference with a problem, the
    lines that cite it, every problem of it; then the problems of the document or the run),
    the counts, the information folded below, then supported claims and corrections."""
    counts = summary(result)
    lines = ["# Citation review", ""]
    if result.documents:  # a bibliography checked alone has no documents and no citations
        lines.append(f"Documents: {', '.join(f'`{d}`' for d in result.documents)}  ")
    lines += [
        "Bibliographies: " + (", ".join(f"`{b}`" for b in result.bibliography.sources) or "none"),
        "",
    ]
    problems = [f for f in result.findings if f.severity is not Severity.INFO]
    information = [f for f in result.findings if f.severity is Severity.INFO]
    rows = _problem_rows(result, problems)
    if rows:
        worst = Counter(severity for severity, _ in rows)
        tally = ", ".join(
            f"{worst[s]} {s.value}" for s in (Severity.ERROR, Severity.WARNING) if worst[s]
        )
        lines += [
            "## What to fix",
            "",
            f"{len(rows)} to fix ({tally}), one row each:",
            "",
            "| status | reference | cited at | problems |",
            "|---|---|---|---|",
            *(row for _, row in rows),
            "",
        ]
    else:
        lines += ["No problems found.", ""]
    lines += ["## Counts", "", *_counts(result, counts)]
    if information and not only_issues:
        lines += ["", *_information(result, information)]
    supported = [] if only_issues else _supported_claims(result)
    sources = _sources(result, only_issues)
    return "\n".join(lines + supported + sources + _corrections(result)) + "\n"


def _cited_at(result: CheckResult) -> dict[str, list[str]]:
    cited: dict[str, list[str]] = {}
    for citation in result.citations:
        cited.setdefault(citation.key, []).append(str(citation.location))
    for key in result.nocite:  # listed uncited: nocite is where it comes from
        cited.setdefault(key, []).append("nocite")
    return cited


def _places(places: list[str]) -> str:
    unique = list(dict.fromkeys(places))
    return ", ".join(unique[:6]) + (f" and {len(unique) - 6} more" if len(unique) > 6 else "")


def _claim_of(result: CheckResult) -> Callable[[Finding], str]:
    """The claim a finding is about: its citation's, by the citation's identity; for a finding
    of no one citation, the claim of the citation of its key at its place."""
    by_ident = {c.ident: c.claim for c in result.citations}
    by_place = {(c.location.file, c.location.line, c.key): c.claim for c in result.citations}

    def claim(item: Finding) -> str:
        if item.citation is not None:
            return by_ident.get(item.citation, "")
        if item.location is None:
            return ""
        return by_place.get((item.location.file, item.location.line, item.key or ""), "")

    return claim


def _problem_rows(result: CheckResult, problems: list[Finding]) -> list[tuple[Severity, str]]:
    """One row per key with a problem (its entry's place, where it is cited, each problem once,
    with the claim where a problem is about one citation), then one per problem of no key."""
    claim_of = _claim_of(result)
    cited_at = _cited_at(result)
    by_key: dict[str, list[Finding]] = {}
    keyless: list[Finding] = []
    for item in problems:
        if item.key:
            by_key.setdefault(item.key, []).append(item)
        else:
            keyless.append(item)
    rows = []
    for key, found in by_key.items():
        # The entry's place: a finding of it in the bibliography (an unparsed entry is no
        # reference), else the reference's own.
        placed = [
            f.location for f in found if f.location and f.location.file not in result.documents
        ]
        reference = result.bibliography.references.get(key)
        if not placed and reference is not None and reference.location.line:
            placed = [reference.location]
        entry = f" ({_cell(str(placed[0]))})" if placed else ""
        said: dict[str, None] = {}
        for item in found:
            at = ""
            if item.location is not None and item.location.file in result.documents:
                claim = claim_of(item)
                at = f" (at {item.location}{': “' + one_line(claim, 120) + '”' if claim else ''})"
            said.setdefault(
                f"`{item.kind.value}` {_cell(item.message)}{' ' + _cell(at) if at else ''}"
            )
        # A problem said at the entry and again at each citation is one problem.
        problems_text = "<br>".join(_dedupe_places(list(said)))
        severity = max((f.severity for f in found), key=lambda s: s.rank)
        rows.append(
            (
                severity,
                f"| {_ICONS[severity]} | `{_cell(key)}`{entry} "
                f"| {_cell(_places(cited_at.get(key, [])))} | {problems_text} |",
            )
        )
    for item in keyless:
        rows.append(
            (
                item.severity,
                f"| {_ICONS[item.severity]} | {_cell(where(item)) or 'the run'} | "
                f"| `{item.kind.value}` {_cell(item.message)} |",
            )
        )
    order = {Severity.ERROR: 0, Severity.WARNING: 1}
    return sorted(rows, key=lambda r: order.get(r[0], 2))


def _dedupe_places(said: list[str]) -> list[str]:
    """Problems that differ only by the citation they were said at, once (with no place)."""
    bare = [re.sub(r" \(at [^)]*\)$", "", line) for line in said]
    counted = Counter(bare)
    kept: list[str] = []
    for line, plain in zip(said, bare, strict=True):
        text = plain if counted[plain] > 1 else line
        if text not in kept:
            kept.append(text)
    return kept


def _counts(result: CheckResult, counts: Summary) -> list[str]:
    lines = []
    if result.documents:
        keys = len({c.key for c in result.citations})
        listed = f"**{len(result.nocite)}** listed with nocite; " if result.nocite else ""
        lines.append(
            f"- **{counts.citations}** citations of **{keys}** keys; {listed}"
            f"**{counts.references}** bibliography entries"
        )
    else:
        lines.append(f"- **{counts.references}** bibliography entries")
    lines.append(
        "- reference verdicts: "
        + (", ".join(f"{n} {v}" for v, n in sorted(counts.by_verdict.items())) or "none")
    )
    if result.grounding:
        ungrounded = sum(1 for g in result.grounding.values() if g.ungrounded)
        lines.append(
            "- grounding: "
            + ", ".join(f"{n} {s}" for s, n in sorted(counts.by_status.items()))
            + f" ({ungrounded} ungrounded)"
        )
    return lines


def _information(result: CheckResult, information: list[Finding]) -> list[str]:
    """Information-level findings, folded (HTML `<details>` renders folded on GitHub and in
    pandoc's HTML; a plain Markdown reader shows it as is)."""
    claim_of = _claim_of(result)
    kinds = Counter(f.kind.value for f in information)
    said = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
    lines = [
        "<details>",
        f"<summary>Information: {said}</summary>",
        "",
        "| kind | where | key | claim | details |",
        "|---|---|---|---|---|",
    ]
    for item in information:
        claim = claim_of(item)
        if not claim and item.key in result.nocite:
            claim = "(listed with nocite: no claim)"
        lines.append(
            f"| `{item.kind.value}` | {_cell(where(item))} | {_cell(item.key or '')} "
            f"| {_cell(claim, 160)} | {_cell(item.message)} |"
        )
    return [*lines, "", "</details>"]


def _supported_claims(result: CheckResult) -> list[str]:
    """Each claim its source supports, with the passage and page that support it."""
    entries = []
    for citation in result.citations:
        grounding = result.grounding_of(citation)
        if grounding is None or grounding.status not in (
            GroundingStatus.SUPPORTED,
            GroundingStatus.PARTIAL,
        ):
            continue
        page = f", p. {grounding.page}" if grounding.page else ""
        passage = f": “{one_line(grounding.passage, 300)}”" if grounding.passage else ""
        entries.append(
            f"- {citation.location} `{citation.key}`, {grounding.status.value}{page} "
            f"({grounding.judge} judge){passage}  \n  claim: {one_line(citation.claim, 300)}"
        )
    return ["", "## Claims and the passages that support them", "", *entries] if entries else []


def _sources(result: CheckResult, only_issues: bool) -> list[str]:
    """Each cited key's source for grounding and where it came from, or why it has none."""
    if not result.sources:
        return []
    have = [r for r in result.sources.values() if r.files]
    fetched = [r for r in have if r.origin not in ("file field", "sources folder", "")]
    rows = [
        f"| `{_cell(r.key)}` | {_cell(r.origin) or 'none'} "
        f"| {_cell(', '.join(f'`{f}`' for f in r.files) or r.missing)} |"
        for r in result.sources.values()
        if not (only_issues and r.files)
    ]
    said = f"{len(have)} of {len(result.sources)} cited keys have a source to ground against"
    if fetched:
        said += f" ({len(fetched)} fetched by `citecheck sources fetch`)"
    table = ["| key | source | file, or why there is none |", "|---|---|---|", *rows]
    return ["", "## Sources", "", said + ".", *(["", *table] if rows else [])]


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
