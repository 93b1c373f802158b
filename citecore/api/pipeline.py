"""From verification on, the same for every document: verify the cited references, fetch and
ground their sources, and gather the findings into one CheckResult."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from citecore.cache import Cache
from citecore.findings import (
    citation_findings,
    grounding_findings,
    option_findings,
    reference_findings,
    verdict_findings,
)
from citecore.model import (
    Bibliography,
    CheckResult,
    Citation,
    CitationId,
    CitationResult,
    Finding,
    Reference,
    ReferenceResult,
    ReferenceVerdict,
    SourceRecord,
)
from citecore.options import Options
from citecore.verify import Verifier

logger = logging.getLogger(__name__)


def _results(
    bibliography: Bibliography, verified: Mapping[str, ReferenceResult]
) -> dict[str, ReferenceResult]:
    """A result for every entry: the verifier's verdict, else `unchecked`; unparsed entries too."""
    results = {
        key: verified.get(key, ReferenceResult(key, ReferenceVerdict.UNCHECKED))
        for key in bibliography.references
    }
    for entry in bibliography.unparsed:
        if entry.key and entry.key not in results:
            results[entry.key] = ReferenceResult(
                entry.key, ReferenceVerdict.UNPARSED, notes=(entry.reason,)
            )
    return results


def _sort_key(item: Finding) -> tuple[str, int, int, str]:
    """Document order: by file and line, errors before warnings on the same line."""
    location = item.location
    return (
        location.file if location else "",
        (location.line or 0) if location else 0,
        -item.severity.rank,
        item.key or "",
    )


def check_citations(
    citations: Sequence[Citation],
    bibliography: Bibliography,
    options: Options,
    verifier: Verifier | None,
    *,
    documents: tuple[str, ...],
    folder: Path,
    nocite: tuple[Sequence[str], bool] = ((), False),
    extra_findings: Iterable[Finding] = (),
) -> CheckResult:
    """The pipeline from verification on, for citations already extracted and a bibliography
    already loaded: verify the cited entries, ground the citations, apply every policy, and
    return one result whose findings (with `extra_findings`) are in document order."""
    cited_keys = dict.fromkeys(c.key for c in citations)
    cited = [bibliography.references[k] for k in cited_keys if k in bibliography.references]
    uncited = _nocite(cited_keys, bibliography, *nocite)
    listed = [bibliography.references[k] for k in uncited]
    # An entry listed with nocite is in the reference list: it is verified like a cited one.
    verified = verifier.verify([*cited, *listed]) if verifier is not None else {}
    outage = verifier.outage if verifier is not None else None
    if options.fetch_sources:
        fetch(cited, bibliography, verified, options, folder)
    records = _source_records(cited, bibliography, options) if options.ground else {}
    grounding = ground(citations, bibliography, options, folder, records)
    findings: list[Finding] = [
        *reference_findings(bibliography, options.today),
        *citation_findings(citations, bibliography, *nocite),
        *verdict_findings(verified, bibliography, citations, outage),
        *grounding_findings(citations, grounding),
        *_pool_findings(citations, bibliography, verified, options),
        *extra_findings,
        *option_findings(options.problems),
    ]
    return CheckResult(
        documents=documents,
        bibliography=bibliography,
        citations=tuple(citations),
        references=_results(bibliography, verified),
        findings=tuple(sorted(findings, key=_sort_key)),
        grounding=grounding,
        outage=outage,
        sources=records,
        nocite=uncited,
    )


def _nocite(
    cited: Mapping[str, None], bibliography: Bibliography, keys: Sequence[str], every: bool
) -> tuple[str, ...]:
    """The entries listed with nocite and cited nowhere (every entry for `@*`/`\\nocite{*}`),
    in the bibliography's order where it is every one."""
    listed = bibliography.references if every else dict.fromkeys(keys)
    return tuple(k for k in listed if k in bibliography.references and k not in cited)


def _pool_findings(
    citations: Sequence[Citation],
    bibliography: Bibliography,
    verified: Mapping[str, ReferenceResult],
    options: Options,
) -> list[Finding]:
    """The literature-pool rules' findings, when a pool or a cut-off date is set (only then are
    the pool's model and rules loaded: ~25 ms a rebuild without one never pays)."""
    if options.pool is None and not options.cutoff:
        return []
    from citecore.pool.policy import pool_findings  # start-up: as the docstring says

    return pool_findings(
        citations, bibliography, verified, options.pool, options.pool_threshold, options.cutoff
    )


def fetch(
    cited: Sequence[Reference],
    bibliography: Bibliography,
    verified: Mapping[str, ReferenceResult],
    options: Options,
    folder: Path,
) -> None:
    """Store a source for each cited reference without one (`fetch-sources: true`): from the
    writer's Zotero library, else an open-access copy, found by the entry's identifiers or the
    DOI verification found for it."""
    from citecore.fetch.stage import fetch_for_options  # start-up: fetching runs only

    # The work the entry describes, as the registries found it: its DOI is the one to fetch
    # by, also when the entry's own DOI is another work's (a `doi` mismatch says which).
    found_dois: dict[str, str] = {}
    for key, result in verified.items():
        wrong_doi = next((m.found for m in result.mismatches if m.field == "doi"), "")
        if wrong_doi:
            found_dois[key] = wrong_doi
        elif result.verdict is ReferenceVerdict.VERIFIED and result.match and result.match.doi:
            found_dois[key] = result.match.doi
    outcome = fetch_for_options(
        cited, options, folder, _bibliography_dirs(bibliography), found_dois
    )
    if outcome.stored:
        logger.info("fetched %d source(s) into %s", len(outcome.stored), options.sources)


def _bibliography_dirs(bibliography: Bibliography) -> list[Path]:
    return [Path(s).parent for s in bibliography.sources if Path(s).is_file()]


def _source_records(
    cited: Sequence[Reference], bibliography: Bibliography, options: Options
) -> dict[str, SourceRecord]:
    """Where each cited key's source came from, or why it has none (for the reports)."""
    from citecore.fetch.local import source_records  # start-up: grounding runs only

    return source_records(cited, _bibliography_dirs(bibliography), options.sources)


def ground(
    citations: Sequence[Citation],
    bibliography: Bibliography,
    options: Options,
    folder: Path,
    records: Mapping[str, SourceRecord] | None = None,
) -> dict[CitationId, CitationResult]:
    """Grounding verdicts by citation identity when the options ask for them (`ground: true`),
    else none; `folder` is the document's (where a judge keeps its state); `records` the cited
    keys' source files, when found already."""
    if not options.ground:
        return {}
    # start-up: the judges and PDF readers take ~70 ms to import (python -X importtime): only
    # runs that ground pay for them.
    from citecore.ground.judges.factory import make_judge
    from citecore.ground.run import GroundingPlan, ground_citations

    judge = make_judge(options, citations, bibliography, folder)
    try:
        with Cache(options.cache) as cache:
            plan = GroundingPlan(options.sequential, options.limit, options.dry_run)
            return ground_citations(
                citations, bibliography, judge, options.sources, cache, plan, records
            )
    finally:
        judge.close()
