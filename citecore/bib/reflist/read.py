"""Reference lists that are not bibliography files: a plain-text or Markdown list, or the
reference section of a PDF, read into References that carry their printed text.

Splitting is in reflist_text (text) and pdf_reflist (PDF layout); reading fields in refparse.
Each reference is keyed by its position and what was read of it (`ref12-vaswani2017`), so that a
report names a reference a writer can find.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from pathlib import Path

from citecore.bib.reflist.pdf_entries import pdf_entries
from citecore.bib.reflist.pdf_lines import pdf_lines
from citecore.bib.reflist.refparse import SAME_AUTHORS, parse_reference_text
from citecore.bib.reflist.text import is_heading, reference_section, split_references
from citecore.model import Reference, SourceLocation


def readable_key(number: int, reference: Reference) -> str:
    """`ref12-vaswani2017`: the entry's position, then its first author's family name and year
    as far as they were read (`ref12` alone when neither was)."""
    family = reference.authors[0].family if reference.authors else ""
    ascii_family = unicodedata.normalize("NFKD", family).encode("ascii", "ignore").decode()
    tail = re.sub(r"[^a-z]", "", ascii_family.lower()) + (str(reference.year or ""))
    return f"ref{number}-{tail}" if tail else f"ref{number}"


def with_readable_keys(references: list[Reference]) -> list[Reference]:
    """`references` in order, each keyed by `readable_key`; an entry printed with the rule for
    "the same authors" ("——, “Title,” …") has the entry before's authors, as the print says."""
    filled: list[Reference] = []
    for reference in references:
        if filled and not reference.authors and SAME_AUTHORS.match(reference.text):
            reference = replace(reference, authors=filled[-1].authors)
        filled.append(reference)
    return [replace(r, key=readable_key(n, r)) for n, r in enumerate(filled, 1)]


def references_from_text(text: str, file: str, line_offset: int = 0) -> list[Reference]:
    """Every reference of a plain-text list, in order."""
    return with_readable_keys(
        [
            parse_reference_text(entry.text, "", SourceLocation(file, entry.line + line_offset))
            for entry in split_references(text)
        ]
    )


def references_from_list_file(text: str, file: str) -> list[Reference]:
    """The references of a plain-text or Markdown document: its last reference section, or the
    whole text when no heading names one."""
    section, offset = reference_section(text)
    return references_from_text(section, file, offset)


def references_from_pdf(path: Path) -> list[Reference]:
    """The references of a PDF's last reference section, read from its text layer (no OCR).
    A PDF without a References/Bibliography heading is read as text, whole."""
    lines = pdf_lines(path)
    entries = pdf_entries(lines)
    if not entries:
        return references_from_list_file("\n".join(line.text for line in lines), str(path))
    return with_readable_keys(
        [
            parse_reference_text(entry.text, "", SourceLocation(str(path)), entry.italic)
            for entry in entries
        ]
    )


def why_no_references(path: Path) -> str:
    """Why no reference could be read from the PDF at `path`, in a few words naming its pages:
    no text layer (a scan), no reference heading, or a section with nothing like an entry."""
    lines = pdf_lines(path)
    if not lines:
        return "it has no text layer (a scanned PDF? run OCR on it first, e.g. ocrmypdf)"
    pages = max(line.page for line in lines)
    headings = [line for line in lines if is_heading(line.text)]
    if not headings:
        return f"no References or Bibliography heading on its {pages} page{'s' * (pages > 1)}"
    return (
        f"the references heading on page {headings[-1].page} is followed by nothing read as an "
        "entry (a year, a DOI or a link)"
    )
