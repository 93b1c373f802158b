"""The checks that need no network: what the document and its bibliographies show on their own.

Each check is a function from records to Findings; none raises on bad data, since bad data is
exactly what it reports.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence

from citecore.identifiers import (
    is_placeholder,
    is_valid_arxiv,
    is_valid_doi,
    is_valid_isbn,
    is_valid_issn,
    is_valid_pmcid,
    is_valid_pmid,
)
from citecore.model import (
    SEVERITY,
    Bibliography,
    Citation,
    CitationId,
    CitationResult,
    Finding,
    FindingKind,
    GroundingStatus,
    Outage,
    Reference,
    ReferenceFlag,
    ReferenceResult,
    ReferenceVerdict,
    SourceLocation,
)
from citecore.normalize import normalized_title
from citecore.options import OptionProblem

# Year texts that are not a year but are what careful writers put for unpublished work.
_UNDATED = re.compile(
    r"^(n\.?\s?d\.?|in press|forthcoming|to appear|submitted|accepted|under review|in prep.*)$",
    re.IGNORECASE,
)
_EARLIEST_YEAR = 1000


def finding(
    kind: FindingKind,
    message: str,
    key: str | None = None,
    location: SourceLocation | None = None,
    citation: CitationId | None = None,
) -> Finding:
    """A Finding with the kind's standard severity (about the one `citation` when given)."""
    return Finding(kind, SEVERITY[kind], message, key, location, citation)


def citation_findings(
    citations: Sequence[Citation],
    bibliography: Bibliography,
    nocite: Sequence[str] = (),
    nocite_all: bool = False,
) -> list[Finding]:
    """Undefined keys (one finding per occurrence) and unused entries (information). A key whose
    entry is unparsed is not undefined: the unparsed finding already says what is wrong."""
    known = set(bibliography.references) | {u.key for u in bibliography.unparsed if u.key}
    findings = [
        finding(
            FindingKind.UNDEFINED,
            "cited key is not in any bibliography",
            c.key,
            c.location,
            c.ident,
        )
        for c in citations
        if c.key not in known
    ]
    findings.extend(
        finding(FindingKind.UNDEFINED, "nocite key is not in any bibliography", key)
        for key in nocite
        if key not in known
    )
    if not nocite_all:
        cited = {c.key for c in citations} | set(nocite)
        findings.extend(
            finding(FindingKind.UNUSED, "entry is never cited", r.key, r.location)
            for r in bibliography.references.values()
            if r.key not in cited
        )
    return findings


def _first_definition(bibliography: Bibliography, key: str) -> SourceLocation | None:
    if key in bibliography.references:
        return bibliography.references[key].location
    # A first definition that could not be read: BibTeX still takes it and drops the later one.
    return next((u.location for u in bibliography.unparsed if u.key == key), None)


def _duplicate_key_findings(bibliography: Bibliography) -> Iterator[Finding]:
    for duplicate in bibliography.duplicates:
        first = _first_definition(bibliography, duplicate.key)
        where = f"first defined at {first}" if first else "defined before"
        yield finding(
            FindingKind.DUPLICATE_KEY,
            f"key defined again ({where}); only the first definition is used",
            duplicate.key,
            duplicate.location,
        )


def _likely_duplicate_findings(references: Iterable[Reference]) -> Iterator[Finding]:
    """Distinct keys sharing a DOI, or a normalized title with no conflicting year."""
    by_doi: dict[str, Reference] = {}
    by_title: dict[str, list[Reference]] = defaultdict(list)
    for reference in references:
        doi = reference.doi.lower()
        if doi and doi in by_doi:
            first = by_doi[doi]
            yield finding(
                FindingKind.DUPLICATE_ENTRY,
                f"same DOI {reference.doi} as '{first.key}' ({first.location}): "
                "likely the same work under two keys",
                reference.key,
                reference.location,
            )
            continue
        if doi:
            by_doi[doi] = reference
        title = normalized_title(reference.title)
        if len(title.split()) < 2:
            continue
        same = [
            other
            for other in by_title[title]
            if other.year is None or reference.year is None or other.year == reference.year
        ]
        by_title[title].append(reference)
        if same:
            yield finding(
                FindingKind.DUPLICATE_ENTRY,
                f"same title as '{same[0].key}' ({same[0].location}): "
                "likely the same work under two keys",
                reference.key,
                reference.location,
            )


def _year_findings(reference: Reference, today: dt.date) -> Iterator[Finding]:
    text = reference.year_text.strip()
    if reference.year is None:
        if text and not _UNDATED.match(text):
            yield finding(
                FindingKind.BAD_YEAR,
                f"year '{text}' is not a year",
                reference.key,
                reference.location,
            )
        return
    if reference.year < _EARLIEST_YEAR:
        yield finding(
            FindingKind.BAD_YEAR,
            f"year {reference.year} is not plausible",
            reference.key,
            reference.location,
        )
    elif reference.year > today.year or (
        re.fullmatch(r"\d{4}-\d{2}-\d{2}", reference.date) and reference.date > today.isoformat()
    ):
        when = reference.date or str(reference.year)
        yield finding(
            FindingKind.FUTURE_YEAR,
            f"date {when} is in the future",
            reference.key,
            reference.location,
        )


def _identifier_problems(reference: Reference) -> Iterator[str]:
    """What is wrong with each identifier an entry gives: a placeholder, an ISSN where an ISBN
    belongs, or a value of no identifier's shape. Several ISBNs in one field are each checked."""
    checks = (
        ("DOI", (reference.doi,), is_valid_doi, "10.NNNN/suffix, or a shortDOI 10/abcd"),
        ("arXiv id", (reference.arxiv_id,), is_valid_arxiv, "YYMM.NNNNN or archive/YYMMNNN"),
        ("PMID", (reference.pmid,), is_valid_pmid, "digits"),
        ("PMCID", (reference.pmcid,), is_valid_pmcid, "PMC and digits"),
        (
            "ISBN",
            tuple(reference.isbn.split()),
            is_valid_isbn,
            "an ISBN-10 or ISBN-13 with a valid check digit",
        ),
    )
    for label, values, valid, shape in checks:
        for value in values:
            if not value or valid(value):
                continue
            if is_placeholder(value):
                yield f"{label} '{value}' is a placeholder, not an identifier (not looked up)"
            elif label == "ISBN" and is_valid_issn(value):
                yield f"ISBN field holds an ISSN ({value[:4]}-{value[4:]}), not an ISBN"
            else:
                yield f"{label} '{value}' is malformed (expected {shape})"


def _identifier_findings(reference: Reference) -> Iterator[Finding]:
    for problem in _identifier_problems(reference):
        yield finding(FindingKind.MALFORMED_ID, problem, reference.key, reference.location)


def reference_findings(bibliography: Bibliography, today: dt.date) -> list[Finding]:
    """Unparsed entries, duplicate keys, likely duplicates, bad or future years, malformed
    identifiers and missing titles, for every entry of the bibliography."""
    findings = [
        finding(
            FindingKind.UNPARSED,
            f"this entry could not be read: {u.reason}",
            u.key,
            u.location,
        )
        for u in bibliography.unparsed
    ]
    findings.extend(_duplicate_key_findings(bibliography))
    findings.extend(_likely_duplicate_findings(bibliography.references.values()))
    for reference in bibliography.references.values():
        findings.extend(_year_findings(reference, today))
        findings.extend(_identifier_findings(reference))
        if not reference.title.strip():
            message = "no title could be read from it" if reference.text else "entry has no title"
            findings.append(
                finding(
                    FindingKind.NO_TITLE,
                    message + as_printed(reference),
                    reference.key,
                    reference.location,
                )
            )
    return findings


_PRINTED_LIMIT = 160


def as_printed(reference: Reference | None) -> str:
    """For a reference read from a PDF or a text list, " — printed as “…”" with its text
    (shortened), so that a writer can tell which entry a finding is about; "" otherwise."""
    if reference is None or not reference.text:
        return ""
    text = reference.text
    if len(text) > _PRINTED_LIMIT:
        text = text[: _PRINTED_LIMIT - 1].rsplit(" ", 1)[0] + "…"
    return f" — printed as “{text}”"


_VERDICT_KINDS = {
    ReferenceVerdict.MISMATCH: FindingKind.MISMATCH,
    ReferenceVerdict.NOT_FOUND: FindingKind.NOT_FOUND,
    ReferenceVerdict.UNVERIFIABLE: FindingKind.UNVERIFIABLE,
}


def verdict_findings(
    results: Mapping[str, ReferenceResult],
    bibliography: Bibliography,
    citations: Sequence[Citation] = (),
    outage: Outage | None = None,
) -> list[Finding]:
    """Findings from a registry verifier's verdicts: mismatches, unconfirmed references and
    retractions, placed at the entry in its bibliography; mismatches, `not_found` and
    retractions also at every citation of the entry, where the writer will look. What an
    outage left unchecked is one `outage` finding for the run, not one per entry."""
    cited_at: dict[str, list[Citation]] = defaultdict(list)
    for citation in citations:
        cited_at[citation.key].append(citation)
    unchecked = set(outage.unchecked) if outage is not None else set()
    findings = []
    if outage is not None and outage.unchecked:
        findings.append(finding(FindingKind.OUTAGE, outage.message()))
    for key, result in results.items():
        if key in unchecked:
            continue
        reference = bibliography.references.get(key)
        location = reference.location if reference else None
        problems = []
        kind = _VERDICT_KINDS.get(result.verdict)
        if ReferenceFlag.INTERNAL_ERROR in result.flags:
            bug = "; ".join(result.notes)
            problems.append(
                (
                    FindingKind.INTERNAL_ERROR,
                    f"not checked: a bug in citecheck ({bug}); please report it",
                )
            )
        elif kind is not None:
            problems.append((kind, _verdict_message(result)))
        if ReferenceFlag.RETRACTED in result.flags:
            problems.append((FindingKind.RETRACTED, _retraction_message(result)))
        for problem_kind, message in problems:
            message += as_printed(reference)
            findings.append(finding(problem_kind, message, key, location))
            if problem_kind in _ALSO_AT_CITATIONS:
                findings.extend(
                    finding(problem_kind, message, key, cited.location, cited.ident)
                    for cited in cited_at[key]
                )
    return findings


_ALSO_AT_CITATIONS = {FindingKind.MISMATCH, FindingKind.NOT_FOUND, FindingKind.RETRACTED}


def _retraction_message(result: ReferenceResult) -> str:
    where = f" ({result.match.doi})" if result.match and result.match.doi else ""
    return f"the cited work{where} carries a retraction, withdrawal or expression of concern"


def _difference(field: str, given: str, found: str) -> str:
    """One field's difference as a reader says it: "year: cited 2019, the record has 2021";
    a side with no value is said as such, never shown as ''."""
    cited = f"cited '{given}'" if given else "not cited"
    recorded = f"the record has '{found}'" if found else "the record gives none"
    return f"{field}: {cited}, {recorded}"


def _verdict_message(result: ReferenceResult) -> str:
    if result.verdict is ReferenceVerdict.MISMATCH:
        fields = "; ".join(
            _difference(m.field, m.given, m.found) + (f" ({m.reason})" if m.reason else "")
            for m in result.mismatches
        )
        source = f" ({result.match.source.value})" if result.match else ""
        return f"differs from the registry record{source}: {fields}"
    if result.verdict is ReferenceVerdict.NOT_FOUND:
        consulted = ", ".join(result.sources) or "the registries"
        return f"could not be confirmed in {consulted}" + "".join(
            f"; {n}" for n in result.notes[:1]
        )
    return "could not be verified: " + ("; ".join(result.notes) or "too little to compare")


_GROUNDING_KINDS = {
    GroundingStatus.UNSUPPORTED: FindingKind.UNSUPPORTED,
    GroundingStatus.PARTIAL: FindingKind.PARTIAL,
    GroundingStatus.NOT_IN_STORE: FindingKind.NOT_IN_STORE,
    GroundingStatus.UNCONFIRMED: FindingKind.UNCONFIRMED,
}


def grounding_findings(
    citations: Sequence[Citation], grounding: Mapping[CitationId, CitationResult]
) -> list[Finding]:
    """Findings at each citation whose source does not (fully) support its claim, and at each
    supported one whose passage could not be found in the source (ungrounded)."""
    findings = []
    for citation in citations:
        result = grounding.get(citation.ident)
        if result is None:
            continue
        page = f", p. {result.page}" if result.page else ""
        kind = _GROUNDING_KINDS.get(result.status)
        if kind is not None:
            shown = (
                f"; closest passage: “{' '.join(result.passage.split())[:200]}”"
                if result.status is GroundingStatus.UNCONFIRMED and result.passage
                else ""
            )
            findings.append(
                finding(
                    kind,
                    f"{result.status.value}{page}: {result.reason}{shown}",
                    citation.key,
                    citation.location,
                    citation.ident,
                )
            )
        if result.ungrounded:
            findings.append(
                finding(
                    FindingKind.UNGROUNDED,
                    f"{result.status.value}, but the passage the judge relied on is not in the "
                    f"source text ({result.judge})",
                    citation.key,
                    citation.location,
                    citation.ident,
                )
            )
    return findings


def option_findings(problems: Iterable[OptionProblem]) -> list[Finding]:
    """One `bad_option` finding per option value the run ignored (see `Options.problems`), at
    the line that set it when that is known."""
    return [
        finding(FindingKind.BAD_OPTION, problem.message, location=problem.location)
        for problem in problems
    ]
