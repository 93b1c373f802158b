"""A reference without a usable identifier looked for by its title, in the order that spends the
registries' budgets best (arXiv, one request every three seconds, last)."""

from __future__ import annotations

from collections.abc import Mapping

from citecore.model import Reference, Source
from citecore.registries import arxiv, crossref, dblp, europepmc, openalex, semantic_scholar
from citecore.registries.record import WorkRecord
from citecore.registries.registry import Identity, Registry, SourcePolicy, TitleSearch
from citecore.registries.request import Failure, RegistryRequest, Status
from citecore.verify.compare import compare_titles
from citecore.verify.copies import Copies
from citecore.verify.trail import Fetch, Trail, read
from citecore.verify.venues import without_crossref_doi

# The keyed title searches the route asks before DBLP when their keys are set.
_KEYED_SEARCHES: tuple[Registry, ...] = (openalex.REGISTRY, semantic_scholar.REGISTRY)


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
    for keyed in _KEYED_SEARCHES:
        if keyed.title_search is not None and keyed.searches_titles(identity):
            route.append(keyed.title_search)
    route.append(dblp.TITLE_SEARCH)
    if conference_paper:
        route.append(europepmc.TITLE_SEARCH)
    route.append(arxiv.TITLE_SEARCH)
    return route


async def search_title(
    reference: Reference, fetch: Fetch, identity: Identity, copies: Copies
) -> tuple[list[WorkRecord], Trail]:
    """The records the title route finds, stopping at the first source with an exact title
    match, and the trail of asking; a source with a complete copy in `copies` is answered by
    it. DBLP is optional: its failure never blocks a verdict found elsewhere, but leaves
    `not_found` unsaid."""
    first_author = reference.authors[0].family if reference.authors else ""
    found: list[WorkRecord] = []
    learned = Trail()
    for search in title_route(reference, identity):
        request = search.ask(reference.title, first_author)
        asked = copies.title_search(request.source, reference) or await _asked(
            request, search, fetch
        )
        records, heard = asked
        learned += heard
        if not records:
            continue
        found.extend(records)
        if any(compare_titles(reference.title, r.title).same for r in records):
            break
    return found, learned


async def _asked(
    request: RegistryRequest, search: TitleSearch, fetch: Fetch
) -> tuple[list[WorkRecord] | None, Trail]:
    """A live title search's records (None when it gave no usable answer) and the trail of
    asking. DBLP is optional: an unreachable DBLP neither blocks nor weakens a verdict found
    elsewhere, so its failure is kept apart."""
    response = await fetch(request)
    if request.source is Source.DBLP and response.status is Status.FAILED:
        failure = response.failure or Failure.NETWORK
        return None, Trail(consulted=(request.source.value,), optional_failures=(failure,))
    return read(response, search.parse, list[WorkRecord]())


# Entry types of a paper in conference proceedings: BibTeX's and CSL's.
_CONFERENCE_TYPES = frozenset({"inproceedings", "conference", "paper-conference"})


# A run that waited this long on DBLP's pace gets one line saying how to spare the wait.
_PACE_WORTH_SAYING = 15.0  # seconds


def pace_advice(
    sent: Mapping[Source, int], identity: Identity, policies: Mapping[Source, SourcePolicy]
) -> str:
    """One line for a run that spent long on DBLP's published pace (its FAQ asks for a second or
    two between requests): the free key whose title search, asked before DBLP once set, answers
    faster and would have spared most of that wait. Empty when the wait was short, the key is
    held, or the user's own limits (a mirror) made DBLP as fast."""
    dblp_rate = policies[Source.DBLP].requests_per_second
    asked = sent.get(Source.DBLP, 0)
    if asked / dblp_rate < _PACE_WORTH_SAYING:
        return ""
    faster = [
        registry
        for registry in _KEYED_SEARCHES
        if not registry.has_key(identity)
        and (registry.keyed_policy or registry.policy).requests_per_second > dblp_rate
    ]
    if not faster:
        return ""
    keys = " or ".join(r.key_variable for r in faster)
    return (
        f"{asked} title searches waited on DBLP's pace ({dblp_rate:g} request/s, about "
        f"{asked / dblp_rate:.0f} s); a free API key in {keys} lets a faster title search "
        "answer most of them first"
    )
