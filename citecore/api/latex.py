"""A LaTeX project checked end to end from its main file: citations read from the sources,
the bibliography its build names (BibTeX or biblatex, filecontents, the .aux/.bcf record), then
the shared pipeline."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from citecore.api.pipeline import check_citations
from citecore.bib.loader import load_bibliographies, resolve_bibliography
from citecore.cache import Cache
from citecore.errors import BibliographyNotFoundError
from citecore.findings import (
    finding,
)
from citecore.model import (
    Bibliography,
    CheckResult,
    Finding,
    FindingKind,
    SourceLocation,
)
from citecore.options import Options
from citecore.verify import Verifier

if TYPE_CHECKING:
    from citecore.extract.latex import LatexExtraction

logger = logging.getLogger(__name__)


def check_latex_file(main: Path, options: Options, verifier: Verifier | None = None) -> CheckResult:
    """Check a LaTeX project from its main file: its citations (following `\\input` and
    friends), the bibliographies it names (or `--bib`) and its inline `\\bibitem`s, and what
    LaTeX's own `.aux`/`.bcf` recorded, when they exist. A bibliography that is not there is a
    `missing_bibliography` finding, never the end of the check."""
    from citecore.extract.latex import extract_latex  # start-up: pylatexenc, ~40 ms: LaTeX only

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
    bibliography, matched = _as_bibtex_finds(extraction, bibliography)
    found += matched
    return check_citations(
        list(extraction.citations),
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
) -> tuple[Bibliography, list[Finding]]:
    """The bibliography as BibTeX resolves the citations: it matches a key to an entry whatever
    their case (`\\cite{pirl}` prints `@article{PIRL`) and writes the entry under the spelling
    cited, so such an entry is known here by that spelling too — every report names the key as
    the writer cited it — with a warning, since biber and pandoc match case exactly; but BibTeX
    takes the first spelling of a key it meets, and a later other spelling is an error that
    leaves it undefined. A biblatex project's entries are left as written."""
    texts = (f.read_text(encoding="utf-8", errors="replace") for f in extraction.files)
    if any(_BIBLATEX.search(text) for text in texts):
        return bibliography, []
    by_case: dict[str, list[str]] = {}
    for key in bibliography.references:
        by_case.setdefault(key.casefold(), []).append(key)
    warnings = []
    cited_as: dict[str, str] = {}  # an entry's key → the spelling BibTeX takes for it
    first: dict[str, str] = {}  # BibTeX takes the first spelling it meets of each key
    for citation in extraction.citations:
        spelled = first.setdefault(citation.key.casefold(), citation.key)
        if spelled != citation.key:
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
            continue
        cited_as.setdefault(entries[0], citation.key)
        warnings.append(
            finding(
                FindingKind.INVALID_KEY,
                f"cited as {citation.key!r}, the entry is {entries[0]!r}: BibTeX matches keys "
                "whatever their case and prints it, but biber and pandoc would not find it",
                citation.key,
                citation.location,
            )
        )
    if not cited_as:
        return bibliography, warnings
    references = {
        cited_as.get(key, key): replace(entry, key=cited_as[key]) if key in cited_as else entry
        for key, entry in bibliography.references.items()
    }
    return replace(bibliography, references=references), warnings


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
        # start-up: LaTeX runs only, as above
        from citecore.extract.latex_bibitems import bbl_bibitems

        read = bbl_bibitems(main)
    with Cache(options.cache) as cache:
        bibliography = load_bibliographies(list(dict.fromkeys(paths)), cache=cache, read=read)
    return bibliography, missing


def latex_record_findings(main: Path, extracted: set[str]) -> list[Finding]:
    """Differences between the keys read from the source and those LaTeX recorded in the
    `.aux` (BibTeX) or `.bcf` (biber) beside the main file. A key only LaTeX saw is a citation
    citecheck's reader missed, reported as a citecheck bug rather than hidden."""
    # start-up: LaTeX's files: a Markdown build never reads them, nor pays for the XML reader
    from citecore.extract.aux import aux_keys, bcf_keys

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
