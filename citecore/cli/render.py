"""`citecheck render INPUT… [PANDOC OPTIONS…]`: pandoc with the citecheck filter and citeproc in
the right order, on a machine with or without a pandoc of its own.

The pandoc is citecheck's (`CITECHECK_PANDOC`, else pandoc on PATH, else the pypandoc-binary
wheel's, which puts nothing on PATH); the filter is this installation's `citecheck` by its full
path, so neither needs to be on PATH. Every other option goes to pandoc as given.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from citecore.errors import InputError
from citecore.pandoc.knitr import KNITR_SUFFIXES
from citecore.pandoc.reader import pandoc_path

if TYPE_CHECKING:
    from citecore.cli.flags import Commands

_CITEPROC = ("--citeproc", "-C")
# With these pandoc leaves citations to LaTeX (natbib/biblatex): no citeproc.
_LATEX_CITATIONS = ("--natbib", "--biblatex")
HELP = (
    "run pandoc with the citecheck filter before --citeproc; every other argument goes to "
    "pandoc as given (e.g. citecheck render paper.md -o paper.pdf)"
)


def register(commands: Commands) -> None:
    """Add `render` (its arguments are pandoc's: `main` hands them over unparsed)."""
    render = commands.add_parser("render", help=HELP, description=HELP, add_help=True)
    render.add_argument(
        "pandoc_arguments",
        nargs="*",
        metavar="INPUT|PANDOC-OPTION",
        help="the document and any pandoc options, passed to pandoc as given",
    )
    render.set_defaults(run=lambda args: run_render(args.pandoc_arguments))


def filter_executable() -> str:
    """This installation's `citecheck` command, by full path (pandoc runs it as the filter)."""
    here = Path(sys.argv[0])
    if here.name == "citecheck" and here.is_file():
        return str(here.resolve())
    beside = Path(sys.executable).parent / "citecheck"
    if beside.is_file():
        return str(beside)
    return shutil.which("citecheck") or "citecheck"


def pandoc_arguments(arguments: Sequence[str], filter_command: str) -> list[str]:
    """pandoc's arguments: citecheck's filter just before `--citeproc` (added when not given,
    unless `--natbib`/`--biblatex` hand citations to LaTeX), so that citecheck sees the
    citations before citeproc replaces them; the rest as given."""
    given = list(arguments)
    ours = ["--filter", filter_command]
    for at, argument in enumerate(given):
        if argument in _CITEPROC:
            return [*given[:at], *ours, *given[at:]]
    citeproc = [] if any(a in _LATEX_CITATIONS for a in given) else ["--citeproc"]
    return [*ours, *citeproc, *given]


def _refuse_knitr_inputs(arguments: Sequence[str]) -> None:
    """R Markdown and Quarto need knitr (or Quarto) before pandoc: say how to run those."""
    for argument in arguments:
        if Path(argument).suffix.lower() in KNITR_SUFFIXES and Path(argument).is_file():
            raise InputError(
                f"{argument}: R Markdown and Quarto run knitr before pandoc: build it with "
                "quarto render (filters: [citecheck], see the README) or rmarkdown::render("
                "..., output_options = list(pandoc_args = c('--filter', 'citecheck')))"
            )


def run_render(arguments: Sequence[str]) -> int:
    """Run pandoc with the filter; pandoc's own exit status (its messages go to stderr)."""
    if not arguments:
        raise InputError("citecheck render: give the document (and pandoc's options), e.g. "
                         "citecheck render paper.md -o paper.pdf")  # fmt: skip
    _refuse_knitr_inputs(arguments)
    command = [pandoc_path(), *pandoc_arguments(arguments, filter_executable())]
    return subprocess.run(command, check=False).returncode


def parse_render(argv: Sequence[str]) -> argparse.Namespace | None:
    """`render`'s arguments, taken whole (pandoc's options are not citecheck's), or None when
    argv does not call `render` or asks for its help."""
    if not argv or argv[0] != "render" or any(a in ("-h", "--help") for a in argv[1:2]):
        return None
    return argparse.Namespace(run=lambda _args: run_render(argv[1:]))
