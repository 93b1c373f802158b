"""The pandoc filter's work on one document: read options, check once, warn, report, annotate.

`citecore.filter.process` is the process around it (stdin, stdout, replay). This module keeps
one error boundary: in a non-strict build no failure inside citecheck may stop pandoc; it becomes
one warning and the document passes through unchanged. stdout belongs to the AST; every
diagnostic goes to stderr.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

import panflute as pf

from citecore.annotate import annotate
from citecore.annotate.checked import DocumentCheck
from citecore.api.markdown import check_document
from citecore.errors import CitecheckError, ExitCode, InputError
from citecore.extract.locate import SourceFile
from citecore.files import write_atomically
from citecore.model import CheckResult
from citecore.options import PROJECT_FILE, Options, ReportFormat, resolve_options
from citecore.pandoc.document import metadata_value
from citecore.pandoc.front_matter import option_lines
from citecore.pandoc.knitr import as_knitr_reads
from citecore.pandoc.metadata import metadata_options
from citecore.policy import exit_status, failing_findings
from citecore.report import render_report
from citecore.report.build_log import build_log
from citecore.report.files import REPORT_FORMATS, format_for_file
from citecore.verify.registry import registry_verifier

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class FilterOutcome:
    """What one filter run did: the exit status pandoc will see, the check (if it ran), the
    reports it wrote (path → text) and every file whose content the result depends on."""

    exit_code: int
    check: DocumentCheck | None = None
    reports: tuple[tuple[Path, str], ...] = ()
    dependencies: tuple[str, ...] = ()
    # How many citations were decorated: with none, the document goes out as it came in.
    annotated: int = 0


def _sources(inputs: Sequence[str]) -> tuple[SourceFile, ...]:
    """The readable Markdown inputs, as SourceFiles (unreadable ones are skipped)."""
    sources = []
    for name in inputs:
        try:
            text = Path(name).read_text(encoding="utf-8")
            sources.append(SourceFile(name, as_knitr_reads(name, text)))
        except (OSError, UnicodeDecodeError) as exc:
            logger.info("cannot read %s for line numbers: %s", name, exc)
    return tuple(sources)


def _options(
    doc: pf.Doc, folder: Path, cli_layer: dict[str, Any], sources: Sequence[SourceFile]
) -> Options:
    return resolve_options(
        cli_layer,
        folder=folder,
        metadata=metadata_options(doc),
        metadata_origin=sources[0].name if sources else "document metadata",
        metadata_lines=option_lines(sources[0].text) if sources else None,
    )


def _annotate_wanted(doc: pf.Doc, options: Options) -> bool:
    if options.annotate is not None:
        return options.annotate
    return metadata_value(doc, "draft", True) is not False


def _strict_requested(doc: pf.Doc) -> bool:
    """Whether the run asked for strict mode, read leniently: it is consulted when building the
    options (or anything else) failed, so it must not fail itself."""
    strict: Any = os.environ.get("CITECHECK_STRICT", "")
    try:
        strict = strict or metadata_options(doc).get("strict", "")
    except Exception:  # the metadata may be what broke; the environment still decides
        logger.debug("cannot read strict from metadata", exc_info=True)
    return str(strict).lower() in {"1", "true", "yes", "on"}


def run_filter(
    doc: pf.Doc,
    output_format: str,
    inputs: Sequence[str] = (),
    cli_layer: dict[str, Any] | None = None,
    stderr: TextIO | None = None,
) -> FilterOutcome:
    """Check `doc` (read from the Markdown files `inputs`) and annotate it for `output_format`.

    Returns exit code 0 (build goes on), 1 (findings fail the build), or the exit code of an
    input error in strict mode. Never raises in a non-strict build."""
    err = stderr or sys.stderr
    sources = _sources(inputs)
    folder = Path(sources[0].name).parent if sources else Path.cwd()
    try:
        options = _options(doc, folder, cli_layer or {}, sources)
        check = check_document(
            doc,
            options,
            sources=sources,
            search_dirs=tuple(dict.fromkeys([Path.cwd(), folder])),
            verifier=registry_verifier(options),
        )
    except CitecheckError as exc:
        strict = _strict_requested(doc)
        print(f"[{'ERROR' if strict else 'WARNING'}] citecheck: {exc}", file=err)
        return FilterOutcome(exc.exit_code if strict else ExitCode.OK)
    except Exception as exc:  # the filter's one boundary: a citecheck bug must not break a build
        logger.debug("citecheck failed", exc_info=True)
        strict = _strict_requested(doc)
        level = "ERROR" if strict else "WARNING"
        print(
            f"[{level}] citecheck: internal error, citations not checked: "
            f"{type(exc).__name__}: {exc}",
            file=err,
        )
        return FilterOutcome(ExitCode.INTERNAL_ERROR if strict else ExitCode.OK)
    outcome = _emit(doc, output_format, options, check, err)
    read = [s.name for s in sources] + [str(folder / PROJECT_FILE)]
    read += [b for b in check.result.bibliography.sources if Path(b).is_file()]
    # A rebuilt snapshot or pool judges the same document anew.
    read += [str(p) for p in (*options.snapshot, options.pool) if p is not None]
    if options.ground:
        read += [str(p) for p in grounding_inputs(check.result, options.sources)]
    return replace(outcome, dependencies=tuple(dict.fromkeys(read)))


def grounding_inputs(result: CheckResult, sources_dir: Path | None) -> list[Path]:
    """Every file grounding read or would read if it appeared: the cited entries' source files
    and their `<key>.pdf|.md|.txt` places in the sources folder (absent ones count too, so that
    adding a source re-runs the check)."""
    # start-up: grounding runs only
    from citecore.fetch.local import READABLE_SUFFIXES, source_files

    folders = [Path(s).parent for s in result.bibliography.sources if Path(s).is_file()]
    paths: list[Path] = []
    for key in dict.fromkeys(c.key for c in result.citations):
        reference = result.bibliography.references.get(key)
        if reference is not None:
            paths += source_files(reference, folders, sources_dir)
        if sources_dir is not None:
            paths += [sources_dir / f"{key}{suffix}" for suffix in READABLE_SUFFIXES]
    return paths


def _write_report(
    check: DocumentCheck, options: Options, err: TextIO
) -> tuple[tuple[Path, str], ...]:
    """The report file in the format its name says (or `format` asks for); a name that says a
    format citecheck cannot write is one warning, and no report, never another format."""
    assert options.report is not None
    option = options.report_format.value if options.report_format else None
    try:
        fmt = format_for_file(options.report, None, REPORT_FORMATS, "markdown", option)
    except InputError as exc:
        print(f"[WARNING] citecheck: report not written: {exc}", file=err)
        return ()
    text = render_report(check.result, ReportFormat(fmt), options.only_issues)
    write_atomically(options.report, text)
    return ((options.report.resolve(), text),)


def _emit(
    doc: pf.Doc, output_format: str, options: Options, check: DocumentCheck, err: TextIO
) -> FilterOutcome:
    """Warnings, the report and the annotations; the exit code from the failing findings."""
    reports: tuple[tuple[Path, str], ...] = ()
    if options.report is not None:
        reports = _write_report(check, options, err)
    for line in build_log(
        check.result,
        options,
        rerun="build again with -M citecheck.offline=false or without CITECHECK_OFFLINE",
        report=options.report,
    ):
        print(line, file=err)
    if failing_findings(check.result.findings, options):
        return FilterOutcome(exit_status(check.result, options), check, reports)
    annotated = annotate(doc, check, output_format) if _annotate_wanted(doc, options) else 0
    return FilterOutcome(ExitCode.OK, check, reports, annotated=annotated)
