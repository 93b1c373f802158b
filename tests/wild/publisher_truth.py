"""The truth of the publisher-typeset PDFs in ../shared/corpus/wild/publisher-pdfs: each
folder's `truth.tsv` (from the publisher's own JATS or article XML) and the scores of a reading
against it, as issue 46 states them: entries found against entries printed, titles read, and
DOIs read of those the PDF prints (a DOI in the XML that the PDF does not print cannot be read
from it).

Titles are scored twice: over every row, and over the rows whose title the publisher tagged
(`<article-title>`, `<chapter-title>`, `<data-title>`, `<part-title>` or `<source>` in the
XML). For an untagged `<mixed-citation>` the corpus's PROVENANCE says the row's title is a
script's guess ("the text after a stripped author list up to the next full stop"), which for a
website cited as "ERIC. EuroBioimaging. 2016. Available from: …" is the whole citation: it
measures the guess, not the reader."""

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
    # Per row: whether the publisher's XML tagged its title (else the row's title is a guess).
    tagged: tuple[bool, ...] = ()

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
    tagged_titles: int = 0  # of the rows whose title the publisher tagged
    tagged: int = 0


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
                _tagged(folder, len(rows)),
            )
        )
    return found


_TITLE_TAGS = {"article-title", "chapter-title", "data-title", "part-title", "source", "title"}


def _tagged(folder: Path, rows: int) -> tuple[bool, ...]:
    """Whether the publisher's XML tagged each reference's title, in document order (every
    row, when the XML's references do not line up with the rows)."""
    # start-up: only these tests and the bench read the publishers' XML
    from lxml import etree

    xml = next(folder.glob("article.xml*"))
    parser = etree.XMLParser(recover=True, resolve_entities=False, no_network=True)
    root = etree.parse(str(xml), parser).getroot()
    references = [
        ref
        for ref in root.iter("{*}ref", "{*}bibl")
        if not any(etree.QName(a).localname == "sub-article" for a in ref.iterancestors())
    ]
    tagged = tuple(
        any(isinstance(e.tag, str) and etree.QName(e).localname in _TITLE_TAGS for e in ref.iter())
        for ref in references
    )
    return tagged if len(tagged) == rows else (True,) * rows


def _title_read(truth: str, read: str) -> bool:
    # The XML's title sometimes carries the authors and year of an untagged citation
    # ("Linnainmaa S 1970 The representation of …"): a read title it ends with counts.
    return fuzz.ratio(truth, read) >= 90 or (len(read) >= 20 and read in truth)


def scored(truth: Truth, references: list[Reference]) -> Reading:
    """The reading of `references` against `truth`."""
    read_titles = [fold(r.title) for r in references if r.title]
    rows = [(fold(t), tagged) for t, tagged in zip(truth.titles, truth.tagged, strict=True) if t]
    right = [tagged for t, tagged in rows if any(_title_read(t, read) for read in read_titles)]
    read_dois = {r.doi.lower() for r in references if r.doi}
    printed = truth.printed_dois
    return Reading(
        len(references),
        len(truth.titles),
        len(right),
        len(rows),
        sum(1 for doi in printed if doi in read_dois),
        len(printed),
        sum(right),
        sum(tagged for _, tagged in rows),
    )
