"""What the shells call: one pipeline from a document to a CheckResult.

extract → load bibliography → verify → ground → policy → (emit: the caller's choice).
The pandoc filter, the `check` command and the Quarto shim go through `check_document`; LaTeX
projects through `check_latex_file`. Both share `check_citations` from verification on.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import panflute as pf

from citecore.annotate.checked import DocumentCheck
from citecore.bib.loader import load_bibliographies, resolve_bibliography
from citecore.cache import Cache
from citecore.errors import BibliographyNotFoundError
from citecore.extract.knitr import as_knitr_reads
from citecore.extract.locate import SourceFile
from citecore.extract.markdown import extract_citations, nocite_keys
from citecore.findings import (
    citation_findings,
    finding,
    grounding_findings,
    option_findings,
    reference_findings,
    verdict_findings,
)
from citecore.model import (
    Bibliography,
    CheckResult,
    Citation,
    CitationResult,
    Finding,
    FindingKind,
    Reference,
    ReferenceResult,
    ReferenceVerdict,
    SourceLocation,
    SourceRecord,
)
from citecore.options import Options
from citecore.pandoc.reader import read_markdown
from citecore.verify import Verifier

if TYPE_CHECKING:
    from citecore.extract.latex import LatexExtraction

logger = logging.getLogger(__name__)


def _as_names(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def load_document_bibliography(
    doc: pf.Doc,
    options: Options,
    search_dirs: Sequence[Path],
    sources: Sequence[SourceFile],
    cache: Cache | None = None,
) -> Bibliography:
    """Every bibliography the document names, then its inline `references:`; relative paths
    are tried as given, then under `search_dirs`. Bibliographies given as options replace the
    document's `bibliography:`, as pandoc's `--bibliography` does."""
    names = list(options.bibliographies) or _as_names(doc.get_metadata("bibliography"))
    named_by = sources[0].name if sources and not options.bibliographies else None
    paths = list(dict.fromkeys(resolve_bibliography(n, search_dirs, named_by) for n in names))
    inline = doc.get_metadata("references", default=[])
    return load_bibliographies(
        paths,
        inline if isinstance(inline, list) else [],
        inline_file=sources[0].name if sources else "<metadata>",
        inline_text=sources[0].text if sources else None,
        cache=cache,
    )


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


def check_document(
    doc: pf.Doc,
    options: Options,
    *,
    sources: Sequence[SourceFile] = (),
    search_dirs: Sequence[Path] = (),
    verifier: Verifier | None = None,
) -> DocumentCheck:
    """Run the pipeline over one pandoc document; raises only for unusable input (a missing
    bibliography, an unreadable file), never for problems in the citations themselves."""
    extraction = extract_citations(doc, sources)
    with Cache(options.cache) as cache:
        bibliography = load_document_bibliography(doc, options, search_dirs, sources, cache)
    nocite, nocite_all = nocite_keys(doc)
    unmapped = (
        finding(
            FindingKind.UNMAPPED,
            "citation could not be mapped to a line of the source",
            c.key,
            c.location,
        )
        for c in extraction.unmapped
    )
    comma_joined = (
        finding(
            FindingKind.COMMA_SEPARATED_KEYS,
            f"[@{outer},@{c.key}] joins keys with a comma, so pandoc reads @{c.key} as part of "
            f"@{outer}'s locator: separate them with a semicolon, [@{outer}; @{c.key}]",
            c.key,
            c.location,
        )
        for outer, c in extraction.comma_joined
    )
    result = check_citations(
        extraction.citations,
        bibliography,
        options,
        verifier,
        documents=tuple(s.name for s in sources) or ("<stdin>",),
        folder=Path(sources[0].name).parent if sources else Path.cwd(),
        nocite=(nocite, nocite_all),
        extra_findings=[*unmapped, *comma_joined],
    )
    return DocumentCheck(result, extraction)


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
    verified = verifier.verify(cited) if verifier is not None else {}
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
    )


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
    from citecore.pool.policy import pool_findings

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
    from citecore.fetch.stage import fetch_for_options  # the HTTP stack: fetching runs only

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
    from citecore.fetch.local import source_records

    return source_records(cited, _bibliography_dirs(bibliography), options.sources)


def ground(
    citations: Sequence[Citation],
    bibliography: Bibliography,
    options: Options,
    folder: Path,
    records: Mapping[str, SourceRecord] | None = None,
) -> dict[int, CitationResult]:
    """Grounding verdicts when the options ask for them (`ground: true`), else none; `folder`
    is the document's (where a judge keeps its state); `records` the cited keys' source files,
    when found already."""
    if not options.ground:
        return {}
    # The judges and PDF readers take ~70 ms to import (python -X importtime): only runs that
    # ground pay for them.
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


def check_markdown_file(
    path: Path, options: Options, verifier: Verifier | None = None
) -> DocumentCheck:
    """Read a Markdown/Quarto/R Markdown file with pandoc's reader and check it."""
    return check_markdown_document(read_markdown(path), path, options, verifier)


def check_markdown_document(
    doc: pf.Doc, path: Path, options: Options, verifier: Verifier | None = None
) -> DocumentCheck:
    """Check a document pandoc read from the Markdown file `path` (for line numbers and the
    folder bibliographies are found in)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    source = SourceFile(str(path), as_knitr_reads(path, text))
    return check_document(
        doc, options, sources=(source,), search_dirs=(path.parent,), verifier=verifier
    )


def check_latex_file(main: Path, options: Options, verifier: Verifier | None = None) -> CheckResult:
    """Check a LaTeX project from its main file: its citations (following `\\input` and
    friends), the bibliographies it names (or `--bib`) and its inline `\\bibitem`s, and what
    LaTeX's own `.aux`/`.bcf` recorded, when they exist. A bibliography that is not there is a
    `missing_bibliography` finding, never the end of the check."""
    from citecore.extract.latex import extract_latex  # pylatexenc, ~40 ms: LaTeX runs only

    extraction = extract_latex(main)
    bibliography, found = _latex_bibliography(main, extraction, options)
    extracted = {c.key for c in extraction.citations} | set(extraction.nocite)
    found += [
        finding(
            FindingKind.INVALID_KEY,
            problem.reason,
            problem.key,
            SourceLocation(str(path), problem.line),
        )
        for path, problem in extraction.key_problems
    ]
    citations, matched = _as_bibtex_finds(extraction, bibliography)
    found += matched
    return check_citations(
        citations,
        bibliography,
        options,
        verifier,
        documents=tuple(str(f) for f in extraction.files),
        folder=main.parent,
        nocite=(extraction.nocite, extraction.nocite_all),
        extra_findings=[*found, *latex_record_findings(main, extracted)],
    )


_BIBLATEX = re.compile(r"\\(?:usepackage|RequirePackage)\s*(?:\[[^\]]*\])?\s*\{biblatex\}")


def _as_bibtex_finds(
    extraction: LatexExtraction, bibliography: Bibliography
) -> tuple[list[Citation], list[Finding]]:
    """The citations as BibTeX resolves them: it matches a key to an entry whatever their case
    (`\\cite{pirl}` prints `@article{PIRL`), so such a citation cites that entry, with a
    warning, since biber and pandoc match case exactly; but it takes the first spelling of a
    key it meets, and a later other spelling is an error that leaves it undefined. A biblatex
    project's citations are left as written."""
    texts = (f.read_text(encoding="utf-8", errors="replace") for f in extraction.files)
    if any(_BIBLATEX.search(text) for text in texts):
        return list(extraction.citations), []
    by_case: dict[str, list[str]] = {}
    for key in bibliography.references:
        by_case.setdefault(key.casefold(), []).append(key)
    citations, warnings = [], []
    first: dict[str, str] = {}  # BibTeX takes the first spelling it meets of each key
    for citation in extraction.citations:
        spelled = first.setdefault(citation.key.casefold(), citation.key)
        if spelled != citation.key:
            citations.append(citation)  # undefined in the PDF, and so here
            warnings.append(
                finding(
                    FindingKind.INVALID_KEY,
                    f"cited as {spelled!r} before: BibTeX stops at {citation.key!r} ('Case "
                    "mismatch error') and the PDF prints it undefined",
                    citation.key,
                    citation.location,
                )
            )
            continue
        entries = by_case.get(citation.key.casefold(), [])
        if citation.key in bibliography.references or len(entries) != 1:
            citations.append(citation)
            continue
        citations.append(replace(citation, key=entries[0]))
        warnings.append(
            finding(
                FindingKind.INVALID_KEY,
                f"cited as {citation.key!r}, the entry is {entries[0]!r}: BibTeX matches keys "
                "whatever their case and prints it, but biber and pandoc would not find it",
                citation.key,
                citation.location,
            )
        )
    return citations, warnings


_FILECONTENTS = re.compile(r"\\begin\s*\{filecontents\*?\}\s*(?:\[[^\]]*\])?\s*\{([^}]+)\}")


def _written_during_build(files: Sequence[Path]) -> dict[str, SourceLocation]:
    """The files a project's `filecontents` environments write when LaTeX runs, by name, with
    where each is written."""
    written: dict[str, SourceLocation] = {}
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in _FILECONTENTS.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            written.setdefault(Path(match.group(1).strip()).name, SourceLocation(str(path), line))
    return written


def _latex_bibliography(
    main: Path, extraction: LatexExtraction, options: Options
) -> tuple[Bibliography, list[Finding]]:
    """The entries a LaTeX project cites from: its named (or `--bib`) files, then its inline
    `\\bibitem`s; when a named file is missing, the `.bbl` an earlier BibTeX run left (what
    LaTeX prints from). Each missing file is one `missing_bibliography` finding."""
    names = list(options.bibliographies) or [str(p) for p in extraction.bibliographies]
    named_by = None if options.bibliographies else str(main)
    paths: list[Path] = []
    missing: list[Finding] = []
    written = _written_during_build(extraction.files)
    for name in names:
        try:
            paths.append(resolve_bibliography(name, (main.parent,), named_by))
        except BibliographyNotFoundError as exc:
            writer = written.get(Path(name).name)
            later = (
                f"; it is written during the build (filecontents at {writer.file}:{writer.line})"
                ": build once, then check"
                if writer
                else ""
            )
            location = SourceLocation(str(main)) if named_by else SourceLocation(name)
            said = str(exc).removeprefix(f"{named_by}: ")  # the finding's location names it
            missing.append(
                finding(FindingKind.MISSING_BIBLIOGRAPHY, f"{said}{later}", "", location)
            )
    read = list(extraction.bibitems)
    if missing and not read:
        from citecore.extract.latex_bibitems import bbl_bibitems  # LaTeX runs only, as above

        read = bbl_bibitems(main)
    with Cache(options.cache) as cache:
        bibliography = load_bibliographies(list(dict.fromkeys(paths)), cache=cache, read=read)
    return bibliography, missing


def latex_record_findings(main: Path, extracted: set[str]) -> list[Finding]:
    """Differences between the keys read from the source and those LaTeX recorded in the
    `.aux` (BibTeX) or `.bcf` (biber) beside the main file. A key only LaTeX saw is a citation
    citecheck's reader missed, reported as a citecheck bug rather than hidden."""
    from citecore.extract.aux import aux_keys, bcf_keys  # LaTeX's files: a Markdown build
    # never reads them and does not pay for the XML reader

    recorded: set[str] = set()
    for path, reader in (
        (main.with_suffix(".aux"), aux_keys),
        (main.with_suffix(".bcf"), bcf_keys),
    ):
        if path.is_file():
            recorded |= reader(path)
    if not recorded:
        return []
    recorded.discard("*")
    missed = sorted(recorded - extracted)
    stale = sorted(extracted - recorded)
    found = [
        finding(
            FindingKind.MISSED_BY_EXTRACTION,
            "LaTeX cites this key but citecheck's source reader did not find the citation: "
            "a citecheck bug, please report it with the citing command",
            key,
            SourceLocation(str(main.with_suffix(".aux"))),
        )
        for key in missed
    ]
    found += [
        finding(
            FindingKind.NOT_IN_AUX,
            "cited in the source but not in LaTeX's .aux/.bcf (stale file, or left out by "
            "\\includeonly); rerun LaTeX",
            key,
        )
        for key in stale
    ]
    return found
