"""`citecheck pre-commit FILE…`: what the pre-commit hook runs on the files a commit changes.

Each changed Markdown/Quarto/R Markdown document is checked; a changed `.tex` file is checked
through the main file(s) it belongs to; a changed bibliography is checked entry by entry.
Offline unless `--online`: a commit then never waits on the network, and registry verdicts come
from the cache the builds filled (nothing is called `not_found` offline).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from citecore.api import check_latex_file, check_markdown_file
from citecore.api.bibliography import verify_files
from citecore.cli.flags import Commands, cli_layer, option_flags
from citecore.extract.latex_root import main_files_for
from citecore.options import resolve_options
from citecore.policy import exit_status
from citecore.report.build_log import build_log
from citecore.verify.registry import registry_verifier

_BIBLIOGRAPHY_SUFFIXES = {".bib", ".bibtex"}
# Markdown the hook is for; pandoc would also read .txt, but a commit's .txt files are not papers.
_DOCUMENT_SUFFIXES = {".md", ".markdown", ".qmd", ".rmd"}


def register(commands: Commands) -> None:
    """Add `pre-commit`."""
    hook = commands.add_parser(
        "pre-commit",
        help="check the documents and bibliographies among FILES (what the pre-commit hook "
        "runs); offline unless --online",
    )
    hook.add_argument("files", nargs="*", type=Path, metavar="FILE", help="changed files")
    hook.add_argument("--online", action="store_true", help="ask the registries (slower commits)")
    option_flags(
        hook,
        "fail_on",
        says={"fail_on": "finding kinds that fail the commit (default: every error kind)"},
    )
    hook.set_defaults(run=run_precommit)


def _targets(files: list[Path]) -> list[Path]:
    """What to check for the changed files, each once, in the order given."""
    targets: list[Path] = []
    for file in files:
        suffix = file.suffix.lower()
        if not file.is_file():  # deleted by the commit
            continue
        if suffix == ".tex":
            found = main_files_for(file, Path.cwd())
            targets += [_shown(main) for main in found]
        elif suffix in _DOCUMENT_SUFFIXES | _BIBLIOGRAPHY_SUFFIXES:
            targets.append(file)
    return list(dict.fromkeys(targets))


def _shown(path: Path) -> Path:
    """A path as the writer's terminal shows it: relative to the working folder when inside."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


def _check(target: Path, layer: dict[str, object], said: set[str]) -> int:
    """Check one target, print the lines not said already (a bibliography's problem shows once,
    though the document and the bibliography both changed); its exit status."""
    options = resolve_options(layer, folder=target.parent, base={"strict": True})
    suffix = target.suffix.lower()
    if suffix in _BIBLIOGRAPHY_SUFFIXES:
        result = verify_files([target], options)
    elif suffix == ".tex":
        result = check_latex_file(target, options, registry_verifier(options))
    else:
        result = check_markdown_file(target, options, registry_verifier(options)).result
    # The offline line names its target: one such line a target, and a command that checks it.
    rerun = (
        f"run `citecheck pre-commit --online {shlex.quote(str(_shown(target)))}` "
        "(or give the hook `args: [--online]`)"
    )
    for line in build_log(result, options, rerun=rerun, what_fails="this commit"):
        if line not in said:
            said.add(line)
            print(line, file=sys.stderr)
    return exit_status(result, options)


def run_precommit(args: argparse.Namespace) -> int:
    """Check every target; the worst exit status among them (0 when all pass)."""
    layer = cli_layer(args)
    layer["offline"] = not args.online
    said: set[str] = set()
    return max((_check(target, layer, said) for target in _targets(list(args.files))), default=0)
