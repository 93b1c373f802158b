"""What fetching found, as data: what was stored, from where, and what is still missing."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Origin(Enum):
    """Where a source file came from; the value is the word the reports use."""

    FILE_FIELD = "file field"  # the entry's own `file` field
    SOURCES_FOLDER = "sources folder"  # put there by the writer
    ZOTERO = "zotero"
    ARXIV = "arxiv"
    EUROPEPMC = "europepmc"
    UNPAYWALL = "unpaywall"
    OPENALEX = "openalex"
    SEMANTICSCHOLAR = "semanticscholar"


@dataclass(frozen=True, slots=True)
class StoredSource:
    """A file stored in the sources folder by `sources fetch`: one entry of `sources.json`."""

    key: str
    file: str  # the name in the sources folder
    origin: Origin
    url: str = ""  # where it was fetched from (a path for a reference manager's file)
    doi: str = ""
    arxiv_id: str = ""
    license: str = ""
    version: str = ""
    sha256: str = ""
    size: int = 0
    fetched: str = ""  # ISO date and time, UTC


@dataclass(frozen=True, slots=True)
class MissingSource:
    """A cited key still without a source, with why and what was tried."""

    key: str
    reason: str
    tried: tuple[str, ...] = ()
    checked: str = ""  # ISO date and time, UTC: when it was last looked for


@dataclass(frozen=True, slots=True)
class FetchOutcome:
    """What one `sources fetch` did: stored files, keys that had a source already, keys left
    without one."""

    stored: tuple[StoredSource, ...] = ()
    present: tuple[str, ...] = ()
    missing: tuple[MissingSource, ...] = ()
