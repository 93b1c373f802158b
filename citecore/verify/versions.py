"""The questions a comparison leaves open, asked before anyone is accused: which version of a
work the reference cites (preprint or published), whether a claimed venue has a published
version, whether a cited year is the other version's, and whether cited authors missing from a
short author list are missing from a complete one."""

from __future__ import annotations

from dataclasses import replace

from citecore.model import FieldMismatch
from citecore.registries import dblp, openalex, semantic_scholar
from citecore.registries.record import WorkRecord
from citecore.registries.request import Status
from citecore.verify.compare import (
    Comparison,
    compare,
    compare_titles,
    is_preprint_record,
    not_on_record,
    same_person,
)
from citecore.verify.trail import Lookup, Trail


async def follow_up(
    lookup: Lookup, record: WorkRecord, comparison: Comparison
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
    lookup: Lookup, record: WorkRecord, comparison: Comparison
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
    lookup: Lookup, preprint: WorkRecord, comparison: Comparison
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


async def _ask_for_published(lookup: Lookup) -> tuple[list[WorkRecord], bool]:
    """Published versions of the reference's title from DBLP, Semantic Scholar (a last resort
    without a key) and OpenAlex (with a key) — each from its complete copy where there is one —
    or from a complete snapshot alone; and whether every source asked answered."""
    title = lookup.reference.title
    if lookup.closed:
        records = await lookup.searched_records()
        return [
            r for r in records if compare_titles(title, r.title).same and not is_preprint_record(r)
        ], True
    searches = [
        module.TITLE_SEARCH
        for module in (dblp, semantic_scholar, openalex)
        if module.REGISTRY.searches_titles(lookup.identity, last_resort=True)
    ]
    seen: list[WorkRecord] = []
    complete = True
    for search in searches:
        request = search.ask(title)
        copied = lookup.copies.title_search(request.source, lookup.reference)
        if copied is not None:
            lookup.remember(*copied)
            seen.extend(copied[0])
            continue
        response = await lookup.fetch(request)
        # Asked, but a failure here only leaves the venue unconfirmed: no failure on the trail.
        lookup.remember([], Trail(consulted=(request.source.value,)))
        if response.status is Status.FAILED:
            complete = False
            continue
        if response.status is Status.ABSENT:
            continue
        try:
            records = search.parse(response.body)
        except ValueError:
            complete = False
            continue
        lookup.remember(records, Trail())
        seen.extend(records)
    found = [r for r in seen if compare_titles(title, r.title).same and not is_preprint_record(r)]
    return found, complete


def _version_years(lookup: Lookup, record: WorkRecord, comparison: Comparison) -> Comparison:
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
    lookup: Lookup, record: WorkRecord, comparison: Comparison
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
