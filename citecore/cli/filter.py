"""`citecheck filter FORMAT` and `citecheck FORMAT` as pandoc calls it: the JSON filter.

This module stays light (it imports no pipeline): the filter process replays an unchanged
rebuild from the cache before anything heavy is loaded.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

    from citecore.cli.flags import Commands


def register(commands: Commands) -> None:
    """Add `filter`."""
    _arguments(commands.add_parser("filter", help="run as a pandoc JSON filter"))


def parser() -> argparse.ArgumentParser:
    """A parser for the filter alone, so that a filter call builds no other command."""
    import argparse  # start-up: pandoc's plain call parses nothing

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


def plain_call(arguments: Sequence[str]) -> tuple[str, list[str]] | None:
    """The output format and `--source` files of a filter call in one of the forms pandoc and
    the Quarto shim write (`FORMAT`, `FORMAT --source FILE …`), read without a parser; None for
    anything else (`--help`, a typo), which the filter's parser then reads and answers."""
    formats: list[str] = []
    sources: list[str] = []
    words = iter(arguments)
    for word in words:
        if word == "--source":
            value = next(words, None)
            if value is None:
                return None
            sources.append(value)
        elif word.startswith("--source="):
            sources.append(word.removeprefix("--source="))
        elif word.startswith("-"):
            return None
        else:
            formats.append(word)
    if len(formats) > 1:
        return None
    return (formats[0] if formats else "html", sources)


def run_plain(output_format: str, sources: Sequence[str]) -> int:
    """Filter pandoc's AST from stdin to stdout for `output_format`; the exit status."""
    from citecore.filter.process import run_stdio  # start-up: the filter's call only

    if sources:
        os.environ["CITECHECK_SOURCE"] = os.pathsep.join(sources)
    return run_stdio(output_format)


def run_filter(args: argparse.Namespace) -> int:
    """Filter pandoc's AST from stdin to stdout; the exit status pandoc sees."""
    return run_plain(args.output_format, args.source)
