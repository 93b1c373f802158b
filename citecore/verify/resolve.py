"""Routing one reference through the registries to a verdict (DESIGN.md, "Rules for
verification").

Identifiers first: every DOI goes to doi.org for its agency and then to that agency; every arXiv
id to arXiv. An identifier that does not exist is a mismatch even when another resolves; two
identifiers naming different works are a mismatch; a DOI whose agency gives no metadata never
verifies alone. Without a usable identifier, the title is searched in order (Crossref, arXiv),
stopping at an exact title match. `not_found` needs every consulted source to have answered.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from citecore.identifiers import arxiv_from_doi, is_short_doi
from citecore.model import (
    FieldMismatch,
    Match,
    Reference,
    ReferenceFlag,
    ReferenceResult,
    ReferenceVerdict,
    Source,
)
from citecore.registries import (
    arxiv,
    crossref,
    datacite,
    dblp,
    doi_org,
    europepmc,
    openalex,
    pubmed,
    semantic_scholar,
    unpaywall,
)
from citecore.registries.http import Failure, RegistryClient, RegistryResponse, Status
from citecore.registries.record import Update, WorkRecord
from citecore.registries.request import RegistryRequest
from citecore.verify.asked_ids import identifiers_to_ask
from citecore.verify.compare import (
    TITLE_SIMILAR,
    Comparison,
    compare,
    compare_titles,
    is_preprint_record,
    not_on_record,
    same_person,
)
from citecore.verify.venues import without_crossref_doi

if TYPE_CHECKING:
    # The snapshot's reader and title matching load only in a run that has one (registry.py).
    from citecore.registries.snapshot import Snapshot

_FLAGGED_UPDATES = {Update.RETRACTION, Update.WITHDRAWAL, Update.EXPRESSION_OF_CONCERN}


@dataclass
class _Trail:
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


# Prefixes whose agency is known without asking doi.org (DataCite repositories).
_DATACITE_PREFIXES = ("10.48550/", "10.5281/", "10.6084/", "10.5061/", "10.1594/", "10.4230/")


def _registered_doi(doi: str, trail: _Trail) -> str:
    """arXiv registers its DOIs for unversioned ids: "10.48550/arxiv.2104.09425v2" names the
    work of 10.48550/arxiv.2104.09425, with a version pinned, not a DOI that does not exist."""
    match = re.fullmatch(r"(10\.48550/arxiv\.\d{4}\.\d{4,5})v\d+", doi)
    if match is None:
        return doi
    trail.notes.append(f"arXiv DOIs carry no version: {doi} is registered as {match.group(1)}")
    return match.group(1)


async def _expand_short_doi(reference: Reference, fetch: Fetch, trail: _Trail) -> Reference:
    """The reference with its shortDOI replaced by the DOI it stands for (doi.org's handle
    API), a note saying so; a shortDOI that doi.org does not know is a DOI mismatch."""
    short = reference.doi
    response = await fetch(doi_org.alias_request(short))
    if not trail.saw(response):
        return replace(reference, doi="")
    try:
        full = "" if response.status is Status.ABSENT else doi_org.parse_alias(response.body)
    except ValueError:
        trail.failures.append(Failure.SERVER)
        return replace(reference, doi="")
    if not full:
        trail.mismatches.append(FieldMismatch("doi", short, "", "this shortDOI does not exist"))
        return replace(reference, doi="")
    trail.notes.append(f"shortDOI {short} stands for {full}")
    return replace(reference, doi=full)


async def _resolve_doi(doi: str, fetch: Fetch, trail: _Trail) -> None:
    """The record of a DOI from its agency. The likely agency is asked first (DataCite for its
    repositories' prefixes, else Crossref, which holds most DOIs), and doi.org only when that
    agency does not know the DOI (whose is it, or nobody's?): one request for most references."""
    likely = (
        doi_org.Agency.DATACITE if doi.startswith(_DATACITE_PREFIXES) else doi_org.Agency.CROSSREF
    )
    if await _from_agency(doi, likely, fetch, trail, quiet_absence=True):
        return
    if trail.failures:
        return
    response = await fetch(doi_org.agency_request(doi))
    if not trail.saw(response):
        return
    try:
        agency = (
            doi_org.Agency.NONE
            if response.status is Status.ABSENT
            else doi_org.parse_agency(response.body)
        )
    except ValueError:
        trail.failures.append(Failure.SERVER)
        return
    if agency is doi_org.Agency.NONE:
        trail.mismatches.append(FieldMismatch("doi", doi, "", "this DOI does not exist"))
    elif agency is doi_org.Agency.OTHER:
        trail.notes.append(f"DOI {doi} is registered with an agency whose metadata is not read")
    elif agency is not likely:
        await _from_agency(doi, agency, fetch, trail)
    else:
        trail.notes.append(
            f"DOI {doi} is registered with {agency.value}, which has no metadata for it"
        )


async def _from_agency(
    doi: str, agency: doi_org.Agency, fetch: Fetch, trail: _Trail, quiet_absence: bool = False
) -> bool:
    """Fetch a DOI's record from its agency into the trail; True when a record was found."""
    if agency is doi_org.Agency.CROSSREF:
        request, parse = crossref.work_request(doi), crossref.parse_work
    else:
        request, parse = datacite.work_request(doi), datacite.parse_work
    answer = await fetch(request)
    if not trail.saw(answer):
        return False
    if answer.status is Status.ABSENT:
        if not quiet_absence:
            trail.notes.append(f"DOI {doi} is not in {agency.value}")
        return False
    try:
        trail.records.append(parse(answer.body))
    except ValueError:  # how every registry parser says "unreadable" (registries.answers)
        trail.failures.append(Failure.SERVER)
        return False
    return True


async def _resolve_pmid(pmid: str, fetch: Fetch, trail: _Trail) -> None:
    response = await fetch(pubmed.summary_request(pmid))
    if not trail.saw(response):
        return
    try:
        records = pubmed.parse_summary(response.body) if response.status is Status.OK else []
    except ValueError:
        trail.failures.append(Failure.SERVER)
        return
    if not records:
        trail.mismatches.append(FieldMismatch("pmid", pmid, "", "this PMID does not exist"))
        return
    trail.records.append(records[0])


async def _registered_arxiv(reference: Reference, arxiv_id: str, fetch: Fetch) -> WorkRecord | None:
    """The record of an arXiv id from DataCite, where arXiv registers a DOI for every paper
    (`10.48550/arXiv.<id>`), when it settles the reference by itself: it agrees in every field
    and leaves no venue to confirm. Asking DataCite costs no share of arXiv's one request every
    three seconds; anything it leaves open, and any failure, goes to arXiv as before."""
    unversioned = re.sub(r"v\d+$", "", arxiv_id)
    response = await fetch(datacite.work_request(f"10.48550/arxiv.{unversioned}".lower()))
    if response.status is not Status.OK:
        return None
    try:
        record = datacite.parse_work(response.body)
    except ValueError:
        return None
    comparison = compare(reference, record)
    settled = not comparison.mismatches and not comparison.needs_published
    return record if settled else None


async def _resolve_arxiv(reference: Reference, arxiv_id: str, fetch: Fetch, trail: _Trail) -> None:
    """The record of an arXiv id: DataCite's when it settles the reference, else arXiv's."""
    registered = await _registered_arxiv(reference, arxiv_id, fetch)
    if registered is not None:
        trail.records.append(registered)
        return
    response = await fetch(arxiv.id_request(arxiv_id))
    if not trail.saw(response):
        return
    try:
        records = arxiv.parse_feed(response.body) if response.status is Status.OK else []
    except ValueError:
        trail.failures.append(Failure.SERVER)
        return
    if not records:
        trail.mismatches.append(
            FieldMismatch("arxiv", arxiv_id, "", "this arXiv id does not exist")
        )
        return
    trail.records.append(records[0])


async def _search(
    reference: Reference,
    fetch: Fetch,
    trail: _Trail,
    use_openalex: bool = False,
    use_semantic_scholar: bool = False,
) -> list[WorkRecord]:
    """Title search in order (Crossref, Europe PMC, then OpenAlex and Semantic Scholar when
    their keys are set, then DBLP, and arXiv last), stopping at the first source with an exact
    title match. Crossref is not asked for a paper of proceedings that gave no Crossref DOIs
    (NeurIPS, ICLR: it cannot hold them). A conference paper is looked for in Europe PMC, an
    index of life-science journals and preprints, only after DBLP, the index of computing
    conferences. DBLP is optional: its failure never blocks a verdict found elsewhere, but
    leaves `not_found` unsaid. arXiv comes last because it allows one request every three
    seconds: DBLP and OpenAlex hold its papers too, so it is asked only for what they miss."""
    first_author = reference.authors[0].family if reference.authors else ""
    searches: list[tuple[RegistryRequest, Callable[[str], list[WorkRecord]]]] = []
    if not without_crossref_doi(reference.venue, reference.year):
        searches.append(
            (crossref.search_request(reference.title, first_author), crossref.parse_search)
        )
    life_sciences = (europepmc.search_request(reference.title), europepmc.parse_search)
    conference_paper = reference.entry_type.lower() in _CONFERENCE_TYPES
    if not conference_paper:
        searches.append(life_sciences)
    if use_openalex:
        searches.append((openalex.search_request(reference.title), openalex.parse_search))
    if use_semantic_scholar:
        searches.append(
            (semantic_scholar.match_request(reference.title), semantic_scholar.parse_match)
        )
    searches.append((dblp.search_request(reference.title), dblp.parse_search))
    if conference_paper:
        searches.append(life_sciences)
    searches.append((arxiv.search_request(reference.title), arxiv.parse_feed))
    found: list[WorkRecord] = []
    for request, parse in searches:
        response = await fetch(request)
        if request.source is Source.DBLP and response.status is Status.FAILED:
            # optional: an unreachable DBLP neither blocks nor weakens a verdict found elsewhere
            trail.note_source(request.source.value)
            trail.optional_failures.append(response.failure or Failure.NETWORK)
            continue
        if not trail.saw(response) or response.status is Status.ABSENT:
            continue
        try:
            records = parse(response.body)
        except ValueError:
            trail.failures.append(Failure.SERVER)
            continue
        found.extend(records)
        if any(compare_titles(reference.title, r.title).same for r in records):
            break
    return found


# Entry types of a paper in conference proceedings: BibTeX's and CSL's.
_CONFERENCE_TYPES = frozenset({"inproceedings", "conference", "paper-conference"})


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
        trail.notes.append("offline, and no registry answer is cached")
        return ReferenceVerdict.UNVERIFIABLE
    return ReferenceVerdict.ERROR


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
    if open_access and client.settings.email and doi and ReferenceFlag.OA_URL not in result.flags:
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


@dataclass
class _Lookup:
    """What the follow-up questions about one reference may ask, and what was found so far."""

    reference: Reference
    fetch: Fetch
    trail: _Trail
    search: Callable[[], Awaitable[list[WorkRecord]]]
    use_openalex: bool
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


def _memoized(fetch: Fetch) -> Fetch:
    """One answer per request within a reference's routing (follow-ups repeat searches)."""
    answers: dict[RegistryRequest, RegistryResponse] = {}

    async def once(request: RegistryRequest) -> RegistryResponse:
        if request not in answers:
            answers[request] = await fetch(request)
        return answers[request]

    return once


async def _unasked(request: RegistryRequest) -> RegistryResponse:
    """The answer of a registry that is not asked (a complete snapshot stands in for it)."""
    return RegistryResponse(request, Status.FAILED, failure=Failure.OFFLINE)


def _closed_world(snapshot: Snapshot | None, client: RegistryClient) -> Snapshot | None:
    """The snapshot, when it is the only source to consult: declared complete, run offline."""
    if snapshot is not None and snapshot.complete and client.settings.offline:
        return snapshot
    return None


def _not_in_snapshot(snapshot: Snapshot) -> str:
    return f"not in {snapshot.path.name}, a snapshot declared a complete copy of the registries"


async def _verdict(
    reference: Reference, client: RegistryClient, snapshot: Snapshot | None
) -> ReferenceResult:
    trail = _Trail()
    closed = _closed_world(snapshot, client)
    fetch = _unasked if closed else _memoized(client.fetch)
    reference, left_out = identifiers_to_ask(reference)
    trail.notes.extend(left_out)
    if is_short_doi(reference.doi):
        reference = await _expand_short_doi(reference, fetch, trail)
    keys = client.settings.api_keys
    use_openalex, use_s2 = "OPENALEX_API_KEY" in keys, "S2_API_KEY" in keys

    async def search() -> list[WorkRecord]:
        if not reference.title:
            return []
        if snapshot is not None:
            local = snapshot.search(reference.title)
            trail.note_source("snapshot")
            if closed or any(compare_titles(reference.title, r.title).same for r in local):
                return local
        return await _search(reference, fetch, trail, use_openalex, use_s2)

    lookup = _Lookup(reference, fetch, trail, search, use_openalex, closed is not None)
    local_doi = snapshot.by_doi(reference.doi) if snapshot and reference.doi else []
    local_arxiv = snapshot.by_arxiv(reference.arxiv_id) if snapshot and reference.arxiv_id else []
    local_pmid = snapshot.by_pmid(reference.pmid) if snapshot and reference.pmid else []
    if local_doi or local_arxiv or local_pmid or closed:
        trail.note_source("snapshot")
        trail.records.extend(local_doi[:1] + local_arxiv[:1] + local_pmid[:1])

    # An arXiv id that only restates an arXiv DOI was resolved through DataCite already.
    restated = reference.arxiv_id.lower() == arxiv_from_doi(reference.doi).lower()
    if closed:
        absent = [
            (name, value)
            for name, value, local in (
                ("doi", reference.doi, local_doi),
                ("arxiv", "" if restated else reference.arxiv_id, local_arxiv),
                ("pmid", reference.pmid, local_pmid),
            )
            if value and not local
        ]
        trail.mismatches.extend(
            FieldMismatch(n, v, "", _not_in_snapshot(closed)) for n, v in absent
        )
    else:
        if reference.doi and not local_doi:
            await _resolve_doi(_registered_doi(reference.doi.lower(), trail), fetch, trail)
        if reference.pmid and not local_pmid:
            await _resolve_pmid(reference.pmid, fetch, trail)
        if reference.arxiv_id and not restated and not local_arxiv:
            await _resolve_arxiv(reference, reference.arxiv_id, fetch, trail)
    trail.identifier_unchecked = bool(trail.failures)
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
    if judged:
        record, comparison = min(judged, key=lambda rc: _weight(rc[1]))
        record, comparison = await _follow_up(lookup, record, comparison)
        suggested = None
        if reference.title and (comparison.mismatches or trail.mismatches):
            suggested = await _suggestion(lookup, record)
        if suggested is not None:
            comparison = await _against_suggestion(lookup, record, suggested)
        return _judged(reference, record, comparison, trail, suggested)
    if trail.mismatches:  # an identifier that does not exist, nothing else resolved
        best = _best(reference, await lookup.searched_records())
        if best is None:
            return _result(reference, ReferenceVerdict.MISMATCH, None, trail, None)
        best, comparison = await _follow_up(lookup, best, compare(reference, best))
        return _judged(reference, best, comparison, trail, best)
    if not reference.title:
        verdict = _outage(trail) if trail.failures else ReferenceVerdict.UNVERIFIABLE
        trail.notes.append("no title to search for")
        return _result(reference, verdict, None, trail, None)
    best = _best(reference, await lookup.searched_records())
    if best is not None:
        best, comparison = await _follow_up(lookup, best, compare(reference, best))
        return _judged(reference, best, comparison, trail)
    if trail.failures or trail.optional_failures:
        trail.failures.extend(trail.optional_failures)
        return _result(reference, _outage(trail), None, trail, None)
    trail.notes.append(
        _not_in_snapshot(closed)
        if closed
        else "books, theses and reports are often missing from the registries"
    )
    return _result(reference, ReferenceVerdict.NOT_FOUND, None, trail, None)


def _weight(comparison: Comparison) -> tuple[int, int]:
    """Fewer mismatches first; among equals, a record that settles the venue."""
    return len(comparison.mismatches), int(comparison.needs_published)


def _judged(
    reference: Reference,
    record: WorkRecord,
    comparison: Comparison,
    trail: _Trail,
    suggested: WorkRecord | None = None,
) -> ReferenceResult:
    """The verdict once a record was chosen and every follow-up question was asked."""
    trail.mismatches.extend(comparison.mismatches)
    verdict = ReferenceVerdict.MISMATCH if trail.mismatches else ReferenceVerdict.VERIFIED
    if verdict is ReferenceVerdict.VERIFIED and trail.identifier_unchecked:
        trail.notes.append("its identifiers could not be checked: a registry did not answer")
        verdict = _outage(trail)
    if suggested is not None:
        trail.mismatches[:] = [_corrected(m, suggested) for m in trail.mismatches]
    return _result(reference, verdict, record, trail, comparison, suggested)


def _corrected(mismatch: FieldMismatch, suggested: WorkRecord) -> FieldMismatch:
    """An identifier that does not exist, with the suggested record's identifier as found."""
    found = {"doi": suggested.doi, "arxiv": suggested.arxiv_id, "pmid": suggested.pmid}
    if mismatch.field in found and not mismatch.found and found[mismatch.field]:
        return replace(mismatch, found=found[mismatch.field])
    return mismatch


async def _follow_up(
    lookup: _Lookup, record: WorkRecord, comparison: Comparison
) -> tuple[WorkRecord, Comparison]:
    """The questions a comparison leaves open, asked before anyone is accused: which version
    of the work the reference cites, whether a claimed venue has a published version, and
    whether cited authors missing from a short author list are missing from a complete one."""
    record, comparison = _other_version(lookup, record, comparison)
    if comparison.needs_published:
        record, comparison = await _published(lookup, record, comparison)
    comparison = _version_years(lookup, record, comparison)
    if comparison.unconfirmed_authors:
        comparison = await _confirm_authors(lookup, record, comparison)
    return record, comparison


def _other_version(
    lookup: _Lookup, record: WorkRecord, comparison: Comparison
) -> tuple[WorkRecord, Comparison]:
    """Preprint and published versions are records of one work: when the other version fits
    the reference where this one does not, the reference cites the other version."""
    if not comparison.mismatches and not comparison.needs_published:
        return record, comparison
    for other in lookup.versions(record):
        if is_preprint_record(other) == is_preprint_record(record):
            continue
        fitted = compare(lookup.reference, other)
        if not fitted.mismatches and not fitted.needs_published:
            kind = "preprint" if is_preprint_record(record) else "published version"
            note = f"the {kind} is {_describe(record)}"
            return other, replace(fitted, notes=(*fitted.notes, note))
    return record, comparison


async def _published(
    lookup: _Lookup, preprint: WorkRecord, comparison: Comparison
) -> tuple[WorkRecord, Comparison]:
    """A venue claimed for a work found as a preprint: compared with its published version,
    or a venue mismatch when DBLP, Semantic Scholar and OpenAlex know only the preprint."""
    published = [r for r in lookup.versions(preprint) if not is_preprint_record(r)]
    complete = True
    if not published:
        published, complete = await _ask_for_published(lookup)
    reference = lookup.reference
    if published:
        record = max(published, key=lambda r: compare_titles(reference.title, r.title).similarity)
        fitted = compare(reference, record)
        note = f"the arXiv preprint is {_describe(preprint)}"
        return record, replace(fitted, notes=(*fitted.notes, note))
    if not complete:
        note = (
            f"venue '{reference.venue}' not confirmed: a source that could know it did not answer"
        )
        return preprint, replace(comparison, notes=(*comparison.notes, note))
    mismatch = FieldMismatch(
        "venue",
        reference.venue,
        preprint.venue or "arXiv",
        "no published version found: the registries know only the arXiv preprint",
    )
    return preprint, replace(comparison, mismatches=(*comparison.mismatches, mismatch))


async def _ask_for_published(lookup: _Lookup) -> tuple[list[WorkRecord], bool]:
    """Published versions of the reference's title from DBLP, Semantic Scholar (a last resort
    without a key) and OpenAlex (with a key), or from a complete snapshot alone; and whether
    every source asked answered."""
    title = lookup.reference.title
    if lookup.closed:
        records = await lookup.searched_records()
        return [
            r for r in records if compare_titles(title, r.title).same and not is_preprint_record(r)
        ], True
    searches: list[tuple[RegistryRequest, Callable[[str], list[WorkRecord]]]] = [
        (dblp.search_request(title), dblp.parse_search),
        (semantic_scholar.match_request(title), semantic_scholar.parse_match),
    ]
    if lookup.use_openalex:
        searches.append((openalex.search_request(title), openalex.parse_search))
    found: list[WorkRecord] = []
    complete = True
    for request, parse in searches:
        response = await lookup.fetch(request)
        lookup.trail.note_source(request.source.value)
        if response.status is Status.FAILED:
            complete = False
            continue
        if response.status is Status.ABSENT:
            continue
        try:
            records = parse(response.body)
        except ValueError:
            complete = False
            continue
        lookup.found.extend(records)
        found.extend(
            r for r in records if compare_titles(title, r.title).same and not is_preprint_record(r)
        )
    return found, complete


def _version_years(lookup: _Lookup, record: WorkRecord, comparison: Comparison) -> Comparison:
    """A cited year that is the other version's year is a mismatch naming both versions."""
    year = lookup.reference.year
    if year is None or record.year is None or year == record.year:
        return comparison
    others = [
        r
        for r in lookup.versions(record)
        if r.year == year and is_preprint_record(r) != is_preprint_record(record)
    ]
    if not others:
        return comparison
    other = others[0]
    mismatch = FieldMismatch(
        "year",
        str(year),
        str(record.year),
        f"{year} is the year of the {_kind(other)} ({_describe(other)}); "
        f"the {_kind(record)} ({_describe(record)}) is of {record.year}",
    )
    kept = tuple(m for m in comparison.mismatches if m.field != "year")
    return replace(comparison, mismatches=(*kept, mismatch), year_off_by_one="")


async def _confirm_authors(
    lookup: _Lookup, record: WorkRecord, comparison: Comparison
) -> Comparison:
    """Cited authors missing from a record with a shorter list, checked against another
    source's list of the same work before anyone is accused."""
    cited = lookup.reference.authors
    alternates = [r for r in lookup.versions(record) if len(r.authors) >= len(cited)]
    if not alternates:
        await lookup.searched_records()
        alternates = [r for r in lookup.versions(record) if len(r.authors) >= len(cited)]
    names = ", ".join(p.display() for p in comparison.unconfirmed_authors)
    if not alternates:
        note = (
            f"cited authors {names} are not on the {record.source.value} record, which lists "
            f"{len(record.authors)}; no other source confirmed its list"
        )
        return replace(comparison, notes=(*comparison.notes, note))
    complete = max(alternates, key=lambda r: len(r.authors))
    missing = [
        p
        for p in comparison.unconfirmed_authors
        if not any(same_person(p, f) for f in complete.authors)
    ]
    if not missing:
        return comparison
    return replace(
        comparison, mismatches=(*comparison.mismatches, not_on_record(missing, complete.authors))
    )


def _kind(record: WorkRecord) -> str:
    return "preprint" if is_preprint_record(record) else "published version"


def _describe(record: WorkRecord) -> str:
    """ "arXiv:2005.14124, 2020" or "NeurIPS, 2021, doi:10.…" for notes naming a version."""
    parts = [f"arXiv:{record.arxiv_id}" if record.arxiv_id else record.venue or record.source.value]
    if record.year:
        parts.append(str(record.year))
    if record.doi and not record.arxiv_id:
        parts.append(f"doi:{record.doi}")
    return ", ".join(parts)


def _same_work(judged: list[tuple[WorkRecord, Comparison]]) -> bool:
    first = judged[0][0]
    return all(compare_titles(first.title, r.title).same for r, _ in judged[1:])


def _best(reference: Reference, records: list[WorkRecord]) -> WorkRecord | None:
    """The found record that is the cited work (same or similar title), best first."""
    scored = [(compare_titles(reference.title, r.title), r) for r in records]
    candidates = [(t, r) for t, r in scored if t.same or t.similarity >= TITLE_SIMILAR]
    if not candidates:
        return None
    return max(candidates, key=lambda tr: (tr[0].same, tr[0].similarity))[1]


async def _against_suggestion(
    lookup: _Lookup, resolved: WorkRecord, suggested: WorkRecord
) -> Comparison:
    """An identifier naming another work than the cited title: the identifier is the mismatch,
    and the rest of the reference is compared with the work its title names (the fields of the
    other work say nothing about what the writer got wrong)."""
    reference = lookup.reference
    _, comparison = await _follow_up(lookup, suggested, compare(reference, suggested))
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


async def _suggestion(lookup: _Lookup, resolved: WorkRecord) -> WorkRecord | None:
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
    trail: _Trail,
    comparison: Comparison | None,
    suggested: WorkRecord | None = None,
) -> ReferenceResult:
    records = [*trail.records, *([record] if record else [])]
    flags = set(_flags(records, trail))
    if suggested is not None:
        flags.add(ReferenceFlag.SUGGESTED)
    notes = list(trail.notes) + (list(comparison.remarks) if comparison else [])
    open_access = next((r.url for r in records if r.arxiv_id and r.url), "")
    if open_access:
        notes.append(f"open-access copy: {open_access}")
    if record is not None and verdict is ReferenceVerdict.VERIFIED and record.is_preprint:
        # A cited preprint whose published version exists is verified, with a note.
        arxiv_journal_doi = (record.doi,) if record.source is Source.ARXIV and record.doi else ()
        published = record.related_dois or arxiv_journal_doi
        if published:
            notes.append("a published version exists: " + ", ".join(published))
    return ReferenceResult(
        key=reference.key,
        verdict=verdict,
        flags=frozenset(flags),
        mismatches=tuple(dict.fromkeys(trail.mismatches)),
        match=to_match(record) if record else None,
        suggested=to_match(suggested) if suggested else None,
        notes=tuple(dict.fromkeys(notes)),
        sources=tuple(trail.consulted),
        open_access_url=open_access,
    )
