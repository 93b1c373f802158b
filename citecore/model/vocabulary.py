"""The closed vocabularies of the records: sources, citation forms, verdicts, finding kinds and
their severities. The string values are the public words of the JSON report."""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum


class Source(Enum):
    """The registries citecheck consults; the value is the name in settings and reports."""

    DOI = "doi"
    CROSSREF = "crossref"
    DATACITE = "datacite"
    ARXIV = "arxiv"
    PUBMED = "pubmed"
    EUROPEPMC = "europepmc"
    OPENALEX = "openalex"
    SEMANTICSCHOLAR = "semanticscholar"
    DBLP = "dblp"
    UNPAYWALL = "unpaywall"


class CitationContext(Enum):
    """Where a citation sits in the document."""

    BODY = "body"
    NOTE = "note"
    LIST = "list"
    QUOTE = "quote"
    TABLE = "table"
    CAPTION = "caption"
    HEADING = "heading"
    METADATA = "metadata"


class CitationMode(Enum):
    """How a citation is rendered: pandoc's three modes (LaTeX maps its macros onto them)."""

    NORMAL = "normal"
    AUTHOR_IN_TEXT = "author_in_text"
    SUPPRESS_AUTHOR = "suppress_author"


class Signal(Enum):
    """An introductory signal in a citation's prefix; it weakens what the citation must support."""

    SEE = "see"
    SEE_ALSO = "see also"
    SEE_GENERALLY = "see generally"
    SEE_EG = "see, e.g.,"
    EG = "e.g."
    CF = "cf."
    BUT_SEE = "but see"
    BUT_CF = "but cf."
    COMPARE = "compare"
    CONTRA = "contra"
    ACCORD = "accord"


class Severity(Enum):
    """How bad a finding is; `fail-on` and strict mode compare against this order."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        """Order of severity: info < warning < error."""
        return _SEVERITY_RANK[self]


_SEVERITY_RANK = {Severity.INFO: 0, Severity.WARNING: 1, Severity.ERROR: 2}


class ReferenceVerdict(Enum):
    """Whether a bibliography entry exists and is cited right (docs/design.md, "Words").

    `UNCHECKED` means no registry verification ran for this entry (offline run without a cached
    verdict, or no verifier configured); it is not a judgement about the entry.
    """

    VERIFIED = "verified"
    MISMATCH = "mismatch"
    NOT_FOUND = "not_found"
    UNVERIFIABLE = "unverifiable"
    UNPARSED = "unparsed"
    ERROR = "error"
    UNCHECKED = "unchecked"


class ReferenceFlag(Enum):
    """Flags reported beside a reference verdict."""

    RETRACTED = "retracted"
    COVERAGE_INCOMPLETE = "coverage_incomplete"
    SUGGESTED = "suggested"
    OA_URL = "oa_url"
    INTERNAL_ERROR = "internal_error"  # checking it hit a bug in citecheck, not an outage


class GroundingStatus(Enum):
    """Whether the cited source supports the claim sentence."""

    SUPPORTED = "supported"
    PARTIAL = "partial"
    UNSUPPORTED = "unsupported"
    # The judge found neither support nor conflict: information, never an accusation.
    UNCONFIRMED = "unconfirmed"
    NOT_IN_STORE = "not_in_store"
    ERROR = "error"


class FindingKind(Enum):
    """Every kind of problem citecheck reports; the values are what `fail-on` lists name."""

    UNDEFINED = "undefined"
    DUPLICATE_KEY = "duplicate_key"
    UNPARSED = "unparsed"
    DUPLICATE_ENTRY = "duplicate_entry"
    BAD_YEAR = "bad_year"
    FUTURE_YEAR = "future_year"
    MALFORMED_ID = "malformed_id"
    NO_TITLE = "no_title"
    UNUSED = "unused"
    UNMAPPED = "unmapped"
    COMMA_SEPARATED_KEYS = "comma_separated_keys"
    NOCITE_NOT_FOUND = "nocite_not_found"
    MISMATCH = "mismatch"
    NOT_FOUND = "not_found"
    UNVERIFIABLE = "unverifiable"
    RETRACTED = "retracted"
    OUTAGE = "outage"
    UNSUPPORTED = "unsupported"
    UNGROUNDED = "ungrounded"
    PARTIAL = "partial"
    UNCONFIRMED = "unconfirmed"
    NOT_IN_STORE = "not_in_store"
    COVERAGE = "coverage"
    NOT_IN_POOL = "not_in_pool"
    CUTOFF = "cutoff"
    MISSED_BY_EXTRACTION = "missed_by_extraction"
    NOT_IN_AUX = "not_in_aux"
    MISSING_BIBLIOGRAPHY = "missing_bibliography"
    INVALID_KEY = "invalid_key"
    BAD_OPTION = "bad_option"
    INTERNAL_ERROR = "internal_error"


# How much each kind of finding matters (what strict mode fails on is every ERROR kind).
SEVERITY: Mapping[FindingKind, Severity] = {
    FindingKind.UNDEFINED: Severity.ERROR,
    FindingKind.DUPLICATE_KEY: Severity.ERROR,
    FindingKind.UNPARSED: Severity.ERROR,
    FindingKind.DUPLICATE_ENTRY: Severity.WARNING,
    FindingKind.BAD_YEAR: Severity.WARNING,
    FindingKind.FUTURE_YEAR: Severity.WARNING,
    FindingKind.MALFORMED_ID: Severity.WARNING,
    FindingKind.NO_TITLE: Severity.WARNING,
    FindingKind.UNUSED: Severity.INFO,
    FindingKind.UNMAPPED: Severity.INFO,
    FindingKind.COMMA_SEPARATED_KEYS: Severity.WARNING,
    FindingKind.NOCITE_NOT_FOUND: Severity.WARNING,
    FindingKind.MISMATCH: Severity.ERROR,
    FindingKind.NOT_FOUND: Severity.ERROR,
    FindingKind.UNVERIFIABLE: Severity.INFO,
    FindingKind.RETRACTED: Severity.ERROR,
    FindingKind.OUTAGE: Severity.WARNING,
    FindingKind.UNSUPPORTED: Severity.WARNING,
    FindingKind.UNGROUNDED: Severity.WARNING,
    FindingKind.PARTIAL: Severity.INFO,
    FindingKind.NOT_IN_STORE: Severity.INFO,
    FindingKind.UNCONFIRMED: Severity.INFO,
    FindingKind.COVERAGE: Severity.WARNING,
    FindingKind.NOT_IN_POOL: Severity.WARNING,
    FindingKind.CUTOFF: Severity.WARNING,
    FindingKind.MISSED_BY_EXTRACTION: Severity.WARNING,
    FindingKind.NOT_IN_AUX: Severity.INFO,
    FindingKind.MISSING_BIBLIOGRAPHY: Severity.ERROR,
    FindingKind.INVALID_KEY: Severity.WARNING,
    FindingKind.BAD_OPTION: Severity.WARNING,
    FindingKind.INTERNAL_ERROR: Severity.ERROR,
}
