"""Build-log lines in pandoc's own style, one per finding, for stderr."""

from __future__ import annotations

from citecore.model import CheckResult, Finding, ReferenceVerdict, Severity
from citecore.report.labels import one_line, where


def warning_line(item: Finding, failing: bool = False) -> str:
    """`[WARNING] citecheck: paper.md:42: [undefined] smith2020: …` (`[ERROR]` when it fails the
    build, `[INFO]` for information)."""
    level = "ERROR" if failing else "INFO" if item.severity is Severity.INFO else "WARNING"
    place = f"{where(item)}: " if item.location else ""
    key = f" {item.key}:" if item.key else ""
    # One line whatever the message holds: a registry title may carry a newline, and a build
    # log is read (and grepped) line by line.
    return f"[{level}] citecheck: {place}[{item.kind.value}]{key} {one_line(item.message)}"


_NOT_CHECKED = (ReferenceVerdict.UNVERIFIABLE, ReferenceVerdict.UNCHECKED)


def offline_line(
    result: CheckResult, offline: bool, how: str = "run again without --offline"
) -> str:
    """For a run that asked nothing but the cache: one line saying how many of the cited
    references (and those listed with nocite; every entry, for a bare bibliography) it could not
    check and how to check them; "" when it checked them all or was online. A clean offline run
    is not a clean reference list."""
    if not offline:
        return ""
    cited = (
        {c.key for c in result.citations} | set(result.nocite)
        if result.citations or result.nocite
        else set(result.references)
    )
    checked = [result.references[k] for k in cited if k in result.references]
    unchecked = [r for r in checked if r.verdict in _NOT_CHECKED]
    if not unchecked:
        return ""
    return (
        f"[WARNING] citecheck: offline: {len(unchecked)} of {len(checked)} references were not "
        f"checked against the registries (nothing cached for them); {how} to check them"
    )
