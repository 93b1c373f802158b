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
from dataclasses import replace

from citecore.bib.reflist.authors import corporate_author, formal_list, plain_list
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
from citecore.model import Reference, SourceLocation

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


def parse_reference_text(
    text: str, key: str, location: SourceLocation, italic: Sequence[str] = ()
) -> Reference:
    """A Reference from one printed entry; fields it cannot read stay empty. `italic` are the
    entry's runs set in italic, when it came from a PDF (they show where a title ends)."""
    doi = printed_doi(text)
    pmid = PMID.search(text)
    url_match = URL.search(text)
    url = (
        url_match.group(0).rstrip(".,;")
        if url_match and "doi.org" not in url_match.group(0)
        else ""
    )
    repeated = SAME_AUTHORS.match(text)
    if repeated:  # "——, “Title,” …": the entry before's authors, which the caller fills in
        return replace(
            parse_reference_text(text[repeated.end() :], key, location, italic), text=text
        )
    alone = title_alone(text)
    # ACM's entry with no author: its date stands first ("2011. pyfakefs implements …").
    dated_first = re.match(r"\(?(?:1[5-9]|20)\d\d[a-z]?\)?\.\s", text)
    authors_expected = not (alone or dated_first or text[:1] in '“"‘')  # a quoted title first
    authors = (
        formal_list(text) or corporate_author(text) or plain_list(text)
        if authors_expected
        else None
    )
    after_authors = text[authors.end :] if authors else text
    title, year = "", None
    date = DATE_AFTER_AUTHORS.match(after_authors)
    if date:
        number = date.group("paren") or date.group("bare") or date.group("spaced")  # or "n.d."
        year = int(number) if number else None
        after_authors = after_authors[date.end() :]
    # A quoted title soon after the author list (or anywhere, when none was read) is the title,
    # whatever stands between: "et al.", a name the list did not take, a date.
    quoted = QUOTED.search(text, authors.end if authors else 0)
    start = authors.end if authors else 0
    venue = ""
    if quoted and (not authors or quoted.start() - start < 120) and stands_alone(text, quoted):
        title, after_title = clean_title(quoted_body(quoted)), text[quoted.end() :]
        # The venue of a quoted title is the first italic run after it (IEEE, Chicago).
        venue = next(
            (
                venue_of(run, after_title[after_title.index(run[:16]) + len(run) :])
                for run in italic
                if len(run) >= 2 and run[:16] in after_title
            ),
            "",
        )
    else:
        title, title_end = title_after(after_authors)
        more_names = re.search(r"\bet al\.\s+", title)
        if more_names:  # the list went on past what was read of it: "…, Günther HM, et al. Title"
            after_authors = after_authors[after_authors.index(title) + more_names.end() :]
            title, title_end = title_after(after_authors)
        after_title = after_authors[title_end:]
        title, venue = title_by_italics(after_authors, title, italic)
        if not venue:
            title, venue = title_by_tail(after_authors, title)
    closed = text[authors.end - 1 : authors.end + 1] if authors and not authors.formal else ""
    if authors and not title and date and authors.end < 300 and re.match(r"\.|.,", closed):
        # "Title. (2018). Venue." or "Title, 2009 [Online].": no author list, the title stands
        # first (APA, Harvard, Elsevier–Harvard).
        title, authors, authors_expected = clean_title(text[: authors.end]), None, False
    if alone:
        title, venue = alone, ""
    if date and title:
        title = with_own_year(title, after_authors)
    if year is None:
        year = late_year(after_title) or late_year(text)
    first = authors.first if authors else None
    labeller = reference_labeller()
    if labeller is not None:
        labelled = labeller.label(text)
        title = title_by_labels(text, title, labelled)
        if authors_expected and first is None:  # a style the rules do not know
            first = first_author_by_labels(labelled)
    return Reference(
        key=key,
        entry_type="misc",
        location=location,
        title=title if len(title.split()) >= 1 and len(title) >= 3 else "",
        authors=(first,) if first else (),
        authors_complete=False,  # only the first author is read from free text
        year=year,
        year_text=str(year) if year else "",
        venue=venue,
        doi=doi,
        arxiv_id=arxiv_in_text(text),
        pmid=pmid.group(1) if pmid else "",
        url=url,
        text=text,
    )
