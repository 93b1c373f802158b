"""The one record type every registry's answer is parsed into."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from citecore.model import Person, Source


class Update(Enum):
    """Editorial notices attached to a work (Crossref `updated-by`, OpenAlex, PubMed)."""

    RETRACTION = "retraction"
    WITHDRAWAL = "withdrawal"
    EXPRESSION_OF_CONCERN = "expression_of_concern"
    CORRECTION = "correction"


@dataclass(frozen=True, slots=True)
class WorkRecord:
    """A work as one registry describes it; absent fields are empty or None."""

    source: Source
    title: str
    authors: tuple[Person, ...] = ()
    year: int | None = None
    venue: str = ""
    doi: str = ""
    arxiv_id: str = ""
    pmid: str = ""
    url: str = ""
    work_type: str = ""
    is_preprint: bool = False
    updates: frozenset[Update] = frozenset()
    related_dois: tuple[str, ...] = ()
    abstract: str = ""
    # Other names of the venue: abbreviations (ISO 4, NLM), short and alternate titles, events.
    venue_names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OpenAccessCopy:
    """Where a registry says a free, legal copy of a work is: a PDF, or full-text XML."""

    source: Source
    url: str
    full_text_xml: bool = False
    license: str = ""
    version: str = ""  # publishedVersion, acceptedVersion, submittedVersion
