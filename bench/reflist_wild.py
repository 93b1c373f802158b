"""Reference lists read from real publishers' PDFs, held to what each PDF's own source printed.

The 20 PDFs of ../shared/corpus/wild/pdfs (IEEE, ACM, LNCS, Elsevier, MDPI, Nature-style, APA
manuscripts, theses, R Markdown and Quarto renderings), each scored against the oracle of
tests/wild/pdf_oracle.py: the entries its source printed (the keys of a real LaTeX build, or of
citeproc's bibliography after knitr; where the corpus lacks the citing files, the .bib entries
whose title the PDF prints), with their .bib title, first author and year. Scored as
bench/reflist_styles.py scores: *found* when a read entry holds the title (fuzzy, one to one),
*title*/*author*/*year* exact reads over the expected entries, *extra* read entries that match
none. Printed per PDF and per layout (numbered, author–year, alpha labels), for citecheck's
reader and, side by side, for refextract (when importable: `pip install refextract` in a
virtual environment of its own, then run this with `--refextract-python PATH`) and GROBID
(`--grobid URL`, a running server).

Run with `python bench/reflist_wild.py`.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.reflist.read import references_from_pdf
from citecore.model import Person, Reference, SourceLocation
from tests.rendered_reflists import Score, score
from tests.wild.pdf_oracle import WildPdf, oracle, wild_pdfs

Reader = Callable[[Path], list[Reference]]

# refextract runs in its own environment (its pins clash with citecheck's); it prints JSON.
_REFEXTRACT = """
import json, logging, sys
logging.disable(logging.CRITICAL)
from refextract import extract_references_from_file
print(json.dumps(extract_references_from_file(sys.argv[1])))
"""


def layout(item: WildPdf) -> str:
    """The kind of label the PDF's list uses, from the manifest's style."""
    style = item.style.lower()
    if "alpha" in style:
        return "alpha"
    if "numbered" in style:
        return "numbered"
    return "author-year"


def refextract_reader(python: str) -> Reader:
    """refextract's entries (title, first author's last word, first year, raw text), run by the
    interpreter of its own virtual environment."""

    def read(pdf: Path) -> list[Reference]:
        run = subprocess.run(
            [python, "-c", _REFEXTRACT, str(pdf)], capture_output=True, text=True, check=True
        )
        found = []
        for entry in json.loads(run.stdout):
            authors = entry.get("author") or []
            words = authors[0].split(",")[0].split() if authors else []
            years = [y for y in entry.get("year") or [] if str(y).isdigit()]
            found.append(
                Reference(
                    key="refextract",
                    entry_type="misc",
                    location=SourceLocation("refextract"),
                    title=(entry.get("title") or [""])[0],
                    authors=(Person(words[-1]),) if words else (),
                    year=int(years[0]) if years else None,
                    text=" ".join(entry.get("raw_ref", [])),
                )
            )
        return found

    return read


def grobid_reader(url: str) -> Reader:
    """GROBID's entries, through citecheck's own GROBID client."""
    from citecore.bib.reflist.grobid import references_from_grobid

    return lambda pdf: references_from_grobid(pdf, url, 300.0)


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / max(1, whole):5.1f}%"


def _row(name: str, result: Score) -> str:
    whole = result.expected
    return (
        f"{name:<34} {result.found:>4}/{whole:<4} {_percent(result.found, whole)}"
        f" {result.extra:>5} {_percent(result.title, whole)}"
        f" {_percent(result.author, whole)} {_percent(result.year, whole)}"
    )


def table(title: str, reader: Reader, items: Sequence[WildPdf], misses: bool) -> None:
    """Read every PDF with `reader` and print one row per PDF, per layout, and in all."""
    print(f"\n## {title}\n")
    print(f"{'PDF (oracle)':<34} {'found':>11} {'extra':>5} {'title':>6} {'author':>6} {'year':>6}")
    layouts: dict[str, Score] = defaultdict(Score)
    total = Score()
    started = time.perf_counter()
    for item in items:
        truth = oracle(item)
        result = score(truth.expected, reader(item.pdf))
        print(_row(f"{item.name[:26]} ({truth.how})", result))
        if misses:
            for miss in result.misses[:8]:
                print(f"      {miss[:150]}")
        layouts[layout(item)].add(result)
        total.add(result)
    for name, result in sorted(layouts.items()):
        print(_row(f"layout: {name}", result))
    print(_row("all", total) + f"   ({time.perf_counter() - started:.0f} s)")


def main() -> None:
    """Print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated PDF names (default all)")
    parser.add_argument("--misses", action="store_true", help="print what each PDF missed")
    parser.add_argument("--refextract-python", default="", help="a Python that has refextract")
    parser.add_argument("--grobid", default="", help="the URL of a running GROBID server")
    arguments = parser.parse_args()
    items = [i for i in wild_pdfs() if not arguments.only or i.name in arguments.only.split(",")]
    table("citecheck", references_from_pdf, items, arguments.misses)
    if arguments.refextract_python:
        table("refextract", refextract_reader(arguments.refextract_python), items, False)
    if arguments.grobid:
        table("GROBID", grobid_reader(arguments.grobid), items, False)


if __name__ == "__main__":
    main()
