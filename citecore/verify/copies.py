"""A complete copy of a registry answers for that registry (docs/verification.md, "A complete
copy answers for its registry").

A snapshot declared complete that holds a registry's records — DBLP's XML, arXiv's metadata, a
Crossref or DataCite dump — is that registry up to the copy's date. Every question routing would
send to the registry's API is answered from the copy instead: a title search, a DOI, an arXiv id
or a PMID. What the copy holds is the registry's answer whatever the year; that it holds
nothing is the registry's answer for a work older than the copy's latest year. Only a work the
copy lacks and that may be newer (the copy's latest year or later, or no year given) is asked
of the live registry. Whether a reference may be called `not_found` on the copy alone, offline,
stays the separate question of `Snapshot.covers`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from citecore.model import FieldMismatch, Reference, Source
from citecore.registries.record import WorkRecord
from citecore.verify.compare import compare_titles
from citecore.verify.trail import Trail

if TYPE_CHECKING:
    from citecore.registries.snapshot import RegistryCopy, Snapshot

# The registries as notes name them.
_NAMES = {
    Source.CROSSREF: "Crossref",
    Source.DATACITE: "DataCite",
    Source.ARXIV: "arXiv",
    Source.PUBMED: "PubMed",
    Source.EUROPEPMC: "Europe PMC",
    Source.OPENALEX: "OpenAlex",
    Source.SEMANTICSCHOLAR: "Semantic Scholar",
    Source.DBLP: "DBLP",
}
# The agencies whose copies answer for a DOI of a registrant they hold works of (a prefix
# belongs to one agency, so a DOI under it that the agency's complete copy lacks is nobody's).
_DOI_AGENCIES = (Source.CROSSREF, Source.DATACITE)
# arXiv registers a DataCite DOI for each of its papers: a copy of arXiv answers for those too.
_ARXIV_DOI = re.compile(r"10\.48550/arxiv\.(.+)", re.IGNORECASE)
# The month an arXiv id was given: "2105.01234" (2021), "hep-th/9901001" (1999).
_ARXIV_YEAR = re.compile(r"(?:^|/)(\d{2})(?:\d{2})[.\d]")


# How many of the snapshot's records for a title are read, and how many a copy answers with
# (as many as a registry's search gives back for one query here).
_WIDE, _LIMIT = 20, 5


def arxiv_year(arxiv_id: str) -> int | None:
    """The year an arXiv id was given, read from the id itself (None when it names none)."""
    match = _ARXIV_YEAR.search(arxiv_id)
    if match is None:
        return None
    two = int(match.group(1))
    return (1900 if two >= 91 else 2000) + two


@dataclass(frozen=True)
class Copies:
    """The registries that complete copies answer for in a run: none without a snapshot."""

    snapshot: Snapshot | None = None
    held: dict[str, RegistryCopy] = field(default_factory=dict)
    # The snapshot's records for a title, searched once for every registry asked about it
    # (one reference's routing asks up to four copies the same title).
    _found: dict[str, list[WorkRecord]] = field(default_factory=dict)

    @classmethod
    def of(cls, snapshot: Snapshot | None) -> Copies:
        """The complete copies among `snapshot`'s files."""
        return cls(snapshot, snapshot.registry_copies() if snapshot is not None else {})

    def title_search(
        self, source: Source, reference: Reference
    ) -> tuple[list[WorkRecord], Trail] | None:
        """`source`'s title search answered by its copy (the records, and the trail saying which
        copy answered), or None when the live registry must be asked: no copy, or the copy holds
        no work of that title and the work may be newer than the copy."""
        copy = self.held.get(source.value)
        if copy is None or self.snapshot is None:
            return None
        title = reference.title
        records = [r for r in self.search(title, _WIDE) if r.source is source][:_LIMIT]
        holds = any(compare_titles(title, r.title).same for r in records)
        if not holds and not _older(reference.year, copy):
            return None
        return records, _answered(source, copy)

    def doi(self, doi: str, year: int | None) -> Trail | None:
        """A DOI's record from the complete copy of its agency (arXiv's for arXiv's DOIs), or
        that it does not exist; None when the live registries must be asked."""
        if arxiv := _ARXIV_DOI.fullmatch(doi):
            return self.arxiv(arxiv.group(1), year, field_name="doi", cited=doi)
        for agency in _DOI_AGENCIES:
            copy = self.held.get(agency.value)
            if copy is None or self.snapshot is None:
                continue
            if not self.snapshot.holds_prefix(doi, agency.value):
                continue
            found = self.snapshot.by_doi(doi, agency.value)
            return self._identified(agency, copy, found, year, ("doi", doi, "DOI"))
        return None

    def search(self, title: str, limit: int = 5) -> list[WorkRecord]:
        """The snapshot's records for `title`, the most alike first (`Snapshot.search`, every
        file at once), searched once per title."""
        if self.snapshot is None:
            return []
        if title not in self._found:
            self._found[title] = self.snapshot.search(title, _WIDE)
        return self._found[title][:limit]

    def doi_record(
        self, agency: Source, doi: str, year: int | None
    ) -> tuple[WorkRecord | None, Trail] | None:
        """`agency`'s answer to a DOI look-up from its complete copy: the record, or None when
        the copy holds none and the work is older than the copy; None in place of the pair when
        the live agency must be asked."""
        copy = self.held.get(agency.value)
        if copy is None or self.snapshot is None:
            return None
        found = self.snapshot.by_doi(doi, agency.value)
        if not found and not _older(year, copy):
            return None
        return (found[0] if found else None), _answered(agency, copy)

    def arxiv(
        self, arxiv_id: str, year: int | None, field_name: str = "arxiv", cited: str = ""
    ) -> Trail | None:
        """An arXiv id's record from arXiv's complete copy, or that it does not exist (for an id
        older than the copy); None when arXiv must be asked."""
        copy = self.held.get(Source.ARXIV.value)
        if copy is None or self.snapshot is None:
            return None
        found = self.snapshot.by_arxiv(arxiv_id, Source.ARXIV.value)
        given = arxiv_year(arxiv_id) or year
        kind = "DOI" if field_name == "doi" else "arXiv id"
        named = (field_name, cited or arxiv_id, kind)
        return self._identified(Source.ARXIV, copy, found, given, named)

    def pmid(self, pmid: str, year: int | None) -> Trail | None:
        """A PMID's record from PubMed's complete copy, or that it does not exist; None when
        PubMed must be asked."""
        copy = self.held.get(Source.PUBMED.value)
        if copy is None or self.snapshot is None:
            return None
        found = self.snapshot.by_pmid(pmid, Source.PUBMED.value)
        return self._identified(Source.PUBMED, copy, found, year, ("pmid", pmid, "PMID"))

    @staticmethod
    def _identified(
        source: Source,
        copy: RegistryCopy,
        found: list[WorkRecord],
        year: int | None,
        named: tuple[str, str, str],
    ) -> Trail | None:
        """The trail of an identifier the copy answered for: its record, or, for a work older
        than the copy, that it does not exist; None when the copy cannot say."""
        answered = _answered(source, copy)
        if found:
            return answered + Trail(records=(found[0],))
        if not _older(year, copy):
            return None
        field_name, value, kind = named
        mismatch = FieldMismatch(field_name, value, "", f"this {kind} does not exist")
        return answered + Trail(mismatches=(mismatch,))


def _older(year: int | None, copy: RegistryCopy) -> bool:
    """Whether a work of `year` is older than the copy's latest year, so that the copy holds it
    if it exists (a dump is taken before its latest year ends; no year, no telling)."""
    return year is not None and year < copy.newest


def _answered(source: Source, copy: RegistryCopy) -> Trail:
    """The trail of asking a copy in its registry's place, with the note that says which."""
    name = _NAMES.get(source, source.value)
    note = f"{name} answered from {copy.files}, its complete copy (latest works {copy.newest})"
    return Trail(consulted=("snapshot",), notes=(note,))
