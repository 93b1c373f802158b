"""The typed records that pass between pipeline stages (`records`), and the closed vocabularies
they use (`vocabulary`), in one namespace: `from citecore.model import Citation, Severity`.

Every record is a frozen, slotted dataclass: a stage receives records and returns new ones, it never
mutates what it was given. The string values of the enums are the public words of the JSON report.
"""

from citecore.model.records import (
    Bibliography,
    CheckResult,
    Citation,
    CitationId,
    CitationResult,
    FieldMismatch,
    Finding,
    Match,
    Outage,
    Person,
    Reference,
    ReferenceResult,
    SourceLocation,
    SourceRecord,
    UnparsedEntry,
)
from citecore.model.vocabulary import (
    SEVERITY,
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

__all__ = [
    "SEVERITY",
    "Bibliography",
    "CheckResult",
    "Citation",
    "CitationContext",
    "CitationId",
    "CitationMode",
    "CitationResult",
    "FieldMismatch",
    "Finding",
    "FindingKind",
    "GroundingStatus",
    "Match",
    "Outage",
    "Person",
    "Reference",
    "ReferenceFlag",
    "ReferenceResult",
    "ReferenceVerdict",
    "Severity",
    "Signal",
    "Source",
    "SourceLocation",
    "SourceRecord",
    "UnparsedEntry",
]
