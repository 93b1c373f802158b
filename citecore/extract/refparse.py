"""One free-text reference read into fields, by conservative rules: identifiers and the year
by pattern, the title from quotes, or from the sentence after the year (author–year styles), or
from the second sentence (numbered styles). What cannot be read is left empty: verification then
says `unverifiable` rather than guessing.
"""

from __future__ import annotations

import re

from citecore.identifiers import arxiv_in_text, normalize_doi
from citecore.model import Person, Reference, SourceLocation

# A year, not the start of an arXiv id ("1607.06450") or part of a longer number.
YEAR = re.compile(r"(?<![\d./])(1[5-9]\d\d|20\d\d)[a-z]?(?![\d]|\.\d)")
DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+", re.IGNORECASE)
_QUOTED = re.compile(r"[“\"]([^”\"]{10,})[”\"]")
# A sentence end: a period after a word of 2+ letters (not an initial), then space and a capital.
_SENTENCE_END = re.compile(r"(?<=[^\s.]{2})[.?!]\s+(?=[A-Z\"“(])")


def _sentences(text: str) -> list[str]:
    parts, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        parts.append(text[start : match.start()].strip())
        start = match.end()
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def _first_author(authors: str) -> tuple[Person, ...]:
    """The first author from an author segment, in any of the common orders: "Smith, J.,
    Doe, A." / "J. Smith, A. Doe" / "Smith J, Doe A"."""
    first = re.split(r";|\s+and\s+|\s+&\s+", authors.strip())[0].strip(" ,.")
    pieces = [p.strip() for p in first.split(",") if p.strip()]
    if not pieces:
        return ()
    words = pieces[0].split()
    if len(words) >= 2 and re.fullmatch(r"[A-Z]{1,3}", words[-1]):  # "Smith J"
        return (Person(family=" ".join(words[:-1]), given=words[-1]),)
    if len(words) >= 2:  # "A. Vaswani" or "Ashish Vaswani"
        return (Person(family=words[-1], given=" ".join(words[:-1])),)
    given = pieces[1] if len(pieces) > 1 else ""  # "LeCun, Y."
    return (Person(family=words[0], given=given),)


def parse_reference_text(text: str, key: str, location: SourceLocation) -> Reference:
    """A Reference from one free-text entry; fields it cannot find stay empty."""
    doi_match = DOI.search(text)
    doi = normalize_doi(doi_match.group(0)).rstrip(".,;)") if doi_match else ""
    years = YEAR.findall(text)
    year = int(years[-1]) if years else None  # numbered styles end with the year
    title, authors_text = "", ""
    quoted = _QUOTED.search(text)
    author_year = re.match(r"^(.*?)\(\s*((?:1[5-9]|20)\d\d)[a-z]?\s*\)\.?\s*(.*)$", text)
    if quoted:
        title = quoted.group(1).strip(" ,.")
        authors_text = text[: quoted.start()]
    elif author_year:
        authors_text = author_year.group(1)
        rest = _sentences(author_year.group(3))
        title = rest[0] if rest else ""
        year = int(author_year.group(2))
    else:
        parts = _sentences(text)
        if len(parts) >= 2:
            authors_text, title = parts[0], parts[1]
    title = re.sub(r"\s*\[[^\]]*\]$", "", title)
    # Where a venue follows the title without a capital: "… normalization. arXiv preprint …".
    title = re.split(r"\.\s+(?:arXiv|In\s|CoRR|Proc\.|Proceedings)", title)[0].strip(" .")
    return Reference(
        key=key,
        entry_type="misc",
        location=location,
        title=title if len(title.split()) >= 2 else "",
        authors=_first_author(authors_text) if authors_text else (),
        authors_complete=False,  # only the first author is read from free text
        year=year,
        year_text=str(year) if year else "",
        doi=doi,
        arxiv_id=arxiv_in_text(text),
        text=text,
    )
