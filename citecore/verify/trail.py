"""What routing one reference has seen and may still ask: the trail of answers, and the lookup
the follow-up questions share."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from citecore.model import FieldMismatch, Match, Reference
from citecore.registries.record import WorkRecord
from citecore.registries.registry import Identity
from citecore.registries.request import Failure, RegistryRequest, RegistryResponse, Status
from citecore.verify.compare import compare_titles

T = TypeVar("T")


@dataclass
class Trail:
    """What routing one reference has seen so far."""

    consulted: list[str] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    # Optional sources that failed: they never block a verdict found elsewhere, but a work
    # they might have held is not "not found" (every consulted source must have answered).
    optional_failures: list[Failure] = field(default_factory=list)
    # An identifier of the reference that no registry answered for: the reference may not be
    # called verified (cited right) on its title alone.
    identifier_unchecked: bool = False
    notes: list[str] = field(default_factory=list)
    mismatches: list[FieldMismatch] = field(default_factory=list)
    records: list[WorkRecord] = field(default_factory=list)

    def note_source(self, name: str) -> None:
        """Record that a source was consulted."""
        if name not in self.consulted:
            self.consulted.append(name)

    def saw(self, response: RegistryResponse) -> bool:
        """Record who was asked; True when the registry answered (found or absent)."""
        self.note_source(response.request.source.value)
        if response.status is Status.FAILED:
            self.failures.append(response.failure or Failure.NETWORK)
            return False
        return True

    def read(self, response: RegistryResponse, parse: Callable[[str], T], absent: T) -> T | None:
        """What the registry said: `parse` of the body when it holds the thing, `absent` when it
        has no such thing; None when it gave no usable answer (its failure recorded, and
        `Failure.SERVER` for a body `parse` cannot read: every registry parser says
        "unreadable" with a ValueError)."""
        if not self.saw(response):
            return None
        if response.status is Status.ABSENT:
            return absent
        try:
            return parse(response.body)
        except ValueError:
            self.failures.append(Failure.SERVER)
            return None


Fetch = Callable[[RegistryRequest], Awaitable[RegistryResponse]]


def to_match(record: WorkRecord) -> Match:
    """The public summary of a record, for reports."""
    return Match(
        source=record.source,
        title=record.title,
        authors=tuple(p.display() for p in record.authors),
        year=record.year,
        venue=record.venue,
        doi=record.doi,
        url=record.url,
    )


@dataclass
class Lookup:
    """What the follow-up questions about one reference may ask, and what was found so far."""

    reference: Reference
    fetch: Fetch
    trail: Trail
    search: Callable[[], Awaitable[list[WorkRecord]]]
    identity: Identity  # whose keys decide which title searches may be asked
    closed: bool = False  # a complete snapshot is the only source
    found: list[WorkRecord] = field(default_factory=list)
    searched: bool = False

    async def searched_records(self) -> list[WorkRecord]:
        """The title search's records (searched once per reference)."""
        if not self.searched:
            self.searched = True
            self.found.extend(await self.search())
        return self.found

    def versions(self, record: WorkRecord) -> list[WorkRecord]:
        """Other records seen of the same work (same title), this record's source excluded."""
        return [
            r
            for r in [*self.trail.records, *self.found]
            if r is not record and compare_titles(record.title, r.title).same
        ]


def memoized(fetch: Fetch) -> Fetch:
    """One answer per request within a reference's routing (follow-ups repeat searches)."""
    answers: dict[RegistryRequest, RegistryResponse] = {}

    async def once(request: RegistryRequest) -> RegistryResponse:
        if request not in answers:
            answers[request] = await fetch(request)
        return answers[request]

    return once
