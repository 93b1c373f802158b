"""The truth of the publisher-typeset PDFs in ../shared/corpus/wild/publisher-pdfs: each
folder's `truth.tsv` (from the publisher's own JATS or article XML) and the scores of a reading
against it, as issue 46 states them: entries found against entries printed, titles read, and
DOIs read of those the PDF prints (a DOI in the XML that the PDF does not print cannot be read
from it)."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz import fuzz

from citecore.model import Reference
from citecore.normalize import fold
from tests.paths import SHARED

FOLDER = SHARED / "corpus" / "wild" / "publisher-pdfs"


@dataclass(frozen=True)
class Truth:
    """One PDF's printed list: each entry's title and DOI, and the PDF's text without spaces
    (where a printed DOI is looked for, whatever line breaks it)."""

    name: str
    pdf: Path
    titles: tuple[str, ...]
    dois: tuple[str, ...]
    flat_text: str

    @property
    def printed_dois(self) -> list[str]:
        """The entries' DOIs that the PDF prints."""
        return [doi for doi in self.dois if doi and doi in self.flat_text]


@dataclass(frozen=True)
class Reading:
    """How well a reading of one PDF's list matches its truth."""

    entries: int
    printed: int
    titles: int
    titled: int
    dois: int
    printed_dois: int


def publisher_pdfs() -> list[Truth]:
    """Every PDF of the corpus with its truth."""
    import pymupdf  # start-up: only these tests and the bench read PDFs' whole text

    found = []
    for folder in sorted(p for p in FOLDER.iterdir() if (p / "truth.tsv").is_file()):
        with (folder / "truth.tsv").open(encoding="utf-8") as stream:
            rows = list(csv.DictReader(stream, delimiter="\t"))
        with pymupdf.open(folder / "paper.pdf") as document:
            text = "".join(page.get_text() for page in document)
        flat = re.sub(r"[\s\u00ad\u200b]+", "", text).lower()
        found.append(
            Truth(
                folder.name,
                folder / "paper.pdf",
                tuple(row["title"] for row in rows),
                tuple(row["doi"].lower().replace(" ", "") for row in rows),
                flat,
            )
        )
    return found


def _title_read(truth: str, read: str) -> bool:
    # The XML's title sometimes carries the authors and year of an untagged citation
    # ("Linnainmaa S 1970 The representation of …"): a read title it ends with counts.
    return fuzz.ratio(truth, read) >= 90 or (len(read) >= 20 and read in truth)


def scored(truth: Truth, references: list[Reference]) -> Reading:
    """The reading of `references` against `truth`."""
    read_titles = [fold(r.title) for r in references if r.title]
    titled = [fold(t) for t in truth.titles if t]
    titles = sum(1 for t in titled if any(_title_read(t, read) for read in read_titles))
    read_dois = {r.doi.lower() for r in references if r.doi}
    printed = truth.printed_dois
    return Reading(
        len(references),
        len(truth.titles),
        titles,
        len(titled),
        sum(1 for doi in printed if doi in read_dois),
        len(printed),
    )
