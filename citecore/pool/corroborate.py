"""Cross-index tiers: is each pool paper corroborated by Crossref and OpenAlex?

Each index is asked by DOI first, else by title. An index's year or DOI is trusted only from an
exact DOI hit or a title matching at ratio ≥ 90. Tiers: `high` (corroborated, agreeing),
`medium` (the year differs beyond one year), `conflict` (the DOI differs), `low` (could not
corroborate — arXiv-only preprints are a known, benign cause). An unreachable index is noted and
the others still count. Papers are never removed: this only reports.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from citecore.pool.model import PoolPaper, title_score
from citecore.registries import crossref, openalex
from citecore.registries.http import RegistryClient
from citecore.registries.record import WorkRecord
from citecore.registries.registry import Registry
from citecore.registries.request import Status

STRONG_MATCH = 90
YEAR_TOLERANCE = 1


class Tier(Enum):
    """How well the indexes corroborate a pool paper."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"
    CONFLICT = "conflict"


@dataclass(frozen=True, slots=True)
class Corroboration:
    """One paper's tier and why."""

    key: str
    tier: Tier
    reason: str
    notes: tuple[str, ...] = ()


async def _index_record(
    client: RegistryClient, paper: PoolPaper, index: Registry, notes: list[str]
) -> WorkRecord | None:
    """The trusted record one index gives for a paper (by DOI, else by a title search the
    user's keys allow), or None."""
    name = index.source.value
    if paper.doi and index.doi_lookup is not None:
        response = await client.fetch(index.doi_lookup.request(paper.doi))
        if response.status is Status.FAILED:
            notes.append(f"{name} did not answer")
            return None
        if response.status is Status.OK:
            try:
                return index.doi_lookup.parse(response.body)
            except ValueError:
                notes.append(f"{name} answered something unreadable")
                return None
    search = index.title_search
    if search is None or not index.searches_titles(client.settings.identity()):
        return None
    response = await client.fetch(search.ask(paper.title))
    if response.status is Status.FAILED:
        notes.append(f"{name} did not answer")
        return None
    if response.status is Status.ABSENT:
        return None
    try:
        candidates = search.parse(response.body)
    except ValueError:
        notes.append(f"{name} answered something unreadable")
        return None
    scored = [(title_score(paper.title, c.title), c) for c in candidates]
    best = max(scored, key=lambda pair: pair[0], default=None)
    return best[1] if best is not None and best[0] >= STRONG_MATCH else None


def classify(paper: PoolPaper, records: Sequence[WorkRecord]) -> tuple[Tier, str]:
    """The tier for a paper given the trusted records the indexes gave."""
    if not records:
        benign = (
            " (an arXiv-only preprint is often missing from them)"
            if paper.arxiv_id and (not paper.doi)
            else ""
        )
        return Tier.LOW, f"could not corroborate in Crossref or OpenAlex{benign}"
    for record in records:
        if paper.doi and record.doi and record.doi.lower() != paper.doi.lower():
            return (
                Tier.CONFLICT,
                f"{record.source.value} gives DOI {record.doi}, the pool {paper.doi}",
            )
    for record in records:
        if paper.year and record.year and abs(record.year - paper.year) > YEAR_TOLERANCE:
            return (
                Tier.MEDIUM,
                f"{record.source.value} gives year {record.year}, the pool {paper.year}",
            )
    sources = ", ".join(sorted({r.source.value for r in records}))
    return Tier.HIGH, f"corroborated by {sources}"


async def _corroborate_one(client: RegistryClient, paper: PoolPaper) -> Corroboration:
    notes: list[str] = []
    found = await asyncio.gather(
        _index_record(client, paper, crossref.REGISTRY, notes),
        _index_record(client, paper, openalex.REGISTRY, notes),
    )
    tier, reason = classify(paper, [r for r in found if r is not None])
    return Corroboration(paper.key, tier, reason, tuple(notes))


async def corroborate(papers: Sequence[PoolPaper], client: RegistryClient) -> list[Corroboration]:
    """The tier of every pool paper, all asked concurrently within each index's limits."""
    return list(await asyncio.gather(*(_corroborate_one(client, p) for p in papers)))
