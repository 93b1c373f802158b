"""Literature-pool rules (docs/design.md, "Rules"): coverage of the pool by the
document, and the publication cut-off.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from citecore.findings import finding
from citecore.model import (
    Bibliography,
    Citation,
    Finding,
    FindingKind,
    ReferenceResult,
    SourceLocation,
)
from citecore.pool.model import Pool, PoolPaper, load_pool

DEFAULT_THRESHOLD = 0.9


@dataclass(frozen=True, slots=True)
class Coverage:
    """How much of a pool a document cites."""

    cited: int
    total: int
    required: int
    uncited: dict[str, list[PoolPaper]]
    outside: list[str]

    @property
    def passed(self) -> bool:
        """At least the required number of pool papers are cited."""
        return self.cited >= self.required

    def summary(self) -> str:
        """`cited/N (xx.x%)`."""
        share = 100.0 * self.cited / self.total if self.total else 100.0
        return f"{self.cited}/{self.total} ({share:.1f}%)"


def coverage(
    pool: Pool, cited_keys: Sequence[str], threshold: float = DEFAULT_THRESHOLD
) -> Coverage:
    """Coverage of `pool` by the cited keys: at least ⌊threshold·N⌋ (or the pool's own
    `min_cite_paper_count`, if larger) must be cited; uncited papers grouped by cluster."""
    papers = pool.by_key()
    cited = set(cited_keys)
    required = math.floor(threshold * len(papers))
    if pool.min_cite_paper_count is not None:
        required = max(required, pool.min_cite_paper_count)
    uncited: dict[str, list[PoolPaper]] = defaultdict(list)
    for paper in pool.papers:
        if paper.key not in cited:
            for tag in paper.discovered_for or ("(no cluster)",):
                uncited[tag].append(paper)
    outside = sorted(k for k in cited if k not in papers)
    return Coverage(len(cited & papers.keys()), len(papers), required, dict(uncited), outside)


def reprompt(result: Coverage) -> str:
    """A ready-to-paste request to cite the missing papers, by cluster."""
    lines = [
        f"The draft cites {result.summary()} of the literature pool; cite at least "
        f"{result.required}. Add citations for these papers, where they fit:"
    ]
    for tag, papers in sorted(result.uncited.items()):
        lines.append(f"\n{tag}:")
        lines.extend(f"- [@{p.key}] {p.title} ({p.year or 'n.d.'})" for p in papers)
    if result.outside:
        lines.append(
            "\nCite only the pool; these keys are not in it: "
            + ", ".join(f"@{k}" for k in result.outside)
        )
    return "\n".join(lines) + "\n"


def cutoff_date(value: str) -> dt.date:
    """The cut-off as a date ("2024-10-01", "2024-10", "2024")."""
    return _date_of(value, end_of_period=False)


def _date_of(text: str, end_of_period: bool) -> dt.date:
    match = re.fullmatch(r"\s*(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?\s*", text)
    if match is None:
        raise ValueError(f"not a date: {text!r}")
    year, month, day = match.group(1), match.group(2), match.group(3)
    if day:
        return dt.date(int(year), int(month), int(day))
    if month:
        return dt.date(int(year), int(month), 1)
    return dt.date(int(year), 12, 31) if end_of_period else dt.date(int(year), 1, 1)


def publication_date(date_text: str, year: int | None) -> dt.date | None:
    """When a work counts as published for the cut-off: a full date is itself, year and month
    the 1st of the month, a year alone December 31 of that year."""
    # A biblatex or EDTF range ("2024-09/2024-10") was published when it began.
    start = date_text.split("/")[0].strip()
    for text in (start, str(year or "")):
        if text:
            try:
                return _date_of(text, end_of_period=True)
            except ValueError:
                continue
    return None


def before_cutoff(date_text: str, year: int | None, cutoff: dt.date) -> bool | None:
    """Whether the work strictly predates the cut-off; None when its date is unknown."""
    published = publication_date(date_text, year)
    return None if published is None else published < cutoff


def pool_findings(
    citations: Sequence[Citation],
    bibliography: Bibliography,
    results: Mapping[str, ReferenceResult],
    pool_path: Path | None,
    threshold: float,
    cutoff: str,
) -> list[Finding]:
    """Coverage of the pool (when a pool is set), keys cited outside it, and cited works not
    strictly before the cut-off (when one is set)."""
    findings: list[Finding] = []
    cited = list(dict.fromkeys(c.key for c in citations))
    if pool_path is not None:
        pool, _ = load_pool(pool_path)
        result = coverage(pool, cited, threshold)
        if not result.passed:
            missing = "; ".join(
                f"{tag}: {', '.join(p.key for p in papers)}"
                for tag, papers in sorted(result.uncited.items())
            )
            findings.append(
                finding(
                    FindingKind.COVERAGE,
                    f"the document cites {result.summary()} of the pool, {result.required} "
                    f"required; uncited by cluster: {missing}",
                    None,
                    SourceLocation(str(pool_path)),
                )
            )
        first = {c.key: c.location for c in citations}
        findings.extend(
            finding(
                FindingKind.NOT_IN_POOL, "cited, but not in the literature pool", key, first[key]
            )
            for key in result.outside
        )
    if cutoff:
        limit = cutoff_date(cutoff)
        first = {c.key: c.location for c in citations}
        for key in cited:
            reference = bibliography.references.get(key)
            if reference is None:
                continue
            verdict = results.get(key)
            match = verdict.match if verdict is not None else None
            for source, date_text, year in (
                ("the bibliography", reference.date, reference.year),
                (match.source if match else "", "", match.year if match else None),
            ):
                if source and before_cutoff(date_text, year, limit) is False:
                    when = date_text or str(year)
                    findings.append(
                        finding(
                            FindingKind.CUTOFF,
                            f"{source} dates it {when}, not before the cut-off {limit.isoformat()}",
                            key,
                            first[key],
                        )
                    )
                    break
    return findings
