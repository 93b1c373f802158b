"""Where a cited work's open-access copies are, in order of quality: arXiv (the preprint the
id names), Europe PMC's full text (sections and paragraphs, better than any PDF), Unpaywall's
locations, OpenAlex's, and Semantic Scholar's `openAccessPdf` last. Each registry is asked only
when the ones before it gave nothing that could be fetched, through the shared registry client
(published limits, cached answers)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

from citecore.identifiers import arxiv_from_doi
from citecore.model import Reference, Source
from citecore.registries import europepmc, openalex, semantic_scholar, unpaywall
from citecore.registries.http import RegistryClient
from citecore.registries.record import OpenAccessCopy
from citecore.registries.request import RegistryRequest, Status

_PMID_KEY = re.compile(r"^pmid[_:\-]?(\d{1,8})$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class WorkIds:
    """The identifiers a work's copies are found by."""

    doi: str = ""
    arxiv_id: str = ""
    pmid: str = ""
    pmcid: str = ""

    @classmethod
    def of(cls, reference: Reference, found_doi: str = "") -> WorkIds:
        """The reference's identifiers, with `found_doi` first: the DOI of the work the entry
        describes as verification found it (an entry may carry none, or another work's)."""
        if not found_doi or found_doi.casefold() == reference.doi.casefold():
            doi = reference.doi  # as the writer spells it
            arxiv_id = reference.arxiv_id or arxiv_from_doi(doi)
        else:
            # The entry's DOI is another work's: so is an arXiv id read from it.
            doi = found_doi
            own = reference.arxiv_id if reference.arxiv_id != arxiv_from_doi(reference.doi) else ""
            arxiv_id = arxiv_from_doi(doi) or own
        # Bibliographies exported from PubMed name entries by PMID (`PMID_9915498`): for
        # fetching only, where the file's title is checked against the entry's.
        pmid = reference.pmid or next(iter(_PMID_KEY.findall(reference.key)), "")
        return cls(doi, arxiv_id, pmid, reference.pmcid)

    def __bool__(self) -> bool:
        return any((self.doi, self.arxiv_id, self.pmid, self.pmcid))


async def _asked(
    client: RegistryClient,
    request: RegistryRequest,
    parse: Callable[[str], tuple[OpenAccessCopy, ...]],
    problems: list[str],
) -> tuple[OpenAccessCopy, ...]:
    """The copies one registry names; an unreadable or failed answer names none, and says so."""
    answer = await client.fetch(request)
    if answer.status is Status.FAILED:
        problems.append(request.source.value)
        return ()
    if answer.status is Status.ABSENT:
        return ()
    try:
        return parse(answer.body)
    except ValueError:
        problems.append(f"{request.source.value} (unreadable answer)")
        return ()


async def open_access_copies(
    ids: WorkIds, client: RegistryClient, problems: list[str]
) -> AsyncIterator[OpenAccessCopy]:
    """Every open-access copy of the work, best first, asking each registry only when the
    caller wants more; the names of registries that did not answer are added to `problems`."""
    bases = client.settings.base_urls
    if ids.arxiv_id:
        yield OpenAccessCopy(
            Source.ARXIV, f"{bases[Source.ARXIV]}/pdf/{ids.arxiv_id}", license="arXiv"
        )
    pmcid, license_ = ids.pmcid, ""
    if not pmcid and (ids.doi or ids.pmid):
        request = europepmc.open_access_request(ids.doi, ids.pmid)
        answer = await client.fetch(request)
        if answer.status is Status.FAILED:
            problems.append("europepmc")
        elif answer.status is Status.OK:
            try:
                pmcid, license_ = europepmc.parse_open_access(answer.body)
            except ValueError:
                problems.append("europepmc (unreadable answer)")
    if pmcid:
        url = bases[Source.EUROPEPMC] + europepmc.full_text_path(pmcid)
        yield OpenAccessCopy(Source.EUROPEPMC, url, full_text_xml=True, license=license_)
    if ids.doi and unpaywall.REGISTRY.usable(client.settings.identity()):
        for copy in await _asked(
            client, unpaywall.oa_request(ids.doi), unpaywall.parse_copies, problems
        ):
            yield copy
    if ids.doi:
        for copy in await _asked(
            client, openalex.work_request(ids.doi), openalex.parse_copies, problems
        ):
            yield copy
    if ids.doi or ids.arxiv_id:
        request = semantic_scholar.open_access_request(ids.doi, ids.arxiv_id)
        for copy in await _asked(client, request, semantic_scholar.parse_copies, problems):
            yield copy
