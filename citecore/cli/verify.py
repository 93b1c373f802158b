"""`citecheck verify`: bibliography entries, reference lists or one reference against the
registries."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citecore.api.bibliography import (
    is_reference_list,
    single_reference,
    verify_files,
    verify_one,
)
from citecore.bib.reflist.read import why_no_references
from citecore.cli.flags import (
    Commands,
    cli_layer,
    option_flags,
    registry_flags,
    report_flags,
    report_format,
)
from citecore.cli.inputs import references_for
from citecore.errors import CitecheckError, InputError
from citecore.files import write_atomically
from citecore.model import CheckResult
from citecore.options import ReportFormat, resolve_options
from citecore.policy import exit_status
from citecore.report import render_report
from citecore.report.bibtex import annotate_bibtex, listed_bibtex
from citecore.report.build_log import build_log
from citecore.report.files import REPORT_FORMATS

_ONE_REFERENCE = ("--doi", "--title", "--author", "--year", "--venue")
_FORMATS = (*REPORT_FORMATS, "bibtex")
# Reference lists whose suffix a pandoc document may carry too.
_MARKDOWN_LISTS = {".md", ".markdown"}


def register(commands: Commands) -> None:
    """Add `verify`."""
    verify = commands.add_parser("verify", help="check bibliography entries against registries")
    verify.add_argument(
        "inputs",
        nargs="*",
        type=Path,
        metavar="REFS",
        help=".bib, CSL .json/.yaml, .txt/.md list, .pdf",
    )
    for flag in _ONE_REFERENCE:
        verify.add_argument(flag, default="", help="one reference given on the command line")
    report_flags(verify, _FORMATS)
    registry_flags(verify)
    option_flags(verify, "grobid")
    verify.add_argument(
        "--resume",
        type=Path,
        metavar="FILE",
        help="save verdicts to FILE as they come; rerun to continue",
    )
    verify.set_defaults(run=run_verify)


def run_verify(args: argparse.Namespace) -> int:
    """Verify the inputs (or the one reference); write the report; the exit status."""
    options = resolve_options(cli_layer(args), base={"strict": True})
    one = (args.doi, args.title, args.author, args.year, args.venue)
    if args.inputs and any(one):
        raise CitecheckError("give bibliography files or --doi/--title/…, not both")
    if not args.inputs and not any(one):
        raise CitecheckError("nothing to verify: give a bibliography file or --doi/--title")
    for path in args.inputs:
        references_for(path)
    fmt = report_format(args, _FORMATS, "table")
    # Only the BibTeX output shows an open-access link (`cite_check_oa`): only it asks Unpaywall.
    result = (
        verify_files(args.inputs, options, args.resume, open_access=fmt == "bibtex")
        if args.inputs
        else verify_one(single_reference(*one), options)
    )
    _said_empty(args.inputs, result)
    if fmt == "bibtex":
        _write_bibtex(args, result)
    else:
        report = render_report(result, ReportFormat(fmt), options.only_issues)
        if args.output is None:
            sys.stdout.write(report)
        else:
            write_atomically(args.output, report)
    # The report holds the findings: the log says what fails the run, and what was not checked.
    for line in build_log(
        result, options, rerun="run again without --offline", findings=False, what_fails="this run"
    ):
        print(line, file=sys.stderr)
    return exit_status(result, options)


def _said_empty(inputs: list[Path], result: CheckResult) -> None:
    """One line for each input nothing was read from (an empty table is no all-clear); an
    InputError when that is every input: there was nothing to verify."""
    bibliography = result.bibliography
    read = {r.location.file for r in (*bibliography.references.values(), *bibliography.duplicates)}
    read |= {entry.location.file for entry in bibliography.unparsed}
    empty = [path for path in inputs if str(path) not in read]
    for path in empty:
        hint = ""
        if path.suffix.lower() in _MARKDOWN_LISTS:
            hint = f"; a document? check it with citecheck check {path}"
        elif path.suffix.lower() == ".pdf" and path.is_file():
            hint = f": {why_no_references(path)}"
        if len(empty) == len(inputs):
            raise InputError(f"{path}: nothing to verify: no reference read from it{hint}")
        print(f"citecheck: {path}: no reference read from it{hint}", file=sys.stderr)


def _write_bibtex(args: argparse.Namespace, result: CheckResult) -> None:
    """The one .bib given, with `cite_check*` fields, in the encoding it was read in; or the
    entries read from one PDF or text list, as BibTeX with the same fields."""
    if len(args.inputs) != 1:
        raise CitecheckError("-f bibtex needs exactly one .bib file, PDF or text list")
    references = result.bibliography.references
    if is_reference_list(args.inputs[0]):
        listed = listed_bibtex(references.values())
        text = annotate_bibtex(listed, result.references, references)
        if args.output is None:
            sys.stdout.write(text)
        else:
            write_atomically(args.output, text)
        return
    if args.inputs[0].suffix.lower() not in (".bib", ".bibtex"):
        raise CitecheckError("-f bibtex needs exactly one .bib file, PDF or text list")
    raw = args.inputs[0].read_bytes()
    encoding = "utf-8" if _decodes(raw, "utf-8") else "latin-1"
    text = annotate_bibtex(raw.decode(encoding), result.references, references)
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_bytes(text.encode(encoding))


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True
