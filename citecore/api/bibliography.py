"""`citecheck verify`: registry verification of bibliography files, without a document."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from citecore.bib.loader import load_bibliographies
from citecore.bib.names import parse_bibtex_names
from citecore.bib.reflist.crf import model_problem
from citecore.bib.reflist.grobid import references_from_grobid
from citecore.bib.reflist.read import (
    references_from_list_file,
    references_from_pdf,
    with_readable_keys,
)
from citecore.errors import InputError
from citecore.findings import option_findings, reference_findings, verdict_findings
from citecore.identifiers import arxiv_from_doi, normalize_doi
from citecore.model import (
    Bibliography,
    CheckResult,
    FindingKind,
    Reference,
    ReferenceResult,
    ReferenceVerdict,
    SourceLocation,
)
from citecore.options import Options
from citecore.verify import Verifier
from citecore.verify.progress import load_progress, references_digest, save_progress
from citecore.verify.registry import registry_verifier

logger = logging.getLogger(__name__)


def single_reference(
    doi: str = "", title: str = "", author: str = "", year: str = "", venue: str = ""
) -> Reference:
    """A reference given on the command line (`--doi`, `--title`, …)."""

    normalized = normalize_doi(doi)
    return Reference(
        key="reference",
        entry_type="misc",
        location=SourceLocation("<command line>"),
        title=title,
        authors=parse_bibtex_names(author) if author else (),
        authors_complete=False,  # `--author` names who to look for, not the whole list
        year=int(year) if year.isdigit() else None,
        year_text=year,
        venue=venue,
        doi=normalized,
        arxiv_id=arxiv_from_doi(normalized),
    )


_BATCH = 25


def _verify_resumable(
    verifier: Verifier, references: list[Reference], progress: Path
) -> dict[str, ReferenceResult]:
    """Verify in batches, saving after each, skipping what an earlier run already judged."""
    digest = references_digest(references)
    results = load_progress(progress, digest)
    pending = [r for r in references if r.key not in results]
    for start in range(0, len(pending), _BATCH):
        results.update(verifier.verify(pending[start : start + _BATCH]))
        save_progress(progress, digest, results)
    return results


def verify_bibliography(
    bibliography: Bibliography,
    options: Options,
    documents: Sequence[str] = (),
    progress: Path | None = None,
    verifier: Verifier | None = None,
    open_access: bool = False,
) -> CheckResult:
    """Verify every parsed entry of `bibliography`; unparsed entries keep their verdict. With
    `progress`, verdicts are saved as they come and an interrupted run resumes. `verifier`
    replaces the registry verifier the options ask for; `open_access` asks it for each verified
    DOI's open-access copy."""
    verifier = verifier or registry_verifier(options, open_access=open_access)
    references = list(bibliography.references.values())
    if verifier is None:
        verified: Mapping[str, ReferenceResult] = {}
    elif progress is not None:
        verified = _verify_resumable(verifier, references, progress)
    else:
        verified = verifier.verify(references)
    results: dict[str, ReferenceResult] = {
        key: verified.get(key, ReferenceResult(key, ReferenceVerdict.UNCHECKED))
        for key in bibliography.references
    }
    for entry in bibliography.unparsed:
        if entry.key:
            results.setdefault(
                entry.key,
                ReferenceResult(entry.key, ReferenceVerdict.UNPARSED, notes=(entry.reason,)),
            )
    outage = verifier.outage if verifier is not None else None
    findings = [
        *option_findings(options.problems),
        *reference_findings(bibliography, options.today),
        *verdict_findings(verified, bibliography, outage=outage),
    ]
    return CheckResult(tuple(documents), bibliography, (), results, tuple(findings), outage=outage)


_LIST_SUFFIXES = {".txt", ".md", ".markdown", ".text"}


def is_reference_list(path: Path) -> bool:
    """Whether `path` is read as a printed reference list (a PDF or plain text), not as a
    bibliography file."""
    return path.suffix.lower() in _LIST_SUFFIXES | {".pdf"}


def _listed_references(path: Path, grobid: str, timeout: float) -> list[Reference]:
    if path.suffix.lower() == ".pdf" and grobid:
        try:
            return with_readable_keys(references_from_grobid(path, grobid, timeout))
        except InputError as exc:  # the user's server failing is no reason to stop the run
            logger.warning("%s; reading it with citecheck's own reader", exc)
    if path.suffix.lower() == ".pdf":
        return references_from_pdf(path)
    return references_from_list_file(path.read_text(encoding="utf-8", errors="replace"), str(path))


def load_inputs(paths: Sequence[Path], grobid: str = "", timeout: float = 20.0) -> Bibliography:
    """Bibliography files, plain-text reference lists and PDFs, merged in order; with `grobid`
    (a server's URL) PDFs are read by GROBID, by citecheck's own reader if it fails."""
    files = [p for p in paths if not is_reference_list(p)]
    bibliography = load_bibliographies(files)
    if len(files) < len(paths) and (problem := model_problem()):
        logger.warning("%s", problem)  # the lists are still read, by the rules alone
    references = dict(bibliography.references)
    sources = list(bibliography.sources)
    for path in paths:
        if is_reference_list(path):
            sources.append(str(path))
            stem = path.stem
            for reference in _listed_references(path, grobid, timeout):
                keyed = replace(reference, key=f"{stem}:{reference.key}")
                references[keyed.key] = keyed
    return replace(bibliography, sources=tuple(sources), references=references)


def verify_files(
    paths: Sequence[Path],
    options: Options,
    progress: Path | None = None,
    open_access: bool = False,
) -> CheckResult:
    """Verify bibliography files (.bib, CSL JSON, CSL YAML), plain-text reference lists and the
    reference section of PDFs (with `open_access`, each verified DOI's open-access copy)."""
    bibliography = load_inputs(paths, options.grobid, options.timeout)
    return verify_bibliography(bibliography, options, progress=progress, open_access=open_access)


def verify_one(reference: Reference, options: Options) -> CheckResult:
    """Verify one reference given on the command line. It is a question, not an entry: what it
    leaves out (`--doi` alone has no title) is not a finding about it."""
    bibliography = Bibliography(("<command line>",), {reference.key: reference})
    result = verify_bibliography(bibliography, options)
    kept = tuple(f for f in result.findings if f.kind is not FindingKind.NO_TITLE)
    return dataclasses.replace(result, findings=kept)
