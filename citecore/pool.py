"""Literature-pool rules (DESIGN.md, "Rules for a literature pool"): the pool file, coverage of
the pool by the document, and the publication cut-off.

A pool is `{"papers": [...], "min_cite_paper_count": n}`; each paper has a title, year,
authors, venue, abstract, externalIds (DOI, ArXiv), paperId, `discovered_for` tags and optionally
a `bibtex_key`. Papers without a key get the deterministic one BibTeX export would give them.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from citecore.checks import finding
from citecore.errors import InputError
from citecore.model import (
    Bibliography,
    Citation,
    Finding,
    FindingKind,
    ReferenceResult,
    SourceLocation,
)
from citecore.normalize import fold

_STOP_TITLE = frozenset(
    "a an the of on in for to and with from by at is are towards toward".split()
)
DEFAULT_THRESHOLD = 0.9


@dataclass(frozen=True, slots=True)
class PoolPaper:
    """One paper of a literature pool."""

    key: str
    title: str
    year: int | None
    authors: tuple[str, ...]
    venue: str
    abstract: str
    doi: str
    arxiv_id: str
    paper_id: str
    discovered_for: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PoolProblem:
    """A schema problem of one pool paper (error or warning), and whether --fix can fix it."""

    index: int
    severity: str
    message: str
    fixable: bool = False


@dataclass(frozen=True, slots=True)
class Pool:
    """A loaded pool: its papers, by key, and what it asks of a document."""

    path: str
    papers: tuple[PoolPaper, ...]
    min_cite_paper_count: int | None

    def by_key(self) -> dict[str, PoolPaper]:
        """The papers by their citation key."""
        return {p.key: p for p in self.papers}


def generate_key(authors: Sequence[str], year: int | None, title: str, taken: set[str]) -> str:
    """First author's family name + year + first significant title word, lower-case ASCII, with
    a letter suffix on collision (`smith2020deep`, `smith2020deepa`)."""
    family = fold(authors[0]).split()[-1] if authors and fold(authors[0]) else "anon"
    words = [w for w in fold(title).split() if w not in _STOP_TITLE]
    base = re.sub(r"[^a-z0-9]", "", f"{family}{year or ''}{words[0] if words else ''}")
    key, suffix = base, 0
    while key in taken:
        key = base + chr(ord("a") + suffix % 26) * (suffix // 26 + 1)
        suffix += 1
    taken.add(key)
    return key


def _authors(value: Any, index: int, problems: list[PoolProblem]) -> tuple[str, ...]:
    names = []
    for author in value if isinstance(value, list) else []:
        if isinstance(author, Mapping) and author.get("name"):
            names.append(str(author["name"]))
        elif isinstance(author, str) and author.strip():
            names.append(author.strip())
            problems.append(
                PoolProblem(
                    index,
                    "warning",
                    f'author {author!r} is a plain string; expected {{"name": …}}',
                    fixable=True,
                )
            )
    return tuple(dict.fromkeys(names))


def parse_pool(data: Any, path: str) -> tuple[Pool, list[PoolProblem]]:
    """A pool from its JSON data, and the schema problems found (missing title or year: error;
    missing abstract, venue, authors or paperId: warning)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("papers"), list):
        raise InputError(f'{path}: not a pool file (expected {{"papers": [...]}})')
    problems: list[PoolProblem] = []
    papers = []
    taken: set[str] = set()
    for index, item in enumerate(data["papers"]):
        if not isinstance(item, Mapping):
            problems.append(PoolProblem(index, "error", "not an object"))
            continue
        title = " ".join(str(item.get("title") or "").split())
        year_text = str(item.get("year") or "")
        year = int(year_text) if year_text.isdigit() else None
        if not title:
            problems.append(PoolProblem(index, "error", "missing title"))
        if year is None:
            problems.append(PoolProblem(index, "error", "missing year"))
        for field, label in (
            ("abstract", "abstract"),
            ("venue", "venue"),
            ("authors", "authors"),
            ("paperId", "paperId"),
        ):
            if not item.get(field):
                problems.append(PoolProblem(index, "warning", f"missing {label}"))
        authors = _authors(item.get("authors"), index, problems)
        ids = item.get("externalIds") or {}
        key = str(item.get("bibtex_key") or "") or generate_key(authors, year, title, taken)
        taken.add(key)
        tags = item.get("discovered_for") or []
        papers.append(
            PoolPaper(
                key=key,
                title=title,
                year=year,
                authors=authors,
                venue=str(item.get("venue") or ""),
                abstract=str(item.get("abstract") or ""),
                doi=str(ids.get("DOI") or "").lower(),
                arxiv_id=str(ids.get("ArXiv") or ""),
                paper_id=str(item.get("paperId") or ""),
                discovered_for=tuple(str(t) for t in (tags if isinstance(tags, list) else [tags])),
            )
        )
    minimum = data.get("min_cite_paper_count")
    count = int(str(minimum)) if str(minimum or "").isdigit() else None
    return Pool(path, tuple(papers), count), problems


def load_pool(path: Path) -> tuple[Pool, list[PoolProblem]]:
    """Read a pool file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"{path}: cannot read pool: {exc.strerror}") from exc
    except ValueError as exc:
        raise InputError(f"{path}: not valid JSON: {exc}") from exc
    return parse_pool(data, str(path))


def fix_pool(path: Path) -> int:
    """Fix what can be fixed in place (plain-string authors become `{"name": …}`, missing keys
    are written as `bibtex_key`); the number of papers changed."""
    data = json.loads(path.read_text(encoding="utf-8"))
    pool, _ = parse_pool(data, str(path))
    changed = 0
    for item, paper in zip(data["papers"], pool.papers, strict=False):
        before = json.dumps(item, sort_keys=True)
        if isinstance(item.get("authors"), list):
            item["authors"] = [{"name": a} if isinstance(a, str) else a for a in item["authors"]]
        item.setdefault("bibtex_key", paper.key)
        changed += json.dumps(item, sort_keys=True) != before
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return changed


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
