"""Each adapter declares its registry (address, limits, identity, key, questions); the client,
the settings and the verifier's routes are read off those declarations."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from citecore.model import Reference, Source, SourceLocation
from citecore.registries import (
    arxiv,
    crossref,
    dblp,
    europepmc,
    openalex,
    pubmed,
    semantic_scholar,
    unpaywall,
)
from citecore.registries.catalogue import KEY_VARIABLES, REGISTRIES
from citecore.registries.http import RegistryClient
from citecore.registries.registry import Identity, SourcePolicy
from citecore.registries.request import RegistryRequest, Status
from citecore.registries.settings import ClientSettings
from citecore.verify.by_title import title_route
from tests.emulator import RegistryEmulator, Reply

KEYS = {"OPENALEX_API_KEY": "oa-key", "S2_API_KEY": "s2-key", "NCBI_API_KEY": "ncbi-key"}
FAST = {source: SourcePolicy(50.0, 4) for source in Source}


def test_every_source_is_declared_once_by_its_adapter() -> None:
    assert set(REGISTRIES) == set(Source)
    assert all(source is registry.source for source, registry in REGISTRIES.items())
    assert sorted(KEY_VARIABLES) == sorted(KEYS)


# What each registry's documentation asks a client to send, with a contact address and every key
# set: Crossref's polite pool (mailto), NCBI's tool/email/api_key, OpenAlex's api_key and
# mailto, Semantic Scholar's x-api-key header, Unpaywall's email; nothing to the others.
EXPECTED = {
    Source.CROSSREF: {"mailto": "writer@example.org"},
    Source.PUBMED: {"tool": "citecheck", "email": "writer@example.org", "api_key": "ncbi-key"},
    Source.OPENALEX: {"api_key": "oa-key", "mailto": "writer@example.org"},
    Source.SEMANTICSCHOLAR: {"header:x-api-key": "s2-key"},
    Source.UNPAYWALL: {"email": "writer@example.org"},
}


@pytest.mark.parametrize("source", list(Source), ids=lambda s: s.value)
def test_a_request_carries_what_its_registry_asks_for(source: Source) -> None:
    request = RegistryRequest(source, "/probe", (("q", "x"),))
    with RegistryEmulator() as emulator:
        emulator.serve(request, Reply(body="{}"))
        settings = ClientSettings.from_environment(
            {**emulator.environment(), **KEYS}, email="writer@example.org", policies=FAST
        )

        async def ask() -> Status:
            async with RegistryClient(settings) as client:
                return (await client.fetch(request)).status

        assert asyncio.run(ask()) is Status.OK
    sent = {k: v for k, v in emulator.identification[0].items() if k != "user-agent"}
    assert sent == EXPECTED.get(source, {})


def test_a_key_raises_only_its_own_registrys_limits() -> None:
    plain = ClientSettings.from_environment({})
    keyed = ClientSettings.from_environment(KEYS)
    changed = {s for s in Source if plain.policies[s] != keyed.policies[s]}
    assert changed == {Source.PUBMED}
    assert keyed.policies[Source.PUBMED].requests_per_second == 10


def test_title_searches_follow_the_keys_held() -> None:
    nobody, keyed = Identity(), Identity(api_keys=KEYS)
    # OpenAlex's search needs its key; Semantic Scholar's keyless pool is a last resort only.
    assert not openalex.REGISTRY.searches_titles(nobody, last_resort=True)
    assert not semantic_scholar.REGISTRY.searches_titles(nobody)
    assert semantic_scholar.REGISTRY.searches_titles(nobody, last_resort=True)
    assert openalex.REGISTRY.searches_titles(keyed) and semantic_scholar.REGISTRY.searches_titles(
        keyed
    )
    assert dblp.REGISTRY.searches_titles(nobody) and arxiv.REGISTRY.searches_titles(nobody)
    assert not pubmed.REGISTRY.searches_titles(keyed)  # no title search is declared
    assert not unpaywall.REGISTRY.usable(nobody)
    assert unpaywall.REGISTRY.usable(Identity(email="writer@example.org"))


def test_the_title_route_spends_the_slow_budgets_last() -> None:
    article = Reference(
        key="a", location=SourceLocation("refs.bib"), title="A study", entry_type="article"
    )
    article = replace(article, venue="Nature")
    paper = replace(article, entry_type="inproceedings", venue="NeurIPS", year=2020)
    route = [search.ask("t").source for search in title_route(article, Identity())]
    assert route == [Source.CROSSREF, Source.EUROPEPMC, Source.DBLP, Source.ARXIV]
    route = [search.ask("t").source for search in title_route(paper, Identity(api_keys=KEYS))]
    # NeurIPS gave no Crossref DOIs; a conference paper is looked for in DBLP before Europe PMC.
    assert route == [
        Source.OPENALEX,
        Source.SEMANTICSCHOLAR,
        Source.DBLP,
        Source.EUROPEPMC,
        Source.ARXIV,
    ]
    assert europepmc.TITLE_SEARCH in title_route(article, Identity())
    assert crossref.TITLE_SEARCH not in title_route(paper, Identity())


def test_no_repr_shows_a_key() -> None:
    # What a debug log or a traceback prints of the settings never holds a key.
    settings = ClientSettings.from_environment(KEYS, email="writer@example.org")
    for shown in (repr(settings), repr(settings.identity())):
        assert not any(key in shown for key in KEYS.values()), shown
