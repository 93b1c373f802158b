"""The whole wild corpus (../shared/corpus/wild) through the writer's toolchain and citecheck,
one table per kind: every LaTeX project built with latexmk and its keys held to its .aux/.bcf
and its undefined citations to LaTeX's log; every bibliography held to what BibTeX reads; every
R Markdown/Quarto/Markdown document held to knitr + pandoc. CI runs a fixed share of it
(tests/wild/); this runs all of it. `python bench/wild_sweep.py [--only latex|bib|markdown]`
(needs `make install-tex install-r`)."""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.loader import load_bibliographies
from citecore.verify.compare import compare_authors
from tests.wild.latex_build import projects
from tests.wild.sweep import (
    NOT_IN_TEX_LIVE,
    WILD,
    bib_row,
    latex_row,
    markdown_documents,
    markdown_keys,
)


def _latex() -> None:
    print("| LaTeX project | builds | keys (LaTeX / citecheck) | equal | undefined equal | s |")
    print("|---|---|---|---|---|---|")
    built = equal = 0
    rows = projects()
    for project in rows:
        start = time.perf_counter()
        with tempfile.TemporaryDirectory() as work:
            row = latex_row(project, Path(work))
        built += row.built
        equal += row.keys_equal and not row.cross_check
        missing = ", ".join(f"{m} ({NOT_IN_TEX_LIVE.get(m, '?')})" for m in row.missing_tex)
        undefined = row.latex_undefined == row.citecheck_undefined
        print(
            f"| {row.name} | {'yes' if row.built else 'no: ' + missing} "
            f"| {len(row.latex_keys)} / {len(row.citecheck_keys)} "
            f"| {'yes' if row.keys_equal and not row.cross_check else 'NO'} "
            f"| {'yes' if undefined else 'NO'} | {time.perf_counter() - start:.0f} |",
            flush=True,
        )
        if not undefined:
            print(f"|   | LaTeX only: {sorted(row.latex_undefined - row.citecheck_undefined)}")
            print(f"|   | citecheck only: {sorted(row.citecheck_undefined - row.latex_undefined)}")
    print(f"\nLaTeX: {built}/{len(rows)} build with TeX Live as `make install-tex` installs it;")
    print(f"keys equal .aux/.bcf on {equal}/{len(rows)} ({100 * equal / len(rows):.0f}%)\n")


def _bib() -> None:
    print("| bibliography | BibTeX reads | citecheck reads | unparsed | equal |")
    print("|---|---|---|---|---|")
    paths = sorted((WILD / "bib").glob("*.bib"))
    equal = 0
    for path in paths:
        row = bib_row(path)
        same = row.read | row.unparsed == row.bibtex
        equal += same
        print(
            f"| {row.name} | {len(row.bibtex)} | {len(row.read)} | {len(row.unparsed)} "
            f"| {'yes' if same else 'NO'} |",
            flush=True,
        )
    print(f"\nbibliographies: every entry BibTeX reads read or reported, {equal}/{len(paths)}\n")
    _dblp_names(paths)


def _dblp_names(paths: list[Path]) -> None:
    """Every real reference whose authors carry DBLP's homonym numbers, compared with the same
    people as a registry's record names them (DBLP's own answers lose the number too)."""
    references = [
        reference
        for path in paths
        for reference in load_bibliographies([path]).references.values()
        if any(person.homonym for person in reference.authors)
    ]
    flagged = 0
    for reference in references:
        on_record = tuple(replace(person, homonym="") for person in reference.authors)
        check = compare_authors(reference.authors, on_record)
        flagged += bool(check.mismatches or check.unconfirmed)
    print(f"DBLP homonym numbers: {len(references)} real references, {flagged} flagged\n")


def _markdown() -> None:
    print("| document | citations (knitr+pandoc / citecheck) | equal |")
    print("|---|---|---|")
    paths = markdown_documents()
    equal = 0
    for path in paths:
        oracle, ours = markdown_keys(path)
        equal += oracle == ours
        print(
            f"| {path.parent.name} | {len(oracle)} / {len(ours)} "
            f"| {'yes' if oracle == ours else 'NO'} |",
            flush=True,
        )
    print(f"\nMarkdown: keys and order equal knitr + pandoc on {equal}/{len(paths)}\n")


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", choices=("latex", "bib", "markdown"))
    args = parser.parse_args()
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)  # failures are findings
    for name, run in (("bib", _bib), ("markdown", _markdown), ("latex", _latex)):
        if args.only in (None, name):
            run()


if __name__ == "__main__":
    main()
