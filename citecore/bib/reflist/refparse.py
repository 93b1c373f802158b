"""One printed reference read into fields: authors, year, title, venue, DOI, arXiv id, URL.

A reference is read the way a librarian reads an unfamiliar style: find the identifiers (they
have fixed shapes), then the author list from how its first name is written — "Family, G. G."
(APA, Nature, ACS), "Family GG" (Vancouver, PLOS), "G. G. Family" (IEEE), "Given Family" (ACL,
NeurIPS) — and where that list ends; then the year, either right after the authors (author–year
styles: "(2013).", ". 2013.", ", 2013.") or late in the entry (numbered styles); then the title:
the quoted text, or the sentence after the authors and year. What cannot be read is left empty,
never guessed: verification then says `unverifiable` rather than `mismatch`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from citecore.bib.reflist.authors import Authors, corporate_author, formal_list, plain_list
from citecore.bib.reflist.crf import (
    first_author_by_labels,
    reference_labeller,
    title_by_labels,
)
from citecore.bib.reflist.shapes import DOI, PMID, QUOTED, URL, quoted_body, stands_alone
from citecore.bib.reflist.titles import (
    DATE_AFTER_AUTHORS,
    clean_title,
    late_year,
    title_after,
    title_alone,
    title_by_italics,
    title_by_tail,
    venue_of,
    with_own_year,
)
from citecore.identifiers import arxiv_in_text, normalize_doi
from citecore.model import Person, Reference, SourceLocation

# The rule a style prints for "the same authors as the entry before" (IEEE's "——,").
SAME_AUTHORS = re.compile(r"\s*(?:[—–]{2,}|-{3,}|_{3,})\s*[.,]?\s*")


def printed_doi(text: str) -> str:
    """The first DOI printed in an entry, without the punctuation that follows it ("…x.]",
    "…x)." when the DOI opened no bracket of its own: "10.1002/(SICI)1097-4636" keeps its)."""
    found = DOI.search(text)
    if not found:
        return ""
    # A year the line break glued on: "…/s12859-016-1087-5(2016)." (Nature's DOI, then date).
    doi = re.sub(r"\((?:1[5-9]|20)\d\d\)[.,;]?$", "", normalize_doi(found.group(0)))
    while doi and doi[-1] in ".,;:)]}":
        closing = doi[-1]
        opening = {")": "(", "]": "[", "}": "{"}.get(closing)
        if opening and doi.count(opening) >= doi.count(closing):
            break
        doi = doi[:-1]
    return doi


@dataclass(frozen=True, slots=True)
class _Reading:
    """What has been read of one entry so far, in the order a reader reads it."""

    authors: Authors | None
    authors_expected: bool  # the entry's style puts an author list first
    after_authors: str  # the text after the list (and its date, once read)
    year: int | None = None
    dated: bool = False  # an author–year date right after the list
    title: str = ""
    venue: str = ""
    after_title: str = ""


def parse_reference_text(
    text: str, key: str, location: SourceLocation, italic: Sequence[str] = ()
) -> Reference:
    """A Reference from one printed entry; fields it cannot read stay empty. `italic` are the
    entry's runs set in italic, when it came from a PDF (they show where a title ends)."""
    repeated = SAME_AUTHORS.match(text)
    if repeated:  # "——, “Title,” …": the entry before's authors, which the caller fills in
        return replace(
            parse_reference_text(text[repeated.end() :], key, location, italic), text=text
        )
    alone = title_alone(text)
    reading = _title_and_venue(text, _date(_authors(text, alone)), italic)
    reading = _untitled_list(text, reading)
    if alone:
        reading = replace(reading, title=alone, venue="")
    if reading.dated and reading.title:
        reading = replace(reading, title=with_own_year(reading.title, reading.after_authors))
    if reading.year is None:
        reading = replace(reading, year=late_year(reading.after_title) or late_year(text))
    title, first = _by_labels(text, reading)
    url_match = URL.search(text)
    url = url_match.group(0) if url_match and "doi.org" not in url_match.group(0) else ""
    pmid = PMID.search(text)
    return Reference(
        key=key,
        entry_type="misc",
        location=location,
        title=title if len(title.split()) >= 1 and len(title) >= 3 else "",
        authors=(first,) if first else (),
        authors_complete=False,  # only the first author is read from free text
        year=reading.year,
        year_text=str(reading.year) if reading.year else "",
        venue=reading.venue,
        doi=printed_doi(text),
        arxiv_id=arxiv_in_text(text),
        pmid=pmid.group(1) if pmid else "",
        url=url.rstrip(".,;"),
        text=text,
    )


def _authors(text: str, alone: str) -> _Reading:
    """The author list an entry opens with, when its style puts one first: not before a title
    standing alone, a quoted title, or ACM's date of an entry with no author ("2011. pyfakefs
    implements …")."""
    dated_first = re.match(r"\(?(?:1[5-9]|20)\d\d[a-z]?\)?\.\s", text)
    expected = not (alone or dated_first or text[:1] in '“"‘')
    authors = (
        (formal_list(text) or corporate_author(text) or plain_list(text)) if expected else None
    )
    return _Reading(authors, expected, text[authors.end :] if authors else text)


def _date(reading: _Reading) -> _Reading:
    """An author–year date right after the list ("(2013).", ". 2013.", ", 2013.", "n.d.")."""
    date = DATE_AFTER_AUTHORS.match(reading.after_authors)
    if not date:
        return reading
    number = date.group("paren") or date.group("bare") or date.group("spaced")  # or "n.d."
    return replace(
        reading,
        year=int(number) if number else None,
        dated=True,
        after_authors=reading.after_authors[date.end() :],
    )


def _title_and_venue(text: str, reading: _Reading, italic: Sequence[str]) -> _Reading:
    """The title and venue: a quoted title soon after the author list (or anywhere, when none
    was read) whatever stands between ("et al.", a name the list did not take, a date), with
    the first italic run after it as venue (IEEE, Chicago); else the sentence after the list
    and date, where italics or the entry's tail end it."""
    start = reading.authors.end if reading.authors else 0
    quoted = QUOTED.search(text, start)
    near = quoted and (not reading.authors or quoted.start() - start < 120)
    if quoted and near and stands_alone(text, quoted):
        after_title = text[quoted.end() :]
        venue = next(
            (
                venue_of(run, after_title[after_title.index(run[:16]) + len(run) :])
                for run in italic
                if len(run) >= 2 and run[:16] in after_title
            ),
            "",
        )
        title = clean_title(quoted_body(quoted))
        return replace(reading, title=title, venue=venue, after_title=after_title)
    after_authors = reading.after_authors
    title, title_end = title_after(after_authors)
    more_names = re.search(r"\bet al\.\s+", title)
    if more_names:  # the list went on past what was read of it: "…, Günther HM, et al. Title"
        after_authors = after_authors[after_authors.index(title) + more_names.end() :]
        title, title_end = title_after(after_authors)
    title, venue = title_by_italics(after_authors, title, italic)
    if not venue:
        title, venue = title_by_tail(after_authors, title)
    return replace(
        reading,
        after_authors=after_authors,
        title=title,
        venue=venue,
        after_title=after_authors[title_end:],
    )


def _untitled_list(text: str, reading: _Reading) -> _Reading:
    """ "Title. (2018). Venue." or "Title, 2009 [Online].": what was read as an author list
    followed by a date, with no title after it, is the title standing first (APA, Harvard,
    Elsevier–Harvard)."""
    authors = reading.authors
    if not authors or reading.title or not reading.dated or authors.end >= 300:
        return reading
    closed = "" if authors.formal else text[authors.end - 1 : authors.end + 1]
    if not re.match(r"\.|.,", closed):
        return reading
    title = clean_title(text[: authors.end])
    return replace(reading, title=title, authors=None, authors_expected=False)


def _by_labels(text: str, reading: _Reading) -> tuple[str, Person | None]:
    """The title and first author as the trained labeller (when built) corrects them: its
    title where the rules' is doubtful, its first author for a style the rules do not know."""
    first = reading.authors.first if reading.authors else None
    labeller = reference_labeller()
    if labeller is None:
        return reading.title, first
    labelled = labeller.label(text)
    title = title_by_labels(text, reading.title, labelled)
    if reading.authors_expected and first is None:
        first = first_author_by_labels(labelled)
    return title, first
