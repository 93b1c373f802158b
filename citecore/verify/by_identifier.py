"""A reference's identifiers resolved to records: DOIs through their agency (doi.org only when
the likely agency does not know one), shortDOIs, PMIDs, arXiv ids (DataCite first, arXiv only for
what DataCite leaves open). Each returns the trail of what it learned; an identifier that does not
exist is a mismatch on it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace

from citecore.model import FieldMismatch, Reference, Source
from citecore.registries import arxiv, crossref, datacite, doi_org, pubmed
from citecore.registries.record import WorkRecord
from citecore.registries.request import Status
from citecore.verify.compare import compare
from citecore.verify.copies import Copies
from citecore.verify.trail import Fetch, Trail, read

# Prefixes whose agency is known without asking doi.org (DataCite repositories).
_DATACITE_PREFIXES = ("10.48550/", "10.5281/", "10.6084/", "10.5061/", "10.1594/", "10.4230/")


@dataclass(frozen=True, slots=True)
class Asked:
    """What a DOI's look-up may ask besides the live agencies: their complete copies, for a
    work of `year`."""

    copies: Copies
    year: int | None


# The agencies whose metadata is read, and where.
_AGENCY_LOOKUPS = {
    doi_org.Agency.CROSSREF: crossref.DOI_LOOKUP,
    doi_org.Agency.DATACITE: datacite.DOI_LOOKUP,
}


def registered_doi(doi: str) -> tuple[str, Trail]:
    """arXiv registers its DOIs for unversioned ids: "10.48550/arxiv.2104.09425v2" names the
    work of 10.48550/arxiv.2104.09425, with a version pinned, not a DOI that does not exist."""
    match = re.fullmatch(r"(10\.48550/arxiv\.\d{4}\.\d{4,5})v\d+", doi)
    if match is None:
        return doi, Trail()
    note = f"arXiv DOIs carry no version: {doi} is registered as {match.group(1)}"
    return match.group(1), Trail(notes=(note,))


async def expand_short_doi(reference: Reference, fetch: Fetch) -> tuple[Reference, Trail]:
    """The reference with its shortDOI replaced by the DOI it stands for (doi.org's handle
    API), a note saying so; a shortDOI that doi.org does not know is a DOI mismatch."""
    short = reference.doi
    full, learned = read(await fetch(doi_org.alias_request(short)), doi_org.parse_alias, "")
    if full is None:
        return replace(reference, doi=""), learned
    if not full:
        mismatch = FieldMismatch("doi", short, "", "this shortDOI does not exist")
        return replace(reference, doi=""), learned + Trail(mismatches=(mismatch,))
    return replace(reference, doi=full), learned + Trail(
        notes=(f"shortDOI {short} stands for {full}",)
    )


async def resolve_doi(doi: str, fetch: Fetch, asked: Asked) -> Trail:
    """The record of a DOI from its agency. The likely agency is asked first (DataCite for its
    repositories' prefixes, else Crossref, which holds most DOIs), and doi.org only when that
    agency does not know the DOI (whose is it, or nobody's?): one request for most references.
    An agency with a complete copy among `asked.copies` is asked in the copy."""
    likely = (
        doi_org.Agency.DATACITE if doi.startswith(_DATACITE_PREFIXES) else doi_org.Agency.CROSSREF
    )
    first = await _from_agency(doi, likely, fetch, asked, quiet_absence=True)
    if first.records or first.failures:
        return first
    agency, learned = read(
        await fetch(doi_org.agency_request(doi)), doi_org.parse_agency, doi_org.Agency.NONE
    )
    learned = first + learned
    if agency is None:
        return learned
    if agency is doi_org.Agency.NONE:
        mismatch = FieldMismatch("doi", doi, "", "this DOI does not exist")
        return learned + Trail(mismatches=(mismatch,))
    if agency is doi_org.Agency.OTHER:
        note = f"DOI {doi} is registered with an agency whose metadata is not read"
        return learned + Trail(notes=(note,))
    if agency is not likely:
        return learned + await _from_agency(doi, agency, fetch, asked)
    note = f"DOI {doi} is registered with {agency.value}, which has no metadata for it"
    return learned + Trail(notes=(note,))


async def _from_agency(
    doi: str, agency: doi_org.Agency, fetch: Fetch, asked: Asked, quiet_absence: bool = False
) -> Trail:
    """A DOI's record from its agency (or the agency's complete copy), on the trail of asking
    when one was found."""
    lookup = _AGENCY_LOOKUPS[agency]
    copied = asked.copies.doi_record(Source(agency.value), doi, asked.year)
    if copied is not None:
        record, learned = copied
        absent = record is None
    else:
        answer = await fetch(lookup.request(doi))
        record, learned = read(answer, lookup.parse, None)
        absent = answer.status is Status.ABSENT
    if record is not None:
        return learned + Trail(records=(record,))
    if absent and not quiet_absence:
        return learned + Trail(notes=(f"DOI {doi} is not in {agency.value}",))
    return learned


async def resolve_pmid(pmid: str, fetch: Fetch) -> Trail:
    """The record of a PMID from PubMed; a PMID it does not hold is a mismatch."""
    response = await fetch(pubmed.summary_request(pmid))
    records, learned = read(response, pubmed.parse_summary, list[WorkRecord]())
    if records is None:
        return learned
    if not records:
        mismatch = FieldMismatch("pmid", pmid, "", "this PMID does not exist")
        return learned + Trail(mismatches=(mismatch,))
    return learned + Trail(records=(records[0],))


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


async def resolve_arxiv(reference: Reference, arxiv_id: str, fetch: Fetch) -> Trail:
    """The record of an arXiv id: DataCite's when it settles the reference, else arXiv's."""
    registered = await _registered_arxiv(reference, arxiv_id, fetch)
    if registered is not None:
        return Trail(records=(registered,))
    response = await fetch(arxiv.id_request(arxiv_id))
    records, learned = read(response, arxiv.parse_feed, list[WorkRecord]())
    if records is None:
        return learned
    if not records:
        mismatch = FieldMismatch("arxiv", arxiv_id, "", "this arXiv id does not exist")
        return learned + Trail(mismatches=(mismatch,))
    return learned + Trail(records=(records[0],))


async def resolve_identifiers(
    reference: Reference, asked: Mapping[str, str], fetch: Fetch, copies: Copies
) -> Trail:
    """The registries' records of the identifiers `asked` (by field: "doi", "pmid", "arxiv"):
    a DOI through its agency, a PMID from PubMed, an arXiv id from DataCite or arXiv — each
    from the registry's complete copy instead, where `copies` holds one that can answer."""
    learned = Trail()
    year = reference.year
    if "doi" in asked:
        doi, registered = registered_doi(asked["doi"].lower())
        copied = copies.doi(doi, year)
        by_agency = Asked(copies, year)
        learned += registered + (
            copied if copied is not None else await resolve_doi(doi, fetch, by_agency)
        )
    if "pmid" in asked:
        copied = copies.pmid(asked["pmid"], year)
        learned += copied if copied is not None else await resolve_pmid(asked["pmid"], fetch)
    if "arxiv" in asked:
        copied = copies.arxiv(asked["arxiv"], year)
        learned += (
            copied if copied is not None else await resolve_arxiv(reference, asked["arxiv"], fetch)
        )
    return learned
