"""Where a PDF's reference list is: after the last heading that names one (a line of its own,
not a table's cell), up to where it ends (back matter, an appendix's heading), with page feet
and what a template left around it removed."""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from citecore.bib.reflist.pdf_lines import PdfLine
from citecore.bib.reflist.text import (
    NUMBERED,
    ends_entry,
    has_marker,
    is_heading,
    list_number,
    opens_like_names,
)

# A label in brackets at a line's start ("[12]", "[Smi07]").
LABEL = re.compile(r"^\[[^\[\]]{1,16}\](?:\s|(?=[^\W\d_]))")
# A bare list number at a line's start ("12 A. Smith, …"), never a year.
BARE_NUMBER = re.compile(r"^(?!(?:1[5-9]|20)\d\d\b)(\d{1,4})\s+(?=\S)")


_END_HEADING = re.compile(
    r"^(?:[A-Z](?:\.\d+)*\.?\s+)?(?:appendix|appendices|supplementary|supplemental|supporting "
    r"information|author biograph|biograph|about the authors?|checklist|acknowledg)",
    re.IGNORECASE,
)


# What follows a list in the list's own type: statements and dates an article ends with
# (Frontiers' "Conflict of Interest Statement: …", "Received: …", "Citation: …").
_BACK_MATTER = re.compile(
    r"^(?:Conflicts? of [Ii]nterests?(?: [Ss]tatement)?|Competing [Ii]nterests|Received|"
    r"Accepted|Published online|Citation|Copyright|Funding|Authors?['’]? [Cc]ontributions|"
    r"Data [Aa]vailability(?: [Ss]tatement)?|Publisher['’]s [Nn]ote|Ethics [Ss]tatement|"
    r"Supplementary [Mm]aterials?)\s*[:©]|^©"
)
_SIZE_SAMPLE = 40


def _in_a_table_row(line: PdfLine, lines: Sequence[PdfLine]) -> bool:
    """Whether a line is a cell of a table's row: other short cells set on its baseline in the
    same type (a header row's "Study", "References", "Design"), not a column's body text
    beside a heading."""
    cells = [
        other
        for other in lines
        if other is not line
        and other.page == line.page
        and abs(other.top - line.top) < 2
        and len(other.text.split()) <= 4
        and other.bold == line.bold
        and abs(other.size - line.size) < 0.5
    ]
    return bool(cells)


def reference_section(lines: Sequence[PdfLine]) -> list[PdfLine]:
    """The lines of the last reference section (empty when no heading names one), page
    furniture and what a template left around the list removed. A heading is a line of its
    own: a "References" cell of a table's header row is none."""
    candidates = [i for i, line in enumerate(lines) if is_heading(line.text)]
    headings = [i for i in candidates if not _in_a_table_row(lines[i], lines)]
    if not headings:
        return []
    body = list(lines[headings[-1] + 1 :])
    if not body:
        return []
    # The list's type size, from its start: figures and tables may follow it for pages.
    size = statistics.median(line.size for line in body[:_SIZE_SAMPLE])
    body = _until_the_list_ends(body, size)
    # Smaller type inside the list is a footnote run on from the text above, not an entry.
    return _without_strays(_without_feet([line for line in body if line.size >= size - 1.2]))


def _until_the_list_ends(body: list[PdfLine], size: float) -> list[PdfLine]:
    """The list's lines up to where it ends: the article's back matter set in the list's type,
    or a short heading in larger or bold type (an appendix, biographies) after which no entry
    resumes; an inset the list resumes after (a journal's box, an advert) is left out."""
    index = 0
    while index < len(body):
        line = body[index]
        if index and _BACK_MATTER.match(line.text) and ends_entry(body[index - 1].text):
            return body[:index]  # the article's back matter, set in the list's type
        short = len(line.text.split()) <= 8
        larger = line.size > size + 0.9
        if short and (larger or (line.bold and _END_HEADING.match(line.text))):
            # The larger type just before it is part of what interrupts the list.
            start = index
            while start and body[start - 1].size > size + 0.9:
                start -= 1
            resumes = _resumed(body, start, size)
            if resumes is None:
                return body[:index]
            body = body[:start] + body[resumes:]  # an inset (a box, an advert) in the list
            index = start
        index += 1
    return body


# How far past an inset a numbered list may resume (lines: a journal's box fills a column foot).
_INSET_LINES = 60


def _resumed(body: Sequence[PdfLine], end: int, size: float) -> int | None:
    """Where the list goes on after what looked like its end at `end` (a journal's box, the
    text of the paper set beside the list): the line in another column or page, soon after,
    that opens the entry numbered next ("20." after "19."), or, in a list without numbers,
    the first line in the list's type that opens like a list of names after an entry's end.
    None when nothing resumes it (the list did end there)."""
    before = body[:end]
    if not before:
        return None
    numbers = [list_number(found) for line in before if (found := NUMBERED.match(line.text))]
    for index in range(end + 1, min(len(body), end + _INSET_LINES)):
        line = body[index]
        moved = (line.page, line.column) != (before[-1].page, before[-1].column)
        if not moved or abs(line.size - size) > 0.5:
            continue
        if numbers:
            found = NUMBERED.match(line.text)
            if found and list_number(found) == numbers[-1] + 1:
                return index
        elif opens_like_names(line.text) and ends_entry(before[-1].text):
            return index
    return None


def _without_feet(body: list[PdfLine]) -> list[PdfLine]:
    """`body` less a page's foot that no repetition gave away (a one-page list): the last line
    in its page's column, set apart from the line above by more than two lines' height, that
    opens no entry — no label, no list of names, no date first — or says nothing an entry
    says (no date, identifier or link)."""
    feet = set()
    for index, line in enumerate(body[1:], 1):
        above = body[index - 1]
        last = index + 1 == len(body) or (body[index + 1].page, body[index + 1].column) != (
            line.page,
            line.column,
        )
        apart = (above.page, above.column) == (line.page, line.column) and (
            line.top - above.bottom > 2 * (line.bottom - line.top)
        )
        text = line.text
        opens = (
            opens_like_names(text)
            or NUMBERED.match(text)
            or LABEL.match(text)
            or BARE_NUMBER.match(text)
            or re.match(r"\(?(?:1[5-9]|20)\d\d", text)
        )
        if last and apart and not (opens and has_marker(text)) and not opens_like_names(text):
            feet.add(index)
    return [line for index, line in enumerate(body) if index not in feet]


def _without_strays(body: list[PdfLine]) -> list[PdfLine]:
    """`body` less what a template left before or after the list (an R chunk knitr never ran,
    "\\endgroup"): a first or last line set left of every line between them in its page's
    column, with no label, date, identifier or link, that does not open like a list of
    names."""
    inner = body[1:-1]

    def stray(line: PdfLine) -> bool:
        others = [
            other.x0 for other in inner if (other.page, other.column) == (line.page, line.column)
        ]
        left = bool(others) and line.x0 < min(others) - 2
        text = line.text
        labelled = LABEL.match(text) or NUMBERED.match(text)  # right-aligned: the widest
        return left and not (labelled or has_marker(text) or opens_like_names(text))

    while body and stray(body[0]):
        body = body[1:]
    while body and stray(body[-1]):
        body = body[:-1]
    return body
