"""A reference without a usable identifier looked for by its title, in the order that spends the
registries' budgets best (arXiv, one request every three seconds, last)."""

from __future__ import annotations

from collections.abc import Callable

from citecore.model import Reference, Source
from citecore.registries import arxiv, crossref, dblp, europepmc, openalex, semantic_scholar
from citecore.registries.http import Failure, Status
from citecore.registries.record import WorkRecord
from citecore.registries.request import RegistryRequest
from citecore.verify.compare import compare_titles
from citecore.verify.trail import Fetch, Trail
from citecore.verify.venues import without_crossref_doi


async def search_title(
    reference: Reference,
    fetch: Fetch,
    trail: Trail,
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
