"""Building a literature pool from raw search candidates (`citecheck pool verify`).

Candidates (`title`, `snippet`, `url`, `discovered_for`) are first deduplicated among
themselves (the same arXiv id in URL or snippet, or normalized titles at ratio ≥ 92, their
`discovered_for` tags merged), then each is searched by title (Crossref and arXiv). A hit is
accepted when its title matches at Levenshtein ratio > 70, or — for candidates of fewer than
four words — when the hit's title contains the candidate's. An accepted paper needs an abstract
and, with a cut-off, a publication strictly before it. Accepted papers are deduplicated by
paperId → DOI → arXiv id → normalized title, keeping the higher match score.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from citecore.identifiers import arxiv_in_text
from citecore.normalize import normalized_title
from citecore.pool.model import PoolPaper, title_score
from citecore.pool.policy import before_cutoff
from citecore.registries import arxiv, crossref
from citecore.registries.http import RegistryClient
from citecore.registries.record import WorkRecord
from citecore.registries.request import Status

PREDEDUP_RATIO = 92
ACCEPT_RATIO = 70
SHORT_TITLE_WORDS = 4


@dataclass(frozen=True, slots=True)
class Candidate:
    """A raw search result, and the tags of every duplicate merged into it."""

    title: str
    snippet: str = ""
    url: str = ""
    discovered_for: tuple[str, ...] = ()

    @property
    def arxiv_id(self) -> str:
        """The arXiv id in the URL or snippet, without version."""
        found = arxiv_in_text(f"{self.url} {self.snippet}")
        return found.split("v")[0] if found and "/" not in found else found


@dataclass
class Outcome:
    """What building the pool did with every candidate."""

    accepted: list[PoolPaper] = field(default_factory=list)
    rejected: list[tuple[str, str]] = field(default_factory=list)


def parse_candidates(data: Any) -> list[Candidate]:
    """Candidates from JSON: a list, or `{"candidates": [...]}`."""
    items = data.get("candidates", []) if isinstance(data, Mapping) else data
    found = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, Mapping) and str(item.get("title") or "").strip():
            tags = item.get("discovered_for") or []
            found.append(
                Candidate(
                    " ".join(str(item["title"]).split()),
                    str(item.get("snippet") or ""),
                    str(item.get("url") or ""),
                    tuple(str(t) for t in (tags if isinstance(tags, list) else [tags])),
                )
            )
    return found


def prededup(candidates: Sequence[Candidate]) -> list[Candidate]:
    """Candidates with duplicates merged (same arXiv id, or titles at ratio ≥ 92)."""
    kept: list[Candidate] = []
    for candidate in candidates:
        for index, other in enumerate(kept):
            same_arxiv = candidate.arxiv_id and candidate.arxiv_id == other.arxiv_id
            if same_arxiv or title_score(candidate.title, other.title) >= PREDEDUP_RATIO:
                tags = tuple(dict.fromkeys(other.discovered_for + candidate.discovered_for))
                kept[index] = replace(other, discovered_for=tags)
                break
        else:
            kept.append(candidate)
    return kept


def match_score(candidate: str, hit: str) -> float:
    """The acceptance score of a hit: Levenshtein ratio of normalized titles, or 100 for a
    short candidate title the hit's title contains."""
    wanted, found = normalized_title(candidate), normalized_title(hit)
    if len(wanted.split()) < SHORT_TITLE_WORDS and wanted and wanted in found:
        return 100.0
    return title_score(wanted, found)


async def _best_hit(
    client: RegistryClient, candidate: Candidate
) -> tuple[WorkRecord, float] | None:
    hits: list[WorkRecord] = []
    for search in (crossref.TITLE_SEARCH, arxiv.TITLE_SEARCH):
        response = await client.fetch(search.ask(candidate.title))
        if response.status is Status.OK:
            try:
                hits.extend(search.parse(response.body))
            except ValueError:
                continue
    scored = [(hit, match_score(candidate.title, hit.title)) for hit in hits]
    best = max(scored, key=lambda pair: (pair[1], bool(pair[0].abstract)), default=None)
    return best


def _paper(candidate: Candidate, hit: WorkRecord, score: float) -> PoolPaper:
    """The accepted paper: the registry's record, the candidate's tags; its key is given when
    the pool is read."""
    return PoolPaper(
        key="",
        title=hit.title,
        year=hit.year,
        authors=tuple(f"{p.given} {p.family}".strip() for p in hit.authors),
        venue=hit.venue,
        abstract=hit.abstract,
        doi=hit.doi,
        arxiv_id=(hit.arxiv_id or candidate.arxiv_id).split("v")[0],
        paper_id="",
        discovered_for=candidate.discovered_for,
        match_score=round(score, 1),
    )


def dedup_papers(papers: Sequence[PoolPaper]) -> list[PoolPaper]:
    """One paper per work: the same paperId, else DOI, else arXiv id, else normalized title
    names the same work; the higher match score stays (tags merged)."""
    kept: dict[str, PoolPaper] = {}
    for paper in papers:
        identity = (
            f"paper:{paper.paper_id}"
            if paper.paper_id
            else f"doi:{paper.doi.lower()}"
            if paper.doi
            else f"arxiv:{paper.arxiv_id}"
            if paper.arxiv_id
            else f"title:{normalized_title(paper.title)}"
        )
        other = kept.get(identity)
        if other is None:
            kept[identity] = paper
            continue
        tags = tuple(dict.fromkeys(other.discovered_for + paper.discovered_for))
        winner = paper if (paper.match_score or 0) > (other.match_score or 0) else other
        kept[identity] = replace(winner, discovered_for=tags)
    return list(kept.values())


async def build_pool(
    candidates: Sequence[Candidate], client: RegistryClient, cutoff: dt.date | None = None
) -> Outcome:
    """Search, accept, filter and deduplicate; the pool's papers and the rejections."""
    unique = prededup(candidates)
    hits = await asyncio.gather(*(_best_hit(client, c) for c in unique))
    outcome = Outcome()
    papers = []
    for candidate, best in zip(unique, hits, strict=True):
        if best is None or best[1] <= ACCEPT_RATIO:
            outcome.rejected.append((candidate.title, "no registry record matches the title"))
            continue
        hit, score = best
        if not hit.abstract:
            outcome.rejected.append((candidate.title, "the matching record has no abstract"))
            continue
        if cutoff is not None and before_cutoff("", hit.year, cutoff) is not True:
            outcome.rejected.append((candidate.title, f"not before the cut-off {cutoff}"))
            continue
        papers.append(_paper(candidate, hit, score))
    outcome.accepted = dedup_papers(papers)
    return outcome
