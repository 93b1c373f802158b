"""`citecheck filter FORMAT` and `citecheck FORMAT` as pandoc calls it: the JSON filter.

This module stays light (it imports no pipeline): the filter process replays an unchanged
rebuild from the cache before anything heavy is loaded.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from citecore.filter.process import run_stdio

if TYPE_CHECKING:
    from citecore.cli.flags import Commands


def register(commands: Commands) -> None:
    """Add `filter`."""
    _arguments(commands.add_parser("filter", help="run as a pandoc JSON filter"))


def parser() -> argparse.ArgumentParser:
    """A parser for the filter alone, so that a filter call builds no other command."""
    filter_parser = argparse.ArgumentParser(prog="citecheck filter")
    _arguments(filter_parser)
    return filter_parser


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "output_format", nargs="?", default="html", help="pandoc's target format (pandoc passes it)"
    )
    parser.add_argument(
        "--source", action="append", default=[], help="the Markdown file pandoc reads"
    )
    parser.set_defaults(run=run_filter)


def filter_arguments(argv: Sequence[str], subcommands: Sequence[str]) -> list[str] | None:
    """The filter's own arguments when `argv` calls the filter, else None. Pandoc runs a filter
    as `citecheck FORMAT` with the AST on stdin and PANDOC_VERSION set; the Quarto shim as
    `citecheck filter FORMAT --source FILE`."""
    if argv and argv[0] == "filter":
        return list(argv[1:])
    if len(argv) != 1 or argv[0].startswith("-"):
        return None
    # Pandoc sets PANDOC_VERSION for its filters; "latex" is then an output format, not our
    # subcommand of that name (which always takes a document).
    if "PANDOC_VERSION" in os.environ or (argv[0] not in subcommands and not sys.stdin.isatty()):
        return list(argv)
    return None


def run_filter(args: argparse.Namespace) -> int:
    """Filter pandoc's AST from stdin to stdout; the exit status pandoc sees."""
    if args.source:
        os.environ["CITECHECK_SOURCE"] = os.pathsep.join(args.source)
    return run_stdio(args.output_format)
