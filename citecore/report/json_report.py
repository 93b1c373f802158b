"""The JSON report: a public contract (docs/design.md, "The JSON report"), schema version 1."""

from __future__ import annotations

import json
from typing import Any

from citecore.model import (
    CheckResult,
    Citation,
    CitationResult,
    Finding,
    Match,
    Outage,
    Reference,
    ReferenceResult,
    Severity,
)
from citecore.report.correction import corrected_bibtex
from citecore.report.summary import summary
from citecore.serialize import to_data
from citecore.version import __version__

SCHEMA_VERSION = 1


def _match(match: Match | None) -> dict[str, Any] | None:
    if match is None:
        return None
    return {
        "source": match.source.value,
        "doi": match.doi,
        "title": match.title,
        "authors": list(match.authors),
        "year": match.year,
        "venue": match.venue,
        "url": match.url,
    }


def _grounding(result: CitationResult | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "status": result.status.value,
        "ungrounded": result.ungrounded,
        "page": result.page,
        "passage": result.passage,
        "reason": result.reason,
        "judge": result.judge,
        "model": result.model,
        "source": result.source,
    }


def _citation(citation: Citation, result: CheckResult) -> dict[str, Any]:
    return {
        "id": str(citation.ident),
        "key": citation.key,
        "file": citation.location.file,
        "line": citation.location.line,
        "mode": citation.mode.value,
        "prefix": citation.prefix,
        "suffix": citation.suffix,
        "locator": citation.locator,
        "signal": citation.signal.value if citation.signal else None,
        "claim": citation.claim,
        "paragraph": citation.paragraph,
        "in_note": citation.in_note,
        "note_number": citation.note_number,
        "context": citation.context.value,
        "cited_with": list(citation.cited_with),
        "grounding": _grounding(result.grounding_of(citation)),
    }


def _reference(key: str, verdict: ReferenceResult, result: CheckResult) -> dict[str, Any]:
    reference = result.bibliography.references.get(key)
    unparsed = next((u for u in result.bibliography.unparsed if u.key == key), None)
    location = reference.location if reference else unparsed.location if unparsed else None
    return {
        "key": key,
        "file": location.file if location else None,
        "line": location.line if location else None,
        "verdict": verdict.verdict.value,
        "flags": sorted(flag.value for flag in verdict.flags),
        "mismatches": [
            {"field": m.field, "given": m.given, "found": m.found, "reason": m.reason}
            for m in verdict.mismatches
        ],
        "match": _match(verdict.match),
        "suggested": _match(verdict.suggested),
        "correction": (corrected_bibtex(reference, verdict) or None) if reference else None,
        "notes": list(verdict.notes),
        "sources": list(verdict.sources),
        "text": reference.text if reference and reference.text else None,
        "entry": _entry(reference) if reference and reference.text else None,
        # Where the key comes from: "nocite" for an entry listed uncited.
        "nocite": key in result.nocite,
    }


def _entry(reference: Reference) -> dict[str, Any]:
    """What was read from a printed reference (absent fields are left out, never guessed)."""
    fields: dict[str, Any] = {
        "authors": [person.display() for person in reference.authors],
        "year": reference.year,
        "title": reference.title,
        "venue": reference.venue,
        "volume": reference.volume,
        "pages": reference.pages,
        "doi": reference.doi,
        "arxiv": reference.arxiv_id,
        "url": reference.url,
    }
    return {name: value for name, value in fields.items() if value not in ("", None, [])}


def _finding(item: Finding) -> dict[str, Any]:
    return {
        "kind": item.kind.value,
        "severity": item.severity.value,
        "key": item.key,
        "file": item.location.file if item.location else None,
        "line": item.location.line if item.location else None,
        "message": item.message,
        # The citation's `id` (as in `citations`) when the finding is about one occurrence.
        "citation": str(item.citation) if item.citation is not None else None,
    }


def to_json_data(result: CheckResult, only_issues: bool = False) -> dict[str, Any]:
    """The report as JSON-ready data; `only_issues` drops information-level findings and
    the citations and references that have no finding."""
    findings = [f for f in result.findings if not only_issues or f.severity is not Severity.INFO]
    flagged = {f.key for f in findings}
    citations = [
        _citation(c, result) for c in result.citations if not only_issues or c.key in flagged
    ]
    references = [
        _reference(k, v, result)
        for k, v in result.references.items()
        if not only_issues or k in flagged
    ]
    return {
        "schema_version": SCHEMA_VERSION,
        "tool": "citecheck",
        "version": __version__,
        "inputs": {
            "documents": list(result.documents),
            "bibliographies": list(result.bibliography.sources),
        },
        "citations": citations,
        "references": references,
        "findings": [_finding(f) for f in findings],
        "outage": _outage(result.outage),
        "source_files": [
            {"key": r.key, "origin": r.origin, "files": list(r.files), "missing": r.missing}
            for r in result.sources.values()
        ],
        "summary": to_data(summary(result)),
    }


def _outage(outage: Outage | None) -> dict[str, Any] | None:
    """What registry verification left unchecked and why (null when everything was checked)."""
    if outage is None:
        return None
    return {
        "unchecked": list(outage.unchecked),
        "unreachable": list(outage.unreachable),
        "rate_limited": list(outage.rate_limited),
        "failed": list(outage.failed),
        "network_down": outage.network_down,
        "message": outage.message(),
    }


def render(result: CheckResult, only_issues: bool = False) -> str:
    """The JSON report as text (UTF-8, indented, ending in a newline)."""
    return json.dumps(to_json_data(result, only_issues), ensure_ascii=False, indent=2) + "\n"
