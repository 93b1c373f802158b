"""The fetch stage as a run's options steer it: which folder, whether to ask the writer's
Zotero library, which registry settings; the shells and `api` call this."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path

from citecore.cache import Cache
from citecore.fetch.records import FetchOutcome
from citecore.fetch.run import FetchPlan, fetch_sources
from citecore.fetch.zotero import open_library
from citecore.model import Reference
from citecore.options import DEFAULT_SOURCES, Options
from citecore.registries.settings import settings_for

logger = logging.getLogger(__name__)


def fetch_for_options(
    references: Sequence[Reference],
    options: Options,
    folder: Path,
    bibliography_dirs: Sequence[Path],
    found_dois: Mapping[str, str] | None = None,
) -> FetchOutcome:
    """Fetch a source for each reference without one into the run's sources folder (`sources/`
    beside the document unless the options name one)."""
    sources_dir = options.sources or folder / DEFAULT_SOURCES
    library = None
    if options.zotero:
        library = open_library(options.zotero_url, options.zotero_data)
        if library is not None:
            logger.info("reading the Zotero library: %s", library.where)
    plan = FetchPlan(
        sources_dir,
        tuple(bibliography_dirs),
        settings_for(options),
        library,
        found_dois,
        options.refresh,
    )
    try:
        with Cache(options.cache) as cache:
            return fetch_sources(references, plan, cache)
    finally:
        if library is not None:
            library.close()
