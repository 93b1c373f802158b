"""What routing one reference has learned, and the lookup its follow-up questions share.

A `Trail` is a value: each step of routing returns the trail of what it learned (who it asked,
what failed, the records, notes and mismatches it found), and the router adds them up in order
(`resolve._verdict`; the follow-up questions' part in `Lookup`). No step changes a trail it did
not make.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, TypeVar

from citecore.model import FieldMismatch, Match, Reference
from citecore.registries.record import WorkRecord
from citecore.registries.registry import Identity
from citecore.registries.request import Failure, RegistryRequest, RegistryResponse, Status
from citecore.verify.compare import compare_titles

if TYPE_CHECKING:
    from citecore.verify.copies import Copies

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Trail:
    """What routing one reference learned: empty, one step's, or every step's added up."""

    consulted: tuple[str, ...] = ()
    failures: tuple[Failure, ...] = ()
    # Optional sources that failed: they never block a verdict found elsewhere, but a work
    # they might have held is not "not found" (every consulted source must have answered).
    optional_failures: tuple[Failure, ...] = ()
    # An identifier of the reference that no registry answered for: the reference may not be
    # called verified (cited right) on its title alone.
    identifier_unchecked: bool = False
    notes: tuple[str, ...] = ()
    mismatches: tuple[FieldMismatch, ...] = ()
    records: tuple[WorkRecord, ...] = ()

    def __add__(self, later: Trail) -> Trail:
        """This trail followed by `later`: each source named once, everything else in order."""
        return Trail(
            consulted=tuple(dict.fromkeys((*self.consulted, *later.consulted))),
            failures=(*self.failures, *later.failures),
            optional_failures=(*self.optional_failures, *later.optional_failures),
            identifier_unchecked=self.identifier_unchecked or later.identifier_unchecked,
            notes=(*self.notes, *later.notes),
            mismatches=(*self.mismatches, *later.mismatches),
            records=(*self.records, *later.records),
        )

    @property
    def every_failure(self) -> tuple[Failure, ...]:
        """The failures of required and optional sources alike (why `not_found` is unsaid)."""
        return (*self.failures, *self.optional_failures)


def asked(response: RegistryResponse) -> Trail:
    """Who was asked, and its failure when it gave no answer."""
    failed = (response.failure or Failure.NETWORK,) if response.status is Status.FAILED else ()
    return Trail(consulted=(response.request.source.value,), failures=failed)


def read(
    response: RegistryResponse, parse: Callable[[str], T], absent: T
) -> tuple[T | None, Trail]:
    """What the registry said — `parse` of the body when it holds the thing, `absent` when it
    has no such thing, None when it gave no usable answer — and the trail of asking: its
    failure, or `Failure.SERVER` for a body `parse` cannot read (every registry parser says
    "unreadable" with a ValueError)."""
    learned = asked(response)
    if response.status is Status.FAILED:
        return None, learned
    if response.status is Status.ABSENT:
        return absent, learned
    try:
        return parse(response.body), learned
    except ValueError:
        return None, replace(learned, failures=(Failure.SERVER,))


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


TitleSearch = Callable[[], Awaitable[tuple[list[WorkRecord], Trail]]]


@dataclass
class Lookup:
    """What the follow-up questions about one reference may ask, once its identifiers were
    resolved (`identified`), and what they learned (`learned`, a trail it alone adds to)."""

    reference: Reference
    fetch: Fetch
    identified: Trail
    search: TitleSearch
    identity: Identity  # whose keys decide which title searches may be asked
    copies: Copies  # the registries that complete copies answer for
    closed: bool = False  # a complete snapshot is the only source
    found: list[WorkRecord] = field(default_factory=list)
    learned: Trail = Trail()
    searched: bool = False

    @property
    def trail(self) -> Trail:
        """Everything learned of the reference so far."""
        return self.identified + self.learned

    async def searched_records(self) -> list[WorkRecord]:
        """The title search's records (searched once per reference)."""
        if not self.searched:
            self.searched = True
            records, learned = await self.search()
            self.remember(records, learned)
        return self.found

    def remember(self, records: list[WorkRecord], learned: Trail) -> None:
        """Records a follow-up question found (other versions of the work are looked for among
        them) and the trail of asking."""
        self.found.extend(records)
        self.learned = self.learned + learned

    def versions(self, record: WorkRecord) -> list[WorkRecord]:
        """Other records seen of the same work (same title), this record's source excluded."""
        return [
            r
            for r in [*self.identified.records, *self.found]
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
