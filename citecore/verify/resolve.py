"""Routing one reference through the registries to a verdict (DESIGN.md, "Rules for
verification").

Identifiers first: every DOI goes to doi.org for its agency and then to that agency; every arXiv
id to arXiv. An identifier that does not exist is a mismatch even when another resolves; two
identifiers naming different works are a mismatch; a DOI whose agency gives no metadata never
verifies alone. Without a usable identifier, the title is searched in order (Crossref, arXiv),
stopping at an exact title match. `not_found` needs every consulted source to have answered.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from citecore.identifiers import arxiv_from_doi
from citecore.model import (
    FieldMismatch,
    Match,
    Reference,
    ReferenceFlag,
    ReferenceResult,
    ReferenceVerdict,
)
from citecore.registries import arxiv, crossref, datacite, doi_org
from citecore.registries.http import Failure, RegistryClient, RegistryResponse, Status
from citecore.registries.record import Update, WorkRecord
from citecore.registries.request import RegistryRequest
from citecore.verify.compare import Comparison, compare, compare_titles

_FLAGGED_UPDATES = {Update.RETRACTION, Update.WITHDRAWAL, Update.EXPRESSION_OF_CONCERN}


@dataclass
class _Trail:
    """What routing one reference has seen so far."""

    consulted: list[str] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    mismatches: list[FieldMismatch] = field(default_factory=list)
    records: list[WorkRecord] = field(default_factory=list)

    def saw(self, response: RegistryResponse) -> bool:
        """Record who was asked; True when the registry answered (found or absent)."""
        name = response.request.source.value
        if name not in self.consulted:
            self.consulted.append(name)
        if response.status is Status.FAILED:
            self.failures.append(response.failure or Failure.NETWORK)
            return False
        return True


Fetch = Callable[[RegistryRequest], Awaitable[RegistryResponse]]


def to_match(record: WorkRecord) -> Match:
    """The public summary of a record, for reports."""
    return Match(
        source=record.source.value,
        title=record.title,
        authors=tuple(p.display() for p in record.authors),
        year=record.year,
        venue=record.venue,
        doi=record.doi,
        url=record.url,
    )


async def _resolve_doi(doi: str, fetch: Fetch, trail: _Trail) -> None:
    response = await fetch(doi_org.agency_request(doi))
    if not trail.saw(response):
        return
    agency = (
        doi_org.Agency.NONE
        if response.status is Status.ABSENT
        else doi_org.parse_agency(response.body)
    )
    if agency is doi_org.Agency.NONE:
        trail.mismatches.append(FieldMismatch("doi", doi, "", "this DOI does not exist"))
        return
    if agency is doi_org.Agency.OTHER:
        trail.notes.append(f"DOI {doi} is registered with an agency whose metadata is not read")
        return
    if agency is doi_org.Agency.CROSSREF:
        request, parse = crossref.work_request(doi), crossref.parse_work
    else:
        request, parse = datacite.work_request(doi), datacite.parse_work
    answer = await fetch(request)
    if not trail.saw(answer):
        return
    if answer.status is Status.ABSENT:
        trail.notes.append(f"DOI {doi} is registered but {agency.value} has no metadata for it")
        return
    try:
        trail.records.append(parse(answer.body))
    except (ValueError, KeyError, TypeError, IndexError):
        trail.failures.append(Failure.SERVER)


async def _resolve_arxiv(arxiv_id: str, fetch: Fetch, trail: _Trail) -> None:
    response = await fetch(arxiv.id_request(arxiv_id))
    if not trail.saw(response):
        return
    records = arxiv.parse_feed(response.body) if response.status is Status.OK else []
    if not records:
        trail.mismatches.append(
            FieldMismatch("arxiv", arxiv_id, "", "this arXiv id does not exist")
        )
        return
    trail.records.append(records[0])


async def _search(reference: Reference, fetch: Fetch, trail: _Trail) -> list[WorkRecord]:
    """Title search in order, stopping at the first source with an exact title match."""
    first_author = reference.authors[0].family if reference.authors else ""
    searches = (
        (crossref.search_request(reference.title, first_author), crossref.parse_search),
        (arxiv.search_request(reference.title), arxiv.parse_feed),
    )
    found: list[WorkRecord] = []
    for request, parse in searches:
        response = await fetch(request)
        if not trail.saw(response) or response.status is Status.ABSENT:
            continue
        try:
            records = parse(response.body)
        except (ValueError, KeyError, TypeError):
            trail.failures.append(Failure.SERVER)
            continue
        found.extend(records)
        if any(compare_titles(reference.title, r.title).same for r in records):
            break
    return found


def _flags(records: list[WorkRecord], trail: _Trail) -> frozenset[ReferenceFlag]:
    flags = set()
    if any(r.updates & _FLAGGED_UPDATES for r in records):
        flags.add(ReferenceFlag.RETRACTED)
    if trail.failures:
        flags.add(ReferenceFlag.COVERAGE_INCOMPLETE)
    if any(r.arxiv_id for r in records):
        flags.add(ReferenceFlag.OA_URL)
    return frozenset(flags)


def _outage(trail: _Trail) -> ReferenceVerdict:
    """An unanswered reference: offline misses are unverifiable, anything else an error."""
    if trail.failures and all(f is Failure.OFFLINE for f in trail.failures):
        return ReferenceVerdict.UNVERIFIABLE
    return ReferenceVerdict.ERROR


async def verify_reference(reference: Reference, client: RegistryClient) -> ReferenceResult:
    """The verdict for one parsed reference."""
    trail = _Trail()
    fetch = client.fetch
    if reference.doi:
        await _resolve_doi(reference.doi.lower(), fetch, trail)
    # An arXiv id that only restates an arXiv DOI was resolved through DataCite already.
    if reference.arxiv_id and reference.arxiv_id.lower() != arxiv_from_doi(reference.doi).lower():
        await _resolve_arxiv(reference.arxiv_id, fetch, trail)
    judged = [(record, compare(reference, record)) for record in trail.records]
    if len({r.doi or r.arxiv_id for r, _ in judged}) > 1 and not _same_work(judged):
        trail.mismatches.append(
            FieldMismatch(
                "identifiers",
                ", ".join(r.doi or r.arxiv_id for r, _ in judged),
                "",
                "the identifiers name different works",
            )
        )
    matching = [(r, c) for r, c in judged if not c.mismatches]
    if matching and not trail.mismatches:
        record, comparison = matching[0]
        return _result(reference, ReferenceVerdict.VERIFIED, record, trail, comparison)
    if judged:
        record, comparison = min(judged, key=lambda rc: len(rc[1].mismatches))
        trail.mismatches.extend(comparison.mismatches)
        suggested = await _suggestion(reference, fetch, trail, record) if reference.title else None
        return _result(reference, ReferenceVerdict.MISMATCH, record, trail, comparison, suggested)
    if trail.mismatches:  # an identifier that does not exist, nothing else resolved
        found = await _search(reference, fetch, trail) if reference.title else []
        best = _best(reference, found)
        return _result(reference, ReferenceVerdict.MISMATCH, None, trail, None, best)
    if not reference.title:
        verdict = _outage(trail) if trail.failures else ReferenceVerdict.UNVERIFIABLE
        trail.notes.append("no title to search for")
        return _result(reference, verdict, None, trail, None)
    found = await _search(reference, fetch, trail)
    best = _best(reference, found)
    if best is not None:
        comparison = compare(reference, best)
        verdict = ReferenceVerdict.MISMATCH if comparison.mismatches else ReferenceVerdict.VERIFIED
        trail.mismatches.extend(comparison.mismatches)
        return _result(reference, verdict, best, trail, comparison)
    if trail.failures:
        return _result(reference, _outage(trail), None, trail, None)
    trail.notes.append(
        "not confirmed by any registry consulted (books, theses and reports are "
        "often missing from them)"
    )
    return _result(reference, ReferenceVerdict.NOT_FOUND, None, trail, None)


def _same_work(judged: list[tuple[WorkRecord, Comparison]]) -> bool:
    first = judged[0][0]
    return all(compare_titles(first.title, r.title).same for r, _ in judged[1:])


def _best(reference: Reference, records: list[WorkRecord]) -> WorkRecord | None:
    """The found record that is the cited work (same or similar title), best first."""
    scored = [(compare_titles(reference.title, r.title), r) for r in records]
    candidates = [(t, r) for t, r in scored if t.same or t.similarity >= 0.75]
    if not candidates:
        return None
    return max(candidates, key=lambda tr: (tr[0].same, tr[0].similarity))[1]


async def _suggestion(
    reference: Reference, fetch: Fetch, trail: _Trail, resolved: WorkRecord
) -> WorkRecord | None:
    """When an identifier names another work, the record the cited title really belongs to."""
    if compare_titles(reference.title, resolved.title).same:
        return None
    found = await _search(reference, fetch, trail)
    best = _best(reference, found)
    return best if best is not None and compare_titles(reference.title, best.title).same else None


def _result(
    reference: Reference,
    verdict: ReferenceVerdict,
    record: WorkRecord | None,
    trail: _Trail,
    comparison: Comparison | None,
    suggested: WorkRecord | None = None,
) -> ReferenceResult:
    records = [*trail.records, *([record] if record else [])]
    flags = set(_flags(records, trail))
    if suggested is not None:
        flags.add(ReferenceFlag.SUGGESTED)
    notes = list(trail.notes) + (list(comparison.notes) if comparison else [])
    notes += [f"open-access copy: {r.url}" for r in records if r.arxiv_id and r.url][:1]
    if (
        record is not None
        and verdict is ReferenceVerdict.VERIFIED
        and record.related_dois
        and (record.is_preprint)
    ):
        notes.append("a published version exists: " + ", ".join(record.related_dois))
    return ReferenceResult(
        key=reference.key,
        verdict=verdict,
        flags=frozenset(flags),
        mismatches=tuple(dict.fromkeys(trail.mismatches)),
        match=to_match(record) if record else None,
        suggested=to_match(suggested) if suggested else None,
        notes=tuple(dict.fromkeys(notes)),
        sources=tuple(trail.consulted),
    )
