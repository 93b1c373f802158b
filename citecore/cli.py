"""The `citecheck` command: subcommands over the same pipeline, and pandoc filter mode.

When pandoc runs `citecheck` as a filter it passes the output format as the only argument and the
AST on stdin; `main` recognizes that and behaves as the filter. Everything else is a subcommand.
One place maps exceptions to exit codes (DESIGN.md, "Exit codes").
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from citecore import __version__
from citecore.errors import CitecheckError, ExitCode

SUBCOMMANDS = (
    "check",
    "latex",
    "latexmk-hook",
    "install-latex",
    "audit",
    "ask",
    "pool",
    "filter",
    "verify",
    "snapshot",
)
_REPORT_FORMATS = ("table", "markdown", "json")
_SUFFIX_FORMATS = {".json": "json", ".md": "markdown"}


def _bibliography_option(
    parser: argparse.ArgumentParser,
    help_text: str = "bibliography to use instead of the document's own (repeatable)",
    required: bool = False,
) -> None:
    """`--bib FILE` (alias `--bibliography`), repeatable, as every command spells it."""
    parser.add_argument(
        "--bib",
        "--bibliography",
        action="append",
        default=[],
        metavar="FILE",
        required=required,
        help=help_text,
    )


def _document_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help_text: str
) -> argparse.ArgumentParser:
    """A subcommand that checks one document (`check`, `latex`), with the shared flags."""
    check = commands.add_parser(name, help=help_text)
    check.add_argument("document", type=Path, help="the document (main .tex for `latex`)")
    _bibliography_option(check)
    check.add_argument(
        "-f", "--format", choices=_REPORT_FORMATS, help="report format (default: table)"
    )
    check.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="write the report to FILE (.json and .md pick their format)",
    )
    check.add_argument("--only", choices=["issues"], help="leave out information-level rows")
    check.add_argument(
        "--strict",
        action="store_true",
        default=None,
        help="exit 1 on error-level findings (the command line's default)",
    )
    check.add_argument(
        "--fail-on",
        metavar="KIND[,KIND…]",
        help="finding kinds that fail the run (`errors` for every error kind, `outage`)",
    )
    check.add_argument(
        "--offline",
        action="store_true",
        default=None,
        help="no network: cached registry answers only",
    )
    check.add_argument(
        "--cache", type=Path, metavar="PATH", help="cache database (default: the user cache)"
    )
    check.add_argument(
        "--refresh",
        action="store_true",
        default=None,
        help="ask the registries again, ignoring cached answers",
    )
    check.add_argument(
        "--no-verify",
        dest="verify",
        action="store_false",
        default=None,
        help="skip registry verification (local checks only)",
    )
    check.add_argument("--email", metavar="ADDR", help="contact address sent to the registries")
    check.add_argument(
        "-q", "--quiet", action="store_true", default=None, help="no progress on stderr"
    )
    check.add_argument(
        "--ground",
        action="store_true",
        default=None,
        help="check that each cited source supports its claim (local judge)",
    )
    check.add_argument(
        "--sources",
        type=Path,
        metavar="DIR",
        help="folder of source files named <key>.pdf|.md|.txt",
    )
    check.add_argument(
        "--pool", type=Path, metavar="POOL.json", help="the literature pool the document must cover"
    )
    check.add_argument(
        "--pool-threshold",
        type=float,
        metavar="SHARE",
        help="share of the pool the document must cite (default 0.9)",
    )
    check.add_argument(
        "--cutoff",
        metavar="YYYY[-MM[-DD]]",
        help="cited works must be published strictly before this date",
    )
    check.add_argument(
        "--judge",
        choices=["local", "openai", "gemini"],
        help="who judges support (turns --ground on; default: gemini with a key, else local)",
    )
    check.add_argument("--judge-url", metavar="URL", help="an OpenAI-compatible endpoint")
    check.add_argument("--judge-model", metavar="NAME", help="the judge's model name")
    check.add_argument(
        "--retry-model",
        metavar="NAME",
        help="ask UNSUPPORTED claims again with this (stronger) Gemini model",
    )
    check.add_argument(
        "--sequential",
        action="store_true",
        default=None,
        help="one model call at a time instead of one batch",
    )
    check.add_argument("--limit", type=int, metavar="N", help="judge at most N citations")
    check.add_argument(
        "--dry-run",
        action="store_true",
        default=None,
        help="print the questions a judge would get, make no call",
    )
    return check


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citecheck",
        description="Check the citations of a document: every key defined, every entry sound.",
    )
    parser.add_argument("--version", action="version", version=f"citecheck {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    check = _document_command(commands, "check", "check a Markdown/Quarto/R Markdown document")
    latex = _document_command(commands, "latex", "check a LaTeX project from its main file")

    verify = commands.add_parser("verify", help="check bibliography entries against registries")
    verify.add_argument(
        "inputs",
        nargs="*",
        type=Path,
        metavar="REFS",
        help=".bib, CSL .json/.yaml, .txt/.md list, .pdf",
    )
    for flag in ("--doi", "--title", "--author", "--year", "--venue"):
        verify.add_argument(flag, default="", help="one reference given on the command line")
    verify.add_argument(
        "-f",
        "--format",
        choices=(*_REPORT_FORMATS, "bibtex"),
        help="report format; bibtex writes the entries with cite_check* fields",
    )
    verify.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write the report to FILE"
    )
    verify.add_argument("--only", choices=["issues"], help="leave out information-level rows")
    verify.add_argument(
        "--fail-on",
        metavar="KIND[,KIND…]",
        help="finding kinds that fail the run (`errors` for every error kind, `outage`)",
    )
    verify.add_argument(
        "--offline",
        action="store_true",
        default=None,
        help="no network: cached registry answers only",
    )
    verify.add_argument(
        "--refresh",
        action="store_true",
        default=None,
        help="ask the registries again, ignoring cached answers",
    )
    verify.add_argument(
        "--cache", type=Path, metavar="PATH", help="cache database (default: the user cache)"
    )
    verify.add_argument("--email", metavar="ADDR", help="contact address sent to the registries")
    verify.add_argument(
        "-q", "--quiet", action="store_true", default=None, help="no progress on stderr"
    )
    verify.add_argument(
        "--resume",
        type=Path,
        metavar="FILE",
        help="save verdicts to FILE as they come; rerun to continue",
    )

    for sub in (check, latex, verify):
        sub.add_argument(
            "--timeout",
            type=float,
            metavar="SECONDS",
            help="per-request timeout for the registries (default 20)",
        )
        sub.add_argument(
            "--snapshot",
            type=Path,
            metavar="FILE",
            help="a local snapshot of registry records, asked first",
        )
    snapshot = commands.add_parser("snapshot", help="local snapshots of registry records")
    snapshot_commands = snapshot.add_subparsers(dest="snapshot_command", required=True)
    build = snapshot_commands.add_parser(
        "build", help="import Crossref/OpenAlex/normalized JSON-lines into a snapshot"
    )
    build.add_argument(
        "dumps", nargs="+", type=Path, metavar="DUMP.jsonl", help="JSON-lines files (.gz too)"
    )
    build.add_argument(
        "-o", "--output", type=Path, required=True, metavar="SNAPSHOT", help="snapshot to write"
    )
    build.add_argument(
        "--complete",
        action="store_true",
        help="declare the dumps a complete copy of the registries (full Crossref/OpenAlex "
        "dumps): offline, a work the snapshot lacks is then reported not_found",
    )

    ask = commands.add_parser("ask", help="ask one cited source one question")
    ask.add_argument("key", help="@key of the source")
    ask.add_argument("question", help="the question, in quotes")
    _bibliography_option(ask, "bibliography holding the key (repeatable)", required=True)
    ask.add_argument(
        "--sources", type=Path, metavar="DIR", help="folder of source files named <key>.pdf"
    )
    ask.add_argument("--passages", type=int, default=3, help="how many passages to show")

    pool = commands.add_parser("pool", help="literature-pool rules")
    pool_commands = pool.add_subparsers(dest="pool_command", required=True)
    validate = pool_commands.add_parser("validate", help="report (and --fix) schema problems")
    validate.add_argument("pool", type=Path, help="the pool's JSON file")
    validate.add_argument("--fix", action="store_true", help="write the fixable problems fixed")
    covered = pool_commands.add_parser(
        "coverage", help="how much of the pool a document cites, and a re-prompt for the rest"
    )
    covered.add_argument("--doc", type=Path, required=True, help="the document")
    covered.add_argument("--pool", type=Path, required=True, help="the pool's JSON file")
    covered.add_argument(
        "--threshold", type=float, default=0.9, help="share of the pool to cite (default 0.9)"
    )
    build = pool_commands.add_parser(
        "verify", help="build a pool from raw candidates: search, accept, dedup"
    )
    build.add_argument(
        "candidates", type=Path, help="JSON list of {title, snippet, url, discovered_for}"
    )
    build.add_argument(
        "-o", "--output", type=Path, required=True, metavar="POOL.json", help="pool to write"
    )
    build.add_argument(
        "--cutoff", metavar="YYYY[-MM[-DD]]", help="accept only works published before this date"
    )
    build.add_argument(
        "--offline", action="store_true", default=None, help="cached registry answers only"
    )
    build.add_argument("--email", metavar="ADDR", help="contact address sent to the registries")
    corroborate = pool_commands.add_parser(
        "corroborate", help="re-check every pool paper against Crossref and OpenAlex (tiers)"
    )
    corroborate.add_argument("pool", type=Path, help="the pool's JSON file")
    corroborate.add_argument(
        "--offline", action="store_true", default=None, help="cached registry answers only"
    )
    corroborate.add_argument(
        "--email", metavar="ADDR", help="contact address sent to the registries"
    )
    to_bibtex = pool_commands.add_parser("bibtex", help="the pool as BibTeX with its keys")
    to_bibtex.add_argument("pool", type=Path, help="the pool's JSON file")
    to_bibtex.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write to FILE (default: stdout)"
    )
    sync = pool_commands.add_parser(
        "sync-keys", help="rename the document's citation keys to the pool's (preview by default)"
    )
    sync.add_argument("document", type=Path, help="the document whose keys to rename")
    sync.add_argument("--pool", type=Path, required=True, help="the pool's JSON file")
    _bibliography_option(sync)
    sync.add_argument("--inplace", action="store_true", help="write the changes")

    audit = commands.add_parser(
        "audit", help="list cited keys with no readable source (no network, no model)"
    )
    audit.add_argument("document", type=Path, help="the document")
    _bibliography_option(audit)
    audit.add_argument(
        "--sources", type=Path, metavar="DIR", help="folder of source files named <key>.pdf"
    )

    hook = commands.add_parser(
        "latexmk-hook", help="run by latexmk after bibtex/biber (see latexmk/citecheck.latexmkrc)"
    )
    hook.add_argument("main", type=Path, help="the main .tex (or its .aux)")
    hook.add_argument(
        "--strict", action="store_true", default=None, help="fail the build on error findings"
    )

    install = commands.add_parser(
        "install-latex", help="copy citecheck.sty into TEXMFHOME (kpsewhich finds it there)"
    )
    install.add_argument("--texmfhome", type=Path, help="instead of `kpsewhich` TEXMFHOME")

    run_as_filter = commands.add_parser("filter", help="run as a pandoc JSON filter")
    run_as_filter.add_argument(
        "output_format", nargs="?", default="html", help="pandoc's target format (pandoc passes it)"
    )
    run_as_filter.add_argument(
        "--source", action="append", default=[], help="the Markdown file pandoc reads"
    )
    return parser


def _cli_layer(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line (absent flags give nothing)."""
    layer: dict[str, Any] = {
        "bibliography": getattr(args, "bib", None) or None,
        "strict": getattr(args, "strict", None),
        "fail_on": getattr(args, "fail_on", None),
        "offline": args.offline,
        "cache": args.cache,
        "quiet": args.quiet,
        "only_issues": True if args.only == "issues" else None,
        "format": args.format if args.format != "bibtex" else None,
        "refresh": args.refresh,
        "verify": getattr(args, "verify", None),
        "email": args.email,
        "snapshot": args.snapshot,
        "timeout": args.timeout,
        "ground": getattr(args, "ground", None),
        "sources": getattr(args, "sources", None),
        "judge": getattr(args, "judge", None),
        "judge_url": getattr(args, "judge_url", None),
        "judge_model": getattr(args, "judge_model", None),
        "retry_model": getattr(args, "retry_model", None),
        "sequential": getattr(args, "sequential", None),
        "limit": getattr(args, "limit", None),
        "dry_run": getattr(args, "dry_run", None),
        "pool": getattr(args, "pool", None),
        "pool_threshold": getattr(args, "pool_threshold", None),
        "cutoff": getattr(args, "cutoff", None),
    }
    return {k: v for k, v in layer.items() if v is not None}


def _check(args: argparse.Namespace) -> int:
    # The pipeline is imported here, not at the top: the filter's replay path must stay light.
    from citecore.api import (
        check_latex_file,
        check_markdown_document,
        registry_verifier,
    )
    from citecore.options import ReportFormat, resolve_options
    from citecore.pandoc.metadata import metadata_options
    from citecore.pandoc.reader import read_markdown
    from citecore.policy import exit_status, failing_findings
    from citecore.report import render_report, write_atomically
    from citecore.report.warnings import warning_lines

    document: Path = args.document
    if not document.is_file():
        raise CitecheckError(f"{document}: no such document")
    # On the command line error-level findings fail by default (it is what CI runs); any layer
    # may still say `strict: false` or name its own `fail-on` kinds.
    base = {"strict": True}
    if args.command == "latex":
        options = resolve_options(_cli_layer(args), folder=document.parent, base=base)
        result = check_latex_file(document, options, registry_verifier(options))
    else:
        doc = read_markdown(document)
        metadata = metadata_options(doc)
        options = resolve_options(
            _cli_layer(args),
            folder=document.parent,
            metadata=metadata,
            base=base,
            metadata_origin=str(document),
        )
        verifier = registry_verifier(options)
        result = check_markdown_document(doc, document, options, verifier).result
    failing = failing_findings(result.findings, options)
    report_format = options.report_format
    if args.output is not None:
        if args.format is None:
            suffix_format = _SUFFIX_FORMATS.get(args.output.suffix.lower())
            report_format = ReportFormat(suffix_format) if suffix_format else report_format
        write_atomically(args.output, render_report(result, report_format, options.only_issues))
        if not options.quiet:
            for line in warning_lines(result.findings, failing):
                print(line, file=sys.stderr)
    elif args.format is None and sys.stdout.isatty():
        from rich.console import Console  # only a terminal needs rich

        from citecore.report.console import build_table

        Console().print(build_table(result, options.only_issues))
    else:
        fmt = ReportFormat(args.format) if args.format else ReportFormat.TABLE
        sys.stdout.write(render_report(result, fmt, options.only_issues))
    return exit_status(result, options)


def _verify(args: argparse.Namespace) -> int:
    from citecore.options import ReportFormat, resolve_options
    from citecore.policy import exit_status
    from citecore.report import render_report, write_atomically
    from citecore.report.bibtex import annotate_bibtex
    from citecore.verify.standalone import single_reference, verify_files, verify_one

    options = resolve_options(_cli_layer(args), base={"strict": True})
    one = (args.doi, args.title, args.author, args.year, args.venue)
    if args.inputs and any(one):
        raise CitecheckError("give bibliography files or --doi/--title/…, not both")
    if not args.inputs and not any(one):
        raise CitecheckError("nothing to verify: give a bibliography file or --doi/--title")
    for path in args.inputs:
        if not path.is_file():
            raise CitecheckError(f"{path}: no such file")
    result = (
        verify_files(args.inputs, options, args.resume)
        if args.inputs
        else verify_one(single_reference(*one), options)
    )
    if args.format == "bibtex":
        if len(args.inputs) != 1 or args.inputs[0].suffix.lower() not in (".bib", ".bibtex"):
            raise CitecheckError("-f bibtex needs exactly one .bib file")
        source = args.inputs[0]
        raw = source.read_bytes()
        encoding = "utf-8" if _decodes(raw, "utf-8") else "latin-1"
        references = result.bibliography.references
        text = annotate_bibtex(raw.decode(encoding), result.references, references)
        if args.output is None:
            sys.stdout.write(text)
        else:
            args.output.write_bytes(text.encode(encoding))
    else:
        by_suffix = _SUFFIX_FORMATS.get(args.output.suffix.lower()) if args.output else None
        chosen = args.format or by_suffix
        fmt = ReportFormat(chosen) if chosen else ReportFormat.TABLE
        report = render_report(result, fmt, options.only_issues)
        if args.output is None:
            sys.stdout.write(report)
        else:
            write_atomically(args.output, report)
    return exit_status(result, options)


def _latexmk_hook(args: argparse.Namespace) -> int:
    """Check the project, write `<jobname>.citecheck.tex` when it changed (latexmk then reruns
    LaTeX), print one line per problem; non-zero in strict mode when a problem fails."""
    from citecore.api import check_latex_file, registry_verifier
    from citecore.options import resolve_options
    from citecore.policy import exit_status, failing_findings
    from citecore.report.latex_verdicts import problem_lines, render_verdicts

    main_tex = args.main if args.main.suffix == ".tex" else args.main.with_suffix(".tex")
    layer = {"strict": True} if args.strict else {}
    options = resolve_options(layer, folder=main_tex.parent)
    result = check_latex_file(main_tex, options, registry_verifier(options))
    verdicts = main_tex.with_suffix(".citecheck.tex")
    text = render_verdicts(result)
    if not verdicts.exists() or verdicts.read_text(encoding="utf-8") != text:
        verdicts.write_text(text, encoding="utf-8")
    failing = failing_findings(result.findings, options)
    shown = failing or [f for f in result.findings if f.severity.value != "info"]
    for line in problem_lines(list(shown)):
        print(line, file=sys.stderr)
    if failing:
        print(f"citecheck: {len(failing)} citation problem(s) fail this build", file=sys.stderr)
    return exit_status(result, options)


STY = Path(__file__).resolve().parents[1] / "latexmk" / "citecheck.sty"


def _ask(args: argparse.Namespace) -> int:
    """The local judge's answer to one question about one source, with passages and pages."""
    from citecore.bib.loader import load_bibliographies
    from citecore.ground.evidence import EvidenceIndex, passages
    from citecore.ground.judges.local import LocalJudge
    from citecore.ground.sources import source_files
    from citecore.ground.text import read_source

    key = args.key.removeprefix("@")
    bibliography = load_bibliographies([Path(b) for b in args.bib])
    reference = bibliography.references.get(key)
    if reference is None:
        raise CitecheckError(f"@{key} is not in {', '.join(str(b) for b in args.bib)}")
    files = source_files(reference, [Path(b).parent for b in args.bib], args.sources)
    if not files:
        raise CitecheckError(f"@{key} has no readable source file")
    index = EvidenceIndex([p for f in files for p in passages(read_source(f))])
    ranked = index.rank(args.question, args.passages)
    verdict = LocalJudge().judge(args.question, ranked)
    print(f"{verdict.status.value}: {verdict.reason}")
    for item in ranked:
        print(f"\n[{Path(item.passage.source).name}, p. {item.passage.page}] {item.passage.text}")
    return 0


def _audit(args: argparse.Namespace) -> int:
    """Cited keys without a readable source file; exit 1 when there are any."""
    from citecore.api import check_latex_file, check_markdown_file
    from citecore.ground.sources import source_files
    from citecore.options import resolve_options

    document: Path = args.document
    if not document.is_file():
        raise CitecheckError(f"{document}: no such document")
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
    print(
        f"citecheck: {cited - len(missing)}/{cited} cited keys have a readable source",
        file=sys.stderr,
    )
    return 1 if missing else 0


def _install_latex(args: argparse.Namespace) -> int:
    """Copy citecheck.sty to TEXMFHOME/tex/latex/citecheck/ and refresh the file database."""
    import shutil
    import subprocess

    if not STY.is_file():
        raise CitecheckError(f"{STY}: citecheck.sty not found (install citecheck from its sources)")
    home = args.texmfhome
    if home is None:
        try:
            found = subprocess.run(
                ["kpsewhich", "-var-value", "TEXMFHOME"], capture_output=True, text=True, check=True
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError) as exc:
            raise CitecheckError(f"cannot ask kpsewhich for TEXMFHOME: {exc}") from exc
        home = Path(found).expanduser()
    target = home / "tex" / "latex" / "citecheck"
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(STY, target / STY.name)
    print(f"installed {target / STY.name}", file=sys.stderr)
    return 0


def _snapshot(args: argparse.Namespace) -> int:
    from citecore.registries.snapshot import build_snapshot

    for dump in args.dumps:
        if not dump.is_file():
            raise CitecheckError(f"{dump}: no such file")
    imported, skipped = build_snapshot(args.dumps, args.output, complete=args.complete)
    declared = " (declared complete)" if args.complete else ""
    print(
        f"{args.output}: {imported} records imported, {skipped} lines skipped{declared}",
        file=sys.stderr,
    )
    return 0


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def _filter(args: argparse.Namespace) -> int:
    from citecore.pandoc.process import run_stdio

    if args.source:
        os.environ["CITECHECK_SOURCE"] = os.pathsep.join(args.source)
    return run_stdio(args.output_format)


def _is_pandoc_filter_call(argv: Sequence[str]) -> bool:
    """Pandoc runs a filter as `citecheck FORMAT` with the AST on stdin and PANDOC_VERSION set."""
    if len(argv) != 1 or argv[0].startswith("-"):
        return False
    # Pandoc sets PANDOC_VERSION for its filters; "latex" is then an output format, not our
    # subcommand of that name (which always takes a document).
    return "PANDOC_VERSION" in os.environ or (argv[0] not in SUBCOMMANDS and not sys.stdin.isatty())


def main(argv: Sequence[str] | None = None) -> int:
    """Run citecheck with `argv` (default: the process arguments); return the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=logging.WARNING, format="citecheck: %(message)s")
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)  # its failures are our findings
    if _is_pandoc_filter_call(args_list):
        args_list = ["filter", *args_list]
    args = _parser().parse_args(args_list)
    try:
        if args.command == "filter":
            return _filter(args)
        if args.command == "verify":
            return _verify(args)
        if args.command == "snapshot":
            return _snapshot(args)
        if args.command == "latexmk-hook":
            return _latexmk_hook(args)
        if args.command == "install-latex":
            return _install_latex(args)
        if args.command == "audit":
            return _audit(args)
        if args.command == "pool":
            from citecore.pool.cli import run_pool

            return run_pool(args)
        if args.command == "ask":
            return _ask(args)
        # check and latex
        return _check(args)
    except CitecheckError as exc:
        print(f"citecheck: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return ExitCode.INTERRUPTED
    except Exception as exc:  # the one boundary for citecheck's own bugs: a line, not a trace
        if os.environ.get("CITECHECK_DEBUG"):
            raise
        print(
            f"citecheck: internal error: {type(exc).__name__}: {exc} "
            "(a bug in citecheck; CITECHECK_DEBUG=1 shows where)",
            file=sys.stderr,
        )
        return ExitCode.INTERNAL_ERROR
