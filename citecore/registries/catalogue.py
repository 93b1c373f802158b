"""Every registry citecheck asks, by source: the declarations of the adapter modules."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from citecore.model import Source
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
from citecore.registries.registry import Registry

REGISTRIES: Mapping[Source, Registry] = MappingProxyType(
    {
        module.REGISTRY.source: module.REGISTRY
        for module in (
            doi_org,
            crossref,
            datacite,
            arxiv,
            pubmed,
            europepmc,
            openalex,
            semantic_scholar,
            dblp,
            unpaywall,
        )
    }
)

# The environment variables that hold the users' API keys, one per registry that takes one.
KEY_VARIABLES: tuple[str, ...] = tuple(
    r.key_variable for r in REGISTRIES.values() if r.key_variable
)
