"""`citecheck`: the parser of every command, and the one place that maps failures to exit codes
(docs/design.md, "Exit codes")."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from citecore.cli import filter as filter_command
from citecore.errors import CitecheckError, ExitCode
from citecore.version import __version__

if TYPE_CHECKING:
    import argparse

SUBCOMMANDS = (
    "render",
    "check",
    "latex",
    "audit",
    "verify",
    "snapshot",
    "reference-model",
    "ask",
    "pool",
    "latexmk-hook",
    "install-latex",
    "pre-commit",
    "screen",
    "sources",
    "lsp",
    "filter",
)


def build_parser() -> argparse.ArgumentParser:
    """Every command, each registered by its own module with the function that runs it."""
    # start-up: the command modules load the pipeline (~150 ms, python -X importtime): only a
    # command that needs it pays, never the filter's replay of an unchanged rebuild.
    import argparse

    from citecore.cli import (
        ask,
        document,
        latex,
        lsp,
        model,
        pool,
        precommit,
        render,
        screen,
        snapshot,
        sources,
        verify,
    )

    parser = argparse.ArgumentParser(
        prog="citecheck",
        description="Check the citations of a document: every key defined, every entry sound.",
    )
    parser.add_argument("--version", action="version", version=f"citecheck {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for module in (
        render,
        document,
        verify,
        screen,
        sources,
        snapshot,
        model,
        ask,
        pool,
        latex,
        precommit,
        lsp,
        filter_command,
    ):
        module.register(commands)
    return parser


def _parsed(args_list: list[str], as_filter: list[str] | None) -> argparse.Namespace:
    """The command line parsed by the command's parser, with logging set up for it."""
    # start-up: a parsed command line only, never pandoc's plain filter call
    from citecore.cli.render import parse_render
    from citecore.logs import configure_logging

    configure_logging()
    if as_filter is not None:
        return filter_command.parser().parse_args(as_filter)
    rendered = parse_render(args_list)
    if rendered is not None:
        return rendered
    return build_parser().parse_args(args_list)


def main(argv: Sequence[str] | None = None) -> int:
    """Run citecheck with `argv` (default: the process arguments); return the exit code."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    as_filter = filter_command.filter_arguments(args_list, SUBCOMMANDS)
    # pandoc's plain `citecheck FORMAT`: no parser, no logging set up before a build server
    # or the replay has had its chance (the common rebuild costs the least).
    plain = filter_command.plain_call(as_filter) if as_filter is not None else None
    try:
        if plain is not None:
            return filter_command.run_plain(*plain)
        args = _parsed(args_list, as_filter)
        status: int = args.run(args)
        return status
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
