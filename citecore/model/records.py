"""The typed records that pass between pipeline stages: frozen, slotted dataclasses; a stage
receives records and returns new ones, it never mutates what it was given."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any

from citecore.model.vocabulary import (
    CitationContext,
    CitationMode,
    FindingKind,
    GroundingStatus,
    ReferenceFlag,
    ReferenceVerdict,
    Severity,
    Signal,
    Source,
)


@dataclass(frozen=True, slots=True)
class SourceLocation:
    """A place in an input file; `line` is 1-based and None when it could not be determined."""

    file: str
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}" if self.line is not None else self.file


@dataclass(frozen=True, slots=True, order=True)
class CitationId:
    """Which occurrence a citation is, given once by extraction and kept by every stage: the
    document extraction read (its first file) and the citation's place in its reading order,
    from 0. Per-citation results are keyed by it, never by a position in a list."""

    document: str
    ordinal: int

    def __str__(self) -> str:
        return f"{self.document}#{self.ordinal}"


@dataclass(frozen=True, slots=True)
class Citation:
    """One occurrence of one key in the text, with the sentence that makes the claim."""

    key: str
    mode: CitationMode
    location: SourceLocation
    ident: CitationId
    prefix: str = ""
    suffix: str = ""
    locator: str = ""
    signal: Signal | None = None
    claim: str = ""
    paragraph: str = ""
    note_number: int | None = None
    cited_with: tuple[str, ...] = ()
    context: CitationContext = CitationContext.BODY

    @property
    def in_note(self) -> bool:
        """True when the citation sits in a footnote."""
        return self.note_number is not None


@dataclass(frozen=True, slots=True)
class Person:
    """A person or organisation in an author list; organisations have only `family`."""

    family: str
    given: str = ""
    particle: str = ""
    suffix: str = ""
    is_organization: bool = False
    # DBLP's homonym number ("Jens Lehmann 0001" names one of several Jens Lehmanns): kept to be
    # said in notes, never part of the name that is compared.
    homonym: str = ""

    def display(self) -> str:
        """The name as "von Neumann, John" (family first), for reports."""
        family = f"{self.particle} {self.family}".strip()
        if self.is_organization or not self.given:
            return family
        return f"{family}, {self.given}" + (f", {self.suffix}" if self.suffix else "")


@dataclass(frozen=True, slots=True)
class Reference:
    """One bibliography entry, decoded to plain Unicode; absent fields are empty or None."""

    key: str
    entry_type: str
    location: SourceLocation
    title: str = ""
    authors: tuple[Person, ...] = ()
    editors: tuple[Person, ...] = ()
    # False when the list ends with "and others"/"et al." or only part of it could be read.
    authors_complete: bool = True
    year: int | None = None
    year_text: str = ""
    date: str = ""
    venue: str = ""
    volume: str = ""
    issue: str = ""
    pages: str = ""
    publisher: str = ""
    doi: str = ""
    arxiv_id: str = ""
    pmid: str = ""
    pmcid: str = ""
    isbn: str = ""
    url: str = ""
    files: tuple[str, ...] = ()
    # The entry as printed, for a reference read from a PDF or a plain-text list.
    text: str = ""


@dataclass(frozen=True, slots=True)
class UnparsedEntry:
    """A bibliography block that could not be read as an entry, kept with its raw text."""

    location: SourceLocation
    reason: str
    raw: str
    key: str | None = None


@dataclass(frozen=True, slots=True)
class Bibliography:
    """Every entry from every bibliography source, in load order.

    `references` maps each key to its first definition; later definitions of the same key are in
    `duplicates` (they are also what makes a `duplicate_key` finding).
    """

    sources: tuple[str, ...] = ()
    references: dict[str, Reference] = field(default_factory=dict)
    duplicates: tuple[Reference, ...] = ()
    unparsed: tuple[UnparsedEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class FieldMismatch:
    """One field whose cited value differs from the registry's."""

    field: str
    given: str
    found: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Match:
    """The registry record a reference was compared with."""

    source: Source
    title: str = ""
    authors: tuple[str, ...] = ()
    year: int | None = None
    venue: str = ""
    doi: str = ""
    url: str = ""


@dataclass(frozen=True, slots=True)
class ReferenceResult:
    """The existence verdict for one bibliography entry, from whatever verifier ran."""

    key: str
    verdict: ReferenceVerdict
    flags: frozenset[ReferenceFlag] = frozenset()
    mismatches: tuple[FieldMismatch, ...] = ()
    match: Match | None = None
    suggested: Match | None = None
    notes: tuple[str, ...] = ()  # for people: what a reader should know of the verdict
    sources: tuple[str, ...] = ()
    open_access_url: str = ""  # a free copy of the matched work, where one was found


@dataclass(frozen=True, slots=True)
class CitationResult:
    """The grounding verdict for one citation: does its source support its claim."""

    status: GroundingStatus
    judge: str
    model: str = ""
    ungrounded: bool = False
    page: int | None = None
    passage: str = ""
    reason: str = ""
    source: str = ""  # where the source files came from ("zotero", "arxiv", "file field", …)


@dataclass(frozen=True, slots=True)
class SourceRecord:
    """The files a cited key is grounded against and where they came from, or why it has none."""

    key: str
    origin: str = ""  # "file field", "sources folder", "zotero", "arxiv", …; "" when none
    files: tuple[str, ...] = ()
    missing: str = ""  # why there is none


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem (or piece of information) to report, tied to a place in the inputs."""

    kind: FindingKind
    severity: Severity
    message: str
    key: str | None = None
    location: SourceLocation | None = None
    # The citation it is about, when it is about one occurrence (an undefined key there, its
    # grounding, a registry verdict said at it): outputs join by it, never by (file, line, key),
    # which two citations of one key on one line share.
    citation: CitationId | None = None


@dataclass(frozen=True, slots=True)
class Outage:
    """What the registries left unchecked in one run, and why. A value in the result (not a
    flag on a verifier), so that every shell decides its message and exit status from it."""

    unchecked: tuple[str, ...]  # keys of the references not (fully) checked
    unreachable: tuple[str, ...] = ()  # sources no connection could be made to
    rate_limited: tuple[str, ...] = ()  # sources that kept answering 429
    failed: tuple[str, ...] = ()  # sources that answered with errors or timed out
    network_down: bool = False  # no source answered at all
    # The network was found down by a run of the last minute, so this one did not ask.
    recalled: bool = False

    @staticmethod
    def combined(earlier: Outage | None, later: Outage) -> Outage:
        """Two runs' outages as one (a run in batches)."""
        if earlier is None:
            return later

        def both(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[str, ...]:
            return tuple(dict.fromkeys((*a, *b)))

        return Outage(
            both(earlier.unchecked, later.unchecked),
            both(earlier.unreachable, later.unreachable),
            both(earlier.rate_limited, later.rate_limited),
            both(earlier.failed, later.failed),
            earlier.network_down or later.network_down,
            earlier.recalled or later.recalled,
        )

    def message(self) -> str:
        """One line for the writer: what was not checked, why, and what to do."""
        count = len(self.unchecked)
        what = f"{count} reference{'s' if count != 1 else ''} not checked"
        if self.network_down and self.recalled:
            return (
                f"registries not asked: the network was down less than a minute ago; {what}; "
                "cached answers used; run again in a minute or with --refresh to ask now, or "
                "with --offline to skip the network"
            )
        if self.network_down:
            return (
                f"registries unreachable: {what}; cached answers used; run again online, "
                "or with --offline to skip the network"
            )
        parts = []
        if self.unreachable:
            parts.append(f"{', '.join(self.unreachable)} could not be reached")
        if self.rate_limited:
            parts.append(f"{', '.join(self.rate_limited)} kept rate-limiting")
        if self.failed:
            parts.append(f"{', '.join(self.failed)} did not answer")
        reason = "; ".join(parts) or "a source did not answer"
        return f"{what} fully: {reason}; run again later (answers so far are cached)"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """Everything one run found: the input to every report and annotation."""

    documents: tuple[str, ...]
    bibliography: Bibliography
    citations: tuple[Citation, ...]
    references: dict[str, ReferenceResult]
    findings: tuple[Finding, ...]
    grounding: dict[CitationId, CitationResult] = field(default_factory=dict)
    outage: Outage | None = None
    sources: dict[str, SourceRecord] = field(default_factory=dict)  # by key, when grounding
    # Entries the writer includes uncited (pandoc's `nocite`, LaTeX's `\nocite`): verified, never
    # grounded, and said to come from `nocite` in every report.
    nocite: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # A stage that duplicated a citation or grounded one the result does not hold would
        # otherwise show a verdict on the wrong sentence, silently.
        idents = {c.ident for c in self.citations}
        if len(idents) != len(self.citations):
            raise ValueError("two citations share an identity")
        if not idents.issuperset(self.grounding):
            raise ValueError("a grounding verdict names no citation of the result")

    def grounding_of(self, citation: Citation) -> CitationResult | None:
        """The grounding verdict of `citation`, None when it was not grounded."""
        return self.grounding.get(citation.ident)


def _pickled_by_fields(record: type) -> None:
    """Pickle `record` as the tuple of its fields' values. A slotted dataclass's own state
    methods look its fields up again for every object: a screen pickles a million references
    and verdicts on their way to and from the workers (#64), 1.4–1.7× faster so."""
    names = tuple(f.name for f in fields(record))
    values = attrgetter(*names) if len(names) > 1 else (lambda o: (getattr(o, names[0]),))

    def state(self: object) -> tuple[Any, ...]:
        return tuple(values(self))

    def set_state(self: object, state: tuple[Any, ...]) -> None:
        for name, value in zip(names, state, strict=True):
            object.__setattr__(self, name, value)

    # set after @dataclass, which writes its own
    setattr(record, "__getstate__", state)  # noqa: B010 - mypy refuses assigning a method
    setattr(record, "__setstate__", set_state)  # noqa: B010


for _record in (SourceLocation, CitationId, Citation, Person, Reference, UnparsedEntry,
                Bibliography, FieldMismatch, Match, ReferenceResult, CitationResult,
                SourceRecord, Finding, Outage, CheckResult):  # fmt: skip
    _pickled_by_fields(_record)
