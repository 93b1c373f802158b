"""A correction the writer can apply: the registry record as a BibTeX entry under their key.

citecheck reports and never repairs: the correction is shown (JSON report, REVIEW-CITES.md, the
`cite_check_fix` field of `-f bibtex`), the writer decides. It comes from the suggested record
(the record the cited title belongs to) or, for a mismatch, from the record compared with when
that record is the cited work (its title the same or close); never from a record that an
identifier names when the title says it is another work.
"""

from __future__ import annotations

import re

from citecore.model import Match, Reference, ReferenceResult, ReferenceVerdict, Source
from citecore.verify.compare import TITLE_SIMILAR, compare_titles

# Where a venue goes, by entry type; other types use `howpublished`.
_VENUE_FIELD = {
    "article": "journal",
    "inproceedings": "booktitle",
    "conference": "booktitle",
    "incollection": "booktitle",
    "inbook": "booktitle",
    "book": "series",
    "paper-conference": "booktitle",  # CSL types, for entries from CSL bibliographies
    "article-journal": "journal",
    "chapter": "booktitle",
}
_ENTRY_TYPE = {
    "paper-conference": "inproceedings",
    "article-journal": "article",
    "chapter": "incollection",
}


def correction_record(reference: Reference, result: ReferenceResult) -> Match | None:
    """The record a correction is drawn from, or None when there is none to offer."""
    if result.suggested is not None:
        return result.suggested
    if result.verdict is not ReferenceVerdict.MISMATCH or result.match is None:
        return None
    if any(m.field == "identifiers" for m in result.mismatches):
        return None
    if reference.title:
        title = compare_titles(reference.title, result.match.title)
        if not title.same and title.similarity < TITLE_SIMILAR:
            return None
    return result.match


def clean_value(value: str) -> str:
    """A value safe inside one pair of BibTeX braces."""
    return " ".join(value.replace("{", "").replace("}", "").split())


def latex_text(value: str) -> str:
    """Registry text (plain Unicode) as BibTeX text LaTeX can typeset: `&`, `%`, `$`, `#` and
    `_` escaped ("R&D" would stop the build; a `%` would comment out the rest of the line).
    Addresses and identifiers are not text and are never escaped."""
    return re.sub(r"(?<!\\)([&%$#_])", r"\\\1", clean_value(value))


def _arxiv_id(record: Match) -> str:
    """The arXiv id of a preprint record ("" for any other record)."""
    match = re.search(r"arxiv\.org/abs/([^\s?#]+?)(?:v\d+)?$", record.url) or re.match(
        r"10\.48550/arxiv\.(.+)$", record.doi, re.IGNORECASE
    )
    is_preprint = record.source is Source.ARXIV or re.match(r"(?i)arxiv", record.venue or "arxiv")
    return match.group(1) if match and is_preprint else ""


def _entry_type(reference: Reference, record: Match) -> str:
    if _arxiv_id(record):
        return "misc"  # the registries know a preprint: cite it as one
    return _ENTRY_TYPE.get(reference.entry_type, reference.entry_type or "misc")


def _record_fields(reference: Reference, record: Match) -> list[tuple[str, str]]:
    fields = [("title", record.title), ("author", " and ".join(record.authors))]
    fields.append(("year", str(record.year) if record.year else ""))
    if arxiv_id := _arxiv_id(record):
        fields += [("eprint", arxiv_id), ("archiveprefix", "arXiv")]
    else:
        fields.append((_VENUE_FIELD.get(reference.entry_type, "howpublished"), record.venue))
    fields += [("doi", record.doi), ("url", record.url)]
    verbatim = {"doi", "url", "eprint", "archiveprefix", "year"}
    return [
        (name, clean_value(value) if name in verbatim else latex_text(value))
        for name, value in fields
        if value
    ]


def corrected_bibtex(reference: Reference, result: ReferenceResult) -> str:
    """The record as a BibTeX entry under the writer's key and entry type ("" when none)."""
    record = correction_record(reference, result)
    if record is None:
        return ""
    entry_type = _entry_type(reference, record)
    body = ",\n".join(
        f"  {name} = {{{value}}}" for name, value in _record_fields(reference, record)
    )
    return f"@{entry_type}{{{reference.key},\n{body}\n}}\n"


# The mismatch fields, and the BibTeX fields that correct them.
_CORRECTS = {
    "title": ("title",),
    "first_author": ("author",),
    "authors": ("author",),
    "year": ("year",),
    "venue": ("journal", "booktitle", "howpublished", "series", "eprint", "archiveprefix"),
    "doi": ("doi",),
    "identifiers": ("doi",),
}


def corrected_fields(reference: Reference, result: ReferenceResult) -> str:
    """The fields that differ, as the record gives them ("year = 2021; doi = 10.…"): the value
    of `cite_check_fix`, with no braces so that it sits on one line inside one field."""
    record = correction_record(reference, result)
    if record is None:
        return ""
    wanted = {name for m in result.mismatches for name in _CORRECTS.get(m.field, ())}
    if result.suggested is not None and result.suggested.doi:
        wanted.add("doi")
    return "; ".join(
        f"{name} = {value}" for name, value in _record_fields(reference, record) if name in wanted
    )
