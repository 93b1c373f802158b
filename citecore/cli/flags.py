"""Flags shared by several commands, and the options layer the command line gives."""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeAlias

from citecore.errors import CitecheckError
from citecore.options.declared import BY_NAME, DECLARED
from citecore.report.files import format_for_file, suffix_names

Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def bibliography_option(
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


def report_flags(parser: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    """`-f`, `-o` and `--only issues`."""
    parser.add_argument("-f", "--format", choices=formats, help="report format (default: table)")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help=f"write the report to FILE in the format its name says ({suffix_names(formats)})",
    )
    parser.add_argument("--only", choices=["issues"], help="leave out information-level rows")


def option_flags(
    parser: argparse.ArgumentParser, *names: str, says: Mapping[str, str] | None = None
) -> None:
    """The command-line flags of the named options, as `citecore.options.declared` spells and
    explains them (`says` words a flag for this command: what `--strict` does in a build);
    each value is read (and refused, exit 2) by the option's own reader."""
    for name in names:
        declared = BY_NAME[name]
        flag = declared.flag
        assert flag is not None, f"option {name} has no command-line flag"
        spellings = [s for s in (flag.short, flag.spelling) if s]
        help_text = (says or {}).get(name) or flag.says or declared.meaning
        if flag.switch is None:
            parser.add_argument(
                *spellings,
                dest=name,
                metavar=flag.metavar,
                help=help_text,
                action="append" if flag.repeated else "store",
            )
        else:
            parser.add_argument(
                *spellings,
                dest=name,
                action="store_true" if flag.switch else "store_false",
                default=None,
                help=help_text,
            )


def registry_flags(parser: argparse.ArgumentParser) -> None:
    """How the registries are asked: offline, cache, refresh, contact, timeout, snapshot."""
    option_flags(
        parser, "fail_on", "offline", "cache", "refresh", "email", "quiet", "timeout", "snapshot"
    )


def cluster_flags(parser: argparse.ArgumentParser, work: str) -> None:
    """`--scheduler ADDRESS` and `--workers N`: where a command runs `work` on Dask."""
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help=f"a running Dask scheduler (tcp://host:8786) to {work} on; default: a local cluster",
    )
    parser.add_argument(
        "--workers", type=int, metavar="N", help="worker processes of the local cluster (default 2)"
    )


def cluster_place(args: argparse.Namespace) -> tuple[str, int]:
    """The scheduler address ("" for a local cluster) and the local cluster's size the flags
    give; raises CitecheckError for a size below 1 or a size with a scheduler."""
    if args.workers is not None and args.workers < 1:
        raise CitecheckError("--workers must be at least 1")
    if args.scheduler and args.workers is not None:
        raise CitecheckError("--workers sizes the local cluster: not with --scheduler")
    return args.scheduler or "", args.workers or 2


def report_format(args: argparse.Namespace, formats: tuple[str, ...], default: str) -> str:
    """The format to write: for `-o FILE` the one its name says (an error when that is not one
    of `formats`, or disagrees with `-f`); else `-f`'s, else `default`."""
    return format_for_file(args.output, args.format, formats, default)


def cli_layer(args: argparse.Namespace) -> dict[str, Any]:
    """The options given on the command line (absent flags give nothing)."""
    layer: dict[str, Any] = {d.name: getattr(args, d.name, None) for d in DECLARED if d.flag}
    layer["bibliography"] = getattr(args, "bib", None) or None
    layer["only_issues"] = True if getattr(args, "only", None) == "issues" else None
    chosen = getattr(args, "format", None)
    layer["format"] = chosen if chosen != "bibtex" else None
    return {k: v for k, v in layer.items() if v is not None}
