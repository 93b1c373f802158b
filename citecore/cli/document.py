"""`citecheck check` (Markdown, Quarto, R Markdown), `citecheck latex` and `citecheck audit`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citecore.api import (
    check_latex_file,
    check_markdown_document,
    check_markdown_file,
)
from citecore.api.markdown import document_toolchain, read_markdown_document
from citecore.cli.flags import (
    Commands,
    bibliography_option,
    cli_layer,
    option_flags,
    registry_flags,
    report_flags,
)
from citecore.cli.inputs import document_for
from citecore.fetch.local import source_files
from citecore.files import write_atomically
from citecore.model import CheckResult
from citecore.options import Options, ReportFormat, resolve_options
from citecore.pandoc.front_matter import option_lines
from citecore.pandoc.metadata import metadata_options
from citecore.policy import exit_status
from citecore.report import render_report
from citecore.report.build_log import build_log
from citecore.report.files import REPORT_FORMATS, format_for_file
from citecore.verify.registry import registry_verifier


def register(commands: Commands) -> None:
    """Add `check`, `latex` and `audit`."""
    check = _document_command(
        commands,
        "check",
        "check a Markdown/Quarto/R Markdown document",
        "the document: .md, .qmd or .Rmd",
    )
    check.add_argument(
        "--metadata-file",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help="a YAML metadata file, as pandoc's --metadata-file: under the document's own "
        "metadata (repeatable)",
    )
    check.set_defaults(run=run_check)
    latex = _document_command(
        commands, "latex", "check a LaTeX project from its main file", "the main .tex file"
    )
    latex.set_defaults(run=run_latex)
    audit = commands.add_parser(
        "audit", help="list cited keys with no readable source (no network, no model)"
    )
    audit.add_argument(
        "document", type=Path, help="the document (.md/.qmd/.Rmd, or a LaTeX main .tex)"
    )
    bibliography_option(audit)
    option_flags(audit, "sources")
    audit.set_defaults(run=run_audit)


def _document_command(
    commands: Commands, name: str, help_text: str, document_help: str
) -> argparse.ArgumentParser:
    """A subcommand that checks one document, with the shared flags."""
    check = commands.add_parser(name, help=help_text)
    check.add_argument("document", type=Path, help=document_help)
    bibliography_option(check)
    report_flags(check, REPORT_FORMATS)
    option_flags(
        check,
        "strict",
        says={"strict": "every error-level finding fails the run, exit 1 (the default here)"},
    )
    registry_flags(check)
    option_flags(
        check,
        "verify",
        "ground",
        "sources",
        "pool",
        "pool_threshold",
        "cutoff",
        "judge",
        "judge_url",
        "judge_model",
        "retry_model",
        "sequential",
        "limit",
        "dry_run",
    )
    return check


# On the command line error-level findings fail by default (it is what CI runs); any layer may
# still say `strict: false` or name its own `fail-on` kinds.
_COMMAND_LINE_DEFAULTS = {"strict": True}


def _document(args: argparse.Namespace, command: str) -> Path:
    return document_for(args.document, command)


def run_check(args: argparse.Namespace) -> int:
    """Check a Markdown document; print or write the report; the exit status."""
    document = _document(args, "check")
    doc, sources = read_markdown_document(document)
    toolchain = document_toolchain(document, args.metadata_file)
    for problem in toolchain.problems:
        print(f"[WARNING] citecheck: {problem}", file=sys.stderr)
    options = resolve_options(
        cli_layer(args),
        folder=document.parent,
        # The project's `citecheck:` map (Quarto's _quarto.yml, _metadata.yml) under the
        # document's own, as Quarto merges them.
        metadata={**toolchain.options, **metadata_options(doc)},
        base=_COMMAND_LINE_DEFAULTS,
        metadata_origin=str(document),
        metadata_lines=option_lines(document.read_text(encoding="utf-8", errors="replace")),
    )
    asked = _asked_format(args, options)
    verifier = registry_verifier(options)
    result = check_markdown_document(doc, document, options, verifier, toolchain, sources).result
    return _report(args, result, options, asked)


def run_latex(args: argparse.Namespace) -> int:
    """Check a LaTeX project from its main file; print or write the report; the exit status."""
    document = _document(args, "latex")
    options = resolve_options(cli_layer(args), folder=document.parent, base=_COMMAND_LINE_DEFAULTS)
    asked = _asked_format(args, options)
    result = check_latex_file(document, options, registry_verifier(options))
    return _report(args, result, options, asked)


def _asked_format(args: argparse.Namespace, options: Options) -> str | None:
    """The report format: `-o`'s name, `-f`, the `format` option (checked before anything runs:
    an output named for a format never gets another); None for the terminal's table."""
    option = options.report_format.value if options.report_format else None
    if args.output is None:
        return args.format or option
    return format_for_file(args.output, args.format, REPORT_FORMATS, "markdown", option)


def _report(
    args: argparse.Namespace, result: CheckResult, options: Options, asked: str | None
) -> int:
    """The report to -o (with the warnings on stderr), or to the terminal as a table, or to
    stdout in the format asked for."""
    if args.output is not None:
        text = render_report(result, ReportFormat(asked or "markdown"), options.only_issues)
        write_atomically(args.output, text)
    elif asked is None and sys.stdout.isatty():
        # start-up: only a terminal needs rich (slow to import)
        from rich.console import Console

        from citecore.report.console import build_table

        Console().print(build_table(result, options.only_issues))
    else:
        sys.stdout.write(render_report(result, ReportFormat(asked or "table"), options.only_issues))
    # The findings go to stderr beside a report file; a report on the terminal or stdout holds them.
    for line in build_log(
        result,
        options,
        rerun="run again without --offline",
        findings=args.output is not None,
        what_fails="this run",
    ):
        print(line, file=sys.stderr)
    return exit_status(result, options)


def run_audit(args: argparse.Namespace) -> int:
    """Cited keys without a readable source file, one per line; exit 1 when there are any."""
    document = _document(args, "latex" if args.document.suffix.lower() == ".tex" else "check")
    layer = {
        "verify": False,
        "ground": False,
        "bibliography": args.bib or None,
        "sources": args.sources,
    }
    options = resolve_options(
        {k: v for k, v in layer.items() if v is not None}, folder=document.parent
    )
    if document.suffix == ".tex":
        result = check_latex_file(document, options)
    else:
        result = check_markdown_file(document, options).result
    folders = [Path(s).parent for s in result.bibliography.sources if Path(s).is_file()]
    missing = []
    for key in dict.fromkeys(c.key for c in result.citations):
        reference = result.bibliography.references.get(key)
        if reference is None or not source_files(reference, folders, options.sources):
            missing.append(key)
    for key in missing:
        print(key)
    cited = len({c.key for c in result.citations})
    hint = f"; citecheck sources fetch {args.document} looks for them" if missing else ""
    print(
        f"citecheck: {cited - len(missing)}/{cited} cited keys have a readable source{hint}",
        file=sys.stderr,
    )
    return 1 if missing else 0
