"""Plain-text reference lists (and the reference section of a PDF) split into References.

Splitting follows DESIGN.md: numbered (`[1]`, `1.`, `1)`), bulleted, or paragraph-separated
entries; a candidate counts as a reference only when it carries a year, a DOI or an arXiv id.
Fields are then read with conservative rules: identifiers and the year by pattern, the title from
quotes, or from the sentence after the year (author–year styles), or from the second sentence
(numbered styles). What cannot be read is left empty: verification then says `unverifiable`
rather than guessing.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from citecore.errors import InputError
from citecore.identifiers import arxiv_in_text, normalize_doi
from citecore.model import Person, Reference, SourceLocation

_NUMBERED = re.compile(r"^\s*(?:\[\d+\]|\d+[.)])\s+")
_BULLETED = re.compile(r"^\s*[-*•·]\s+")
# A year, not the start of an arXiv id ("1607.06450") or part of a longer number.
_YEAR = re.compile(r"(?<![\d./])(1[5-9]\d\d|20\d\d)[a-z]?(?![\d]|\.\d)")
_DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+", re.IGNORECASE)
_QUOTED = re.compile(r"[“\"]([^”\"]{10,})[”\"]")
_HEADING = re.compile(
    r"^\s*(?:#+\s*)?(?:\d+\.?\s*)?(references|bibliography|literature cited|works cited|"
    r"literatur|literaturverzeichnis|références|bibliographie)\s*:?\s*$",
    re.IGNORECASE | re.MULTILINE,
)
# A sentence end: a period after a word of 2+ letters (not an initial), then space and a capital.
_SENTENCE_END = re.compile(r"(?<=[^\s.]{2})[.?!]\s+(?=[A-Z\"“(])")


@dataclass(frozen=True, slots=True)
class ListedReference:
    """One entry of a reference list: its text and the line it starts on."""

    text: str
    line: int


def _has_marker(text: str) -> bool:
    return bool(_YEAR.search(text) or _DOI.search(text) or arxiv_in_text(text))


def _numbered_starts(lines: list[str]) -> list[int]:
    """The lines that open numbered entries: one marker style, numbers counting up by one from
    the entry numbered 1 (or the first marker). A wrapped line that happens to begin with
    "2019." or "12)" is not the entry that number would be."""
    markers = [(i, _NUMBERED.match(line)) for i, line in enumerate(lines)]
    found = [(i, m) for i, m in markers if m]
    if not found:
        return []
    numbers = [(i, int(re.sub(r"\D", "", m.group(0))), m.group(0).strip()[-1]) for i, m in found]
    first = next((n for n in numbers if n[1] == 1), numbers[0])
    starts, expected, style = [], first[1], first[2]
    for index, number, kind in numbers[numbers.index(first) :]:
        if number == expected and kind == style:
            starts.append(index)
            expected += 1
    return starts


def split_references(text: str) -> list[ListedReference]:
    """The entries of a reference list, each joined onto one line."""
    lines = text.splitlines()
    starts = _numbered_starts(lines)
    if len(starts) < 2:
        starts = [i for i, line in enumerate(lines) if _BULLETED.match(line)]
    blocks: list[tuple[int, list[str]]] = []
    if len(starts) >= 2:
        for index, start in enumerate(starts):
            end = starts[index + 1] if index + 1 < len(starts) else len(lines)
            body = [lines[start]] + [line for line in lines[start + 1 : end] if line.strip()]
            blocks.append((start, body))
    else:
        current: list[str] = []
        first = 0
        for index, line in enumerate([*lines, ""]):
            if line.strip():
                if not current:
                    first = index
                current.append(line)
            elif current:
                blocks.append((first, current))
                current = []
    entries = []
    for start, body in blocks:
        joined = " ".join(part.strip() for part in body)
        joined = _BULLETED.sub("", _NUMBERED.sub("", joined))
        joined = re.sub(r"(\w)- (\w)", r"\1\2", joined)  # words broken across lines
        if _has_marker(joined):
            entries.append(ListedReference(" ".join(joined.split()), start + 1))
    return entries


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
    doi_match = _DOI.search(text)
    doi = normalize_doi(doi_match.group(0)).rstrip(".,;)") if doi_match else ""
    years = _YEAR.findall(text)
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
    )


def references_from_text(text: str, file: str, line_offset: int = 0) -> list[Reference]:
    """Every reference of a plain-text list, keyed `ref1`, `ref2`, … in order."""
    return [
        parse_reference_text(entry.text, f"ref{n}", SourceLocation(file, entry.line + line_offset))
        for n, entry in enumerate(split_references(text), 1)
    ]


def reference_section(text: str) -> tuple[str, int]:
    """The text after the last References/Bibliography heading, and the line it starts on;
    the whole text when there is no such heading."""
    headings = list(_HEADING.finditer(text))
    if not headings:
        return text, 0
    start = headings[-1].end()
    return text[start:], text.count("\n", 0, start)


def references_from_pdf(path: Path) -> list[Reference]:
    """The references of a PDF's last reference section (text layer; no OCR)."""
    try:
        import pymupdf  # ~600 ms to import: only a PDF reference list needs it
    except ImportError as exc:  # pragma: no cover - a dependency of the package
        raise InputError("reading PDFs needs pymupdf (pip install pymupdf)") from exc
    try:
        with pymupdf.open(path) as document:
            text = "\n".join(page.get_text() for page in document)
    except (RuntimeError, ValueError) as exc:
        raise InputError(f"{path}: cannot read this PDF: {exc}") from exc
    text = unicodedata.normalize("NFKC", text)  # ligatures: "diﬃcult" → "difficult"
    section, offset = reference_section(text)
    return references_from_text(section, str(path), offset)
