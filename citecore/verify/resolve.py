"""Routing one reference through the registries to a verdict (docs/verification.md).

Identifiers first (`by_identifier`): every DOI to its agency, every arXiv id to DataCite, then
arXiv for what DataCite leaves open. An identifier that does not exist is a mismatch even when
another resolves; two identifiers naming different works are a mismatch; a DOI whose agency
gives no metadata never verifies alone. Without a usable identifier, the title is searched
(`by_title`), stopping at an exact title match. The open questions of a comparison are asked
before anyone is accused (`versions`). `not_found` needs every consulted source to have
answered. Each step returns the `Trail` of what it learned (`trail`); `_verdict` adds them up,
and the follow-up questions' part is added up by their `Lookup`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from citecore.identifiers import arxiv_from_doi, is_short_doi
from citecore.model import (
    FieldMismatch,
    Reference,
    ReferenceFlag,
    ReferenceResult,
    ReferenceVerdict,
    Source,
)
from citecore.registries import (
    unpaywall,
)
from citecore.registries.http import RegistryClient
from citecore.registries.record import Update, WorkRecord
from citecore.registries.request import Failure, RegistryRequest, RegistryResponse, Status
from citecore.verify.asked_ids import identifiers_to_ask
from citecore.verify.by_identifier import expand_short_doi, resolve_identifiers
from citecore.verify.by_title import search_title
from citecore.verify.compare import (
    TITLE_SIMILAR,
    Comparison,
    compare,
    compare_titles,
    corroborated,
)
from citecore.verify.copies import Copies
from citecore.verify.trail import Fetch, Lookup, Trail, memoized, to_match
from citecore.verify.venues import venue_patterns
from citecore.verify.versions import follow_up

if TYPE_CHECKING:
    # The snapshot's reader and title matching load only in a run that has one (registry.py).
    from citecore.registries.snapshot import Snapshot

_FLAGGED_UPDATES = {Update.RETRACTION, Update.WITHDRAWAL, Update.EXPRESSION_OF_CONCERN}


def _flags(records: Sequence[WorkRecord], trail: Trail) -> frozenset[ReferenceFlag]:
    flags = set()
    if any(r.updates & _FLAGGED_UPDATES for r in records):
        flags.add(ReferenceFlag.RETRACTED)
    if trail.failures:
        flags.add(ReferenceFlag.COVERAGE_INCOMPLETE)
    if any(r.arxiv_id for r in records):
        flags.add(ReferenceFlag.OA_URL)
    return frozenset(flags)


def _outage(failures: Sequence[Failure]) -> tuple[ReferenceVerdict, tuple[str, ...]]:
    """The verdict on an unanswered reference and the note that says why: offline misses are
    unverifiable, anything else an error."""
    if failures and all(f is Failure.OFFLINE for f in failures):
        return ReferenceVerdict.UNVERIFIABLE, ("offline, and no registry answer is cached",)
    return ReferenceVerdict.ERROR, ()


async def verify_reference(
    reference: Reference,
    client: RegistryClient,
    snapshot: Snapshot | None = None,
    open_access: bool = False,
) -> ReferenceResult:
    """The verdict for one parsed reference. With `open_access` (a report that shows one), an
    open-access copy from Unpaywall when a contact email is set and no arXiv copy is known: one
    request per reference that only those reports need. A snapshot, when given, is asked first."""
    result = await _verdict(reference, client, snapshot)
    doi = result.match.doi if result.match else ""
    if (
        open_access
        and unpaywall.REGISTRY.usable(client.settings.identity())
        and doi
        and ReferenceFlag.OA_URL not in result.flags
    ):
        answer = await client.fetch(unpaywall.oa_request(doi))
        try:
            url = unpaywall.parse_oa_url(answer.body) if answer.status is Status.OK else ""
        except ValueError:  # an open-access link is a courtesy: an unreadable one is none
            url = ""
        if url:
            return replace(
                result,
                flags=result.flags | {ReferenceFlag.OA_URL},
                notes=(*result.notes, f"open-access copy: {url}"),
                open_access_url=url,
            )
    return result


async def _unasked(request: RegistryRequest) -> RegistryResponse:
    """The answer of a registry that is not asked (a complete snapshot stands in for it)."""
    return RegistryResponse(request, Status.FAILED, failure=Failure.OFFLINE)


def _closed_world(
    snapshot: Snapshot | None, client: RegistryClient, reference: Reference
) -> Snapshot | None:
    """The snapshot, when it is the only source to consult: declared complete, run offline, and
    holding works of the kind cited (`Snapshot.covers`); else what it lacks stays unverifiable
    offline."""
    if snapshot is not None and snapshot.complete and client.settings.offline:
        covered = snapshot.covers(reference, venue_patterns(reference.venue))
        return snapshot if covered else None
    return None


def _not_in_snapshot(snapshot: Snapshot) -> str:
    return f"not in {snapshot.name}, a snapshot declared a complete copy of the registries"


async def _verdict(
    reference: Reference, client: RegistryClient, snapshot: Snapshot | None
) -> ReferenceResult:
    """The verdict: the reference's identifiers resolved and the record that fits best compared,
    its open questions asked; without an identifier that resolves, its title looked for."""
    reference, left_out = identifiers_to_ask(reference)
    trail = Trail(notes=tuple(left_out))
    closed = _closed_world(snapshot, client, reference)
    if snapshot is not None and snapshot.complete and client.settings.offline and not closed:
        note = (
            f"{snapshot.name}: declared complete, but not for works of this kind or year, so "
            "it cannot say the work does not exist"
        )
        trail += Trail(notes=(note,))
    fetch = _unasked if closed else memoized(client.fetch)
    if is_short_doi(reference.doi):
        reference, expanded = await expand_short_doi(reference, fetch)
        trail += expanded
    copies = Copies.of(snapshot)
    trail += await _identify(reference, fetch, snapshot, closed, copies)
    # An identifier no registry answered for: the reference may not be verified on its title.
    trail = replace(trail, identifier_unchecked=bool(trail.failures))
    judged = [(record, compare(reference, record)) for record in trail.records]
    if len({r.doi or r.arxiv_id for r, _ in judged}) > 1 and not _same_work(judged):
        differ = FieldMismatch(
            "identifiers",
            ", ".join(r.doi or r.arxiv_id for r, _ in judged),
            "",
            "the identifiers name different works",
        )
        trail += Trail(mismatches=(differ,))
    lookup = _lookup(reference, client, fetch, trail, snapshot, closed, copies)
    if judged:
        return await _by_identifiers(lookup, judged)
    return await _by_title(lookup, closed)


def _lookup(
    reference: Reference,
    client: RegistryClient,
    fetch: Fetch,
    identified: Trail,
    snapshot: Snapshot | None,
    closed: Snapshot | None,
    copies: Copies,
) -> Lookup:
    """What the follow-up questions may ask: the title search (a snapshot first, when there is
    one; it alone when complete), the registries with the keys the settings hold, each from its
    complete copy where the snapshot holds one."""
    identity = client.settings.identity()

    async def search() -> tuple[list[WorkRecord], Trail]:
        if not reference.title:
            return [], Trail()
        if snapshot is None:
            return await search_title(reference, fetch, identity, copies)
        local = copies.search(reference.title)
        asked_snapshot = Trail(consulted=("snapshot",))
        if closed or any(compare_titles(reference.title, r.title).same for r in local):
            return local, asked_snapshot
        records, learned = await search_title(reference, fetch, identity, copies)
        return records, asked_snapshot + learned

    return Lookup(reference, fetch, identified, search, identity, copies, closed is not None)


async def _identify(
    reference: Reference,
    fetch: Fetch,
    snapshot: Snapshot | None,
    closed: Snapshot | None,
    copies: Copies,
) -> Trail:
    """The records of the reference's identifiers: a snapshot's first, then the registries' for
    what it lacks (with a complete snapshot, what it lacks does not exist) — a registry's from
    its complete copy where the snapshot holds one."""
    # An arXiv id that only restates an arXiv DOI was resolved through DataCite already.
    restated = reference.arxiv_id.lower() == arxiv_from_doi(reference.doi).lower()
    cited = {"doi": reference.doi, "arxiv": reference.arxiv_id, "pmid": reference.pmid}
    local = _in_snapshot(snapshot, cited) if snapshot is not None else {}
    asked = cited | {"arxiv": "" if restated else reference.arxiv_id}
    learned = Trail()
    if local or closed:
        learned = Trail(consulted=("snapshot",), records=tuple(local.values()))
    unresolved = {name: value for name, value in asked.items() if value and name not in local}
    if closed:
        missing = (FieldMismatch(n, v, "", _not_in_snapshot(closed)) for n, v in unresolved.items())
        return learned + Trail(mismatches=tuple(missing))
    return learned + await resolve_identifiers(reference, unresolved, fetch, copies)


def _in_snapshot(snapshot: Snapshot, asked: dict[str, str]) -> dict[str, WorkRecord]:
    """The snapshot's record of each identifier it holds, by the identifier's field."""
    readers = {"doi": snapshot.by_doi, "arxiv": snapshot.by_arxiv, "pmid": snapshot.by_pmid}
    found = {name: readers[name](value) for name, value in asked.items() if value}
    return {name: records[0] for name, records in found.items() if records}


async def _by_identifiers(
    lookup: Lookup, judged: list[tuple[WorkRecord, Comparison]]
) -> ReferenceResult:
    """The verdict on the identifiers' record that fits best; when its fields disagree, the
    work the cited title names is suggested (and compared) instead."""
    reference = lookup.reference
    record, comparison = min(judged, key=lambda rc: _weight(rc[1]))
    record, comparison = await follow_up(lookup, record, comparison)
    suggested = None
    if reference.title and (comparison.mismatches or lookup.identified.mismatches):
        suggested = await _suggestion(lookup, record)
    if suggested is not None:
        comparison = await _against_suggestion(lookup, record, suggested)
    return _judged(reference, record, comparison, lookup.trail, suggested)


async def _by_title(lookup: Lookup, closed: Snapshot | None) -> ReferenceResult:
    """The verdict when no identifier gave a record: the work the title names, else
    `not_found` only when every source asked has answered."""
    reference = lookup.reference
    if lookup.identified.mismatches:  # an identifier that does not exist, nothing else resolved
        best = _best(reference, await lookup.searched_records())
        if best is None:
            return _result(reference, ReferenceVerdict.MISMATCH, None, lookup.trail, None)
        best, comparison = await follow_up(lookup, best, compare(reference, best))
        return _judged(reference, best, comparison, lookup.trail, best)
    if not reference.title:
        said = ("no title to search for",)
        trail = lookup.trail
        if not trail.failures:  # nothing asked, nothing failed
            return _result(reference, ReferenceVerdict.UNVERIFIABLE, None, trail, None, notes=said)
        verdict, why = _outage(trail.failures)
        return _result(reference, verdict, None, trail, None, notes=(*why, *said))
    best = _best(reference, await lookup.searched_records())
    if best is not None:
        best, comparison = await follow_up(lookup, best, compare(reference, best))
        return _judged(reference, best, comparison, lookup.trail)
    trail = lookup.trail
    if trail.every_failure:
        verdict, why = _outage(trail.every_failure)
        unanswered = replace(trail, failures=trail.every_failure)
        return _result(reference, verdict, None, unanswered, None, notes=why)
    absent = (
        _not_in_snapshot(closed)
        if closed
        else "books, theses and reports are often missing from the registries"
    )
    return _result(reference, ReferenceVerdict.NOT_FOUND, None, trail, None, notes=(absent,))


def _weight(comparison: Comparison) -> tuple[int, int]:
    """Fewer mismatches first; among equals, a record that settles the venue."""
    return len(comparison.mismatches), int(comparison.needs_published)


def _judged(
    reference: Reference,
    record: WorkRecord,
    comparison: Comparison,
    trail: Trail,
    suggested: WorkRecord | None = None,
) -> ReferenceResult:
    """The verdict once a record was chosen and every follow-up question was asked."""
    found = [*trail.mismatches, *comparison.mismatches]
    verdict = ReferenceVerdict.MISMATCH if found else ReferenceVerdict.VERIFIED
    notes: tuple[str, ...] = ()
    if verdict is ReferenceVerdict.VERIFIED and trail.identifier_unchecked:
        verdict, said = _outage(trail.failures)
        notes = ("its identifiers could not be checked: a registry did not answer", *said)
    mismatches = [_corrected(m, suggested) for m in found] if suggested is not None else found
    return _result(reference, verdict, record, trail, comparison, suggested, mismatches, notes)


def _corrected(mismatch: FieldMismatch, suggested: WorkRecord) -> FieldMismatch:
    """An identifier that does not exist, with the suggested record's identifier as found."""
    found = {"doi": suggested.doi, "arxiv": suggested.arxiv_id, "pmid": suggested.pmid}
    if mismatch.field in found and not mismatch.found and found[mismatch.field]:
        return replace(mismatch, found=found[mismatch.field])
    return mismatch


def _same_work(judged: list[tuple[WorkRecord, Comparison]]) -> bool:
    first = judged[0][0]
    return all(compare_titles(first.title, r.title).same for r, _ in judged[1:])


def _best(reference: Reference, records: list[WorkRecord]) -> WorkRecord | None:
    """The found record that is the cited work, best first: the same title, or a similar one
    that an author or the year corroborates (a similar title by other people in another year
    is another work, and no evidence of what the writer got wrong)."""
    scored = [(compare_titles(reference.title, r.title), r) for r in records]
    candidates = [
        (t, r)
        for t, r in scored
        if t.same or (t.similarity >= TITLE_SIMILAR and corroborated(reference, r))
    ]
    if not candidates:
        return None
    return max(candidates, key=lambda tr: (tr[0].same, tr[0].similarity))[1]


async def _against_suggestion(
    lookup: Lookup, resolved: WorkRecord, suggested: WorkRecord
) -> Comparison:
    """An identifier naming another work than the cited title: the identifier is the mismatch,
    and the rest of the reference is compared with the work its title names (the fields of the
    other work say nothing about what the writer got wrong)."""
    reference = lookup.reference
    _, comparison = await follow_up(lookup, suggested, compare(reference, suggested))
    year = f" ({resolved.year})" if resolved.year else ""
    wrong = FieldMismatch(
        "identifiers", "", "", f"the identifiers name another work: '{resolved.title}'{year}"
    )
    for name, label, given, found, on_resolved in (
        ("doi", "DOI", reference.doi, suggested.doi, resolved.doi),
        ("arxiv", "arXiv id", reference.arxiv_id, suggested.arxiv_id, resolved.arxiv_id),
        ("pmid", "PMID", reference.pmid, suggested.pmid, resolved.pmid),
    ):
        if given and given.lower() == on_resolved.lower():
            reason = f"the {label} of another work: '{resolved.title}'{year}"
            wrong = FieldMismatch(name, given, found, reason)
            break
    return replace(comparison, mismatches=(wrong, *comparison.mismatches))


async def _suggestion(lookup: Lookup, resolved: WorkRecord) -> WorkRecord | None:
    """When an identifier names another work, the record the cited title really belongs to."""
    reference = lookup.reference
    if compare_titles(reference.title, resolved.title).same:
        return None
    best = _best(reference, await lookup.searched_records())
    return best if best is not None and compare_titles(reference.title, best.title).same else None


def _result(
    reference: Reference,
    verdict: ReferenceVerdict,
    record: WorkRecord | None,
    trail: Trail,
    comparison: Comparison | None,
    suggested: WorkRecord | None = None,
    mismatches: Sequence[FieldMismatch] | None = None,
    notes: Sequence[str] = (),
) -> ReferenceResult:
    """`verdict` on `record` with what the trail saw, `mismatches` (else the trail's), `notes`."""
    records = [*trail.records, *([record] if record else [])]
    flags = set(_flags(records, trail))
    if suggested is not None:
        flags.add(ReferenceFlag.SUGGESTED)
    said = [*trail.notes, *notes, *(comparison.remarks if comparison else ())]
    open_access = next((r.url for r in records if r.arxiv_id and r.url), "")
    if open_access:
        said.append(f"open-access copy: {open_access}")
    if record is not None and verdict is ReferenceVerdict.VERIFIED and record.is_preprint:
        # A cited preprint whose published version exists is verified, with a note.
        arxiv_journal_doi = (record.doi,) if record.source is Source.ARXIV and record.doi else ()
        published = record.related_dois or arxiv_journal_doi
        if published:
            said.append("a published version exists: " + ", ".join(published))
    return ReferenceResult(
        key=reference.key,
        verdict=verdict,
        flags=frozenset(flags),
        mismatches=tuple(dict.fromkeys(trail.mismatches if mismatches is None else mismatches)),
        match=to_match(record) if record else None,
        suggested=to_match(suggested) if suggested else None,
        notes=tuple(dict.fromkeys(said)),
        sources=tuple(trail.consulted),
        open_access_url=open_access,
    )
