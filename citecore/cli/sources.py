"""`citecheck sources fetch DOC|BIB`: a source file for every cited key that has none, from
the writer's Zotero library or a legal open-access copy, into the sources folder."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citecore.api import check_latex_file, check_markdown_file
from citecore.bib.loader import load_bibliographies
from citecore.cli.flags import Commands, bibliography_option, cli_layer, option_flags
from citecore.cli.inputs import document_for, is_bibliography
from citecore.fetch.local import source_files
from citecore.fetch.manifest import manifest_path
from citecore.fetch.stage import fetch_for_options
from citecore.model import Bibliography, Reference
from citecore.options import DEFAULT_SOURCES, resolve_options
from citecore.report.labels import one_line


def register(commands: Commands) -> None:
    """Add `sources fetch`."""
    sources = commands.add_parser("sources", help="collect the cited works' source files")
    actions = sources.add_subparsers(dest="action", required=True)
    fetch = actions.add_parser(
        "fetch",
        help="store a PDF or full text for each cited key without one: from your Zotero "
        "library, else a legal open-access copy (arXiv, Europe PMC, Unpaywall, OpenAlex, "
        "Semantic Scholar)",
    )
    fetch.add_argument(
        "input", type=Path, help="a document (.md/.qmd/.Rmd/.tex), or a bibliography: every entry"
    )
    bibliography_option(fetch)
    option_flags(
        fetch,
        "sources",
        "email",
        "cache",
        "refresh",
        "offline",
        "zotero",
        "zotero_url",
        "zotero_data",
        says={
            "sources": "where to store them (default: sources/ beside the document)",
            "refresh": "look again for keys found missing within the last day",
            "offline": "no network: the Zotero library only",
        },
    )
    fetch.set_defaults(run=run_fetch)


def _cited(
    path: Path, bibliographies: list[str]
) -> tuple[list[Reference], Bibliography, list[str]]:
    """The references to fetch (a document's cited entries, or every entry of a bibliography),
    the bibliography, and the keys cited with no entry in it."""
    if is_bibliography(path) and path.is_file():
        bibliography = load_bibliographies([path, *map(Path, bibliographies)])
        return list(bibliography.references.values()), bibliography, []
    command = "latex" if path.suffix.lower() in (".tex", ".ltx") else "check"
    document = document_for(path, command)
    layer = {"verify": False, "ground": False, "bibliography": bibliographies or None}
    chosen = {k: v for k, v in layer.items() if v is not None}  # False is a choice too
    options = resolve_options(chosen, folder=document.parent)
    if command == "latex":
        result = check_latex_file(document, options)
    else:
        result = check_markdown_file(document, options).result
    keys = dict.fromkeys(c.key for c in result.citations)
    known = result.bibliography.references
    return (
        [known[k] for k in keys if k in known],
        result.bibliography,
        [k for k in keys if k not in known],
    )


def run_fetch(args: argparse.Namespace) -> int:
    """Fetch, print one line per key stored or still missing; exit 1 when any is missing."""
    folder = args.input.parent
    options = resolve_options(cli_layer(args), folder=folder)
    references, bibliography, undefined = _cited(args.input, args.bib)
    folders = [Path(s).parent for s in bibliography.sources if Path(s).is_file()]
    target = options.sources or folder / DEFAULT_SOURCES
    before = sum(1 for r in references if source_files(r, folders, target))
    outcome = fetch_for_options(references, options, folder, folders)
    # What hosts sent (URLs, reasons quoting them) is printed without control characters.
    for stored in outcome.stored:
        said = one_line(f"{stored.key}: {stored.file} from {stored.origin.value} ({stored.url})")
        print(f"stored   {said}")
    for missing in outcome.missing:
        print(f"missing  {one_line(f'{missing.key}: {missing.reason}')}")
        for tried in missing.tried:
            print(f"           tried {one_line(tried)}")
    for key in undefined:
        print(f"missing  {key}: cited, but in no bibliography")
    for entry in bibliography.unparsed:  # the rest is still fetched for
        print(f"citecheck: {entry.location}: not read: {one_line(entry.reason)}", file=sys.stderr)
    have = len(outcome.present) + len(outcome.stored)
    print(
        f"citecheck: {have}/{len(references) + len(undefined)} cited keys have a source "
        f"({before} before); {len(outcome.stored)} stored in {target}"
        + (f", listed in {manifest_path(target)}" if outcome.stored else ""),
        file=sys.stderr,
    )
    return 1 if outcome.missing or undefined or bibliography.unparsed else 0
