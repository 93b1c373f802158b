"""A reference without a usable identifier looked for by its title, in the order that spends the
registries' budgets best (arXiv, one request every three seconds, last)."""

from __future__ import annotations

from citecore.model import Reference, Source
from citecore.registries import arxiv, crossref, dblp, europepmc, openalex, semantic_scholar
from citecore.registries.http import Failure, Status
from citecore.registries.record import WorkRecord
from citecore.registries.registry import Identity, TitleSearch
from citecore.verify.compare import compare_titles
from citecore.verify.trail import Fetch, Trail
from citecore.verify.venues import without_crossref_doi


def title_route(reference: Reference, identity: Identity) -> list[TitleSearch]:
    """The title searches to ask for `reference`, in order: Crossref, Europe PMC, then OpenAlex
    and Semantic Scholar when their keys are set, then DBLP, and arXiv last. Crossref is left
    out for a paper of proceedings that gave no Crossref DOIs (NeurIPS, ICLR: it cannot hold
    them). A conference paper is looked for in Europe PMC, an index of life-science journals
    and preprints, only after DBLP, the index of computing conferences. arXiv comes last
    because it allows one request every three seconds: DBLP and OpenAlex hold its papers too,
    so it is asked only for what they miss."""
    route: list[TitleSearch] = []
    if not without_crossref_doi(reference.venue, reference.year):
        route.append(crossref.TITLE_SEARCH)
    conference_paper = reference.entry_type.lower() in _CONFERENCE_TYPES
    if not conference_paper:
        route.append(europepmc.TITLE_SEARCH)
    for keyed in (openalex, semantic_scholar):
        if keyed.REGISTRY.searches_titles(identity):
            route.append(keyed.TITLE_SEARCH)
    route.append(dblp.TITLE_SEARCH)
    if conference_paper:
        route.append(europepmc.TITLE_SEARCH)
    route.append(arxiv.TITLE_SEARCH)
    return route


async def search_title(
    reference: Reference, fetch: Fetch, trail: Trail, identity: Identity
) -> list[WorkRecord]:
    """The records the title route finds, stopping at the first source with an exact title
    match. DBLP is optional: its failure never blocks a verdict found elsewhere, but leaves
    `not_found` unsaid."""
    first_author = reference.authors[0].family if reference.authors else ""
    found: list[WorkRecord] = []
    for search in title_route(reference, identity):
        request = search.ask(reference.title, first_author)
        response = await fetch(request)
        if request.source is Source.DBLP and response.status is Status.FAILED:
            # optional: an unreachable DBLP neither blocks nor weakens a verdict found elsewhere
            trail.note_source(request.source.value)
            trail.optional_failures.append(response.failure or Failure.NETWORK)
            continue
        if not trail.saw(response) or response.status is Status.ABSENT:
            continue
        try:
            records = search.parse(response.body)
        except ValueError:
            trail.failures.append(Failure.SERVER)
            continue
        found.extend(records)
        if any(compare_titles(reference.title, r.title).same for r in records):
            break
    return found


# Entry types of a paper in conference proceedings: BibTeX's and CSL's.
_CONFERENCE_TYPES = frozenset({"inproceedings", "conference", "paper-conference"})
