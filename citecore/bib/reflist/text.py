"""Plain-text reference lists split into entries (docs/reference-lists.md): numbered (`[1]`,
`1.`, `1)`, `(1)`), bulleted, or paragraph-separated; a candidate counts as a reference only when it
carries a year, a DOI or an arXiv id. Also what finds a list's start in any text: the last
References/Bibliography heading.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from citecore.bib.reflist.shapes import DOI, YEAR
from citecore.identifiers import arxiv_in_text

# A list number, never a year: "2011. pyfakefs …" is an ACM entry with no author.
_NUMBER = r"(?!(?:1[5-9]|20)\d\d\b)\d{1,4}"
NUMBERED = re.compile(rf"^\s*(?:\[{_NUMBER}\]|\({_NUMBER}\)|{_NUMBER}[.)])\s+")
_BULLETED = re.compile(r"^\s*[-*•·]\s+")
HEADING = re.compile(
    r"^\s*(?:#+\s*)?(?:\d+\.?\s*)?(references|reference\s?list|bibliography|literature\s?cited|"
    r"works\s?cited|literatur|literaturverzeichnis|références|bibliographie|referencias|"
    r"bibliografía|referências|bibliografia|riferimenti\s?bibliografici|литература|"
    r"список\s?литературы|참고\s?문헌|参考文献|參考文獻)\s*:?\s*$",
    re.IGNORECASE | re.MULTILINE,
)


def is_heading(line: str) -> bool:
    """Whether a printed line is a reference section's heading, letter-spaced ones included
    ("R E F E R E N C E S", whose letters a PDF gives apart)."""
    if HEADING.fullmatch(line):
        return True
    tokens = line.split()
    spaced = len(tokens) >= 4 and sum(len(t) == 1 for t in tokens) * 3 >= len(tokens) * 2
    return spaced and HEADING.fullmatch("".join(tokens)) is not None


@dataclass(frozen=True, slots=True)
class ListedReference:
    """One entry of a reference list: its text and the line it starts on."""

    text: str
    line: int


_URL = re.compile(r"\b(?:https?://|www\.)\S", re.IGNORECASE)
_NO_DATE = re.compile(r"\bn\.\s?d\.")  # "(n.d.)": a date the entry says it does not have


def has_marker(text: str) -> bool:
    """Whether `text` carries what every reference has: a year (or "n.d."), a DOI, an arXiv
    id or a link (a manual or a web page may print no date: "Intel C++ Compiler. https://…")."""
    dated = YEAR.search(text) or _NO_DATE.search(text)
    return bool(dated or DOI.search(text) or arxiv_in_text(text) or _URL.search(text))


def list_number(marker: re.Match[str]) -> int:
    """The number of a list marker `NUMBERED` matched ("[12] " → 12)."""
    return int(re.sub(r"\D", "", marker.group(0)))


def numbered_starts(lines: Sequence[str]) -> list[int]:
    """The lines that open numbered entries: one marker style, numbers counting up by one from
    the entry numbered 1 (or the first marker). A wrapped line that happens to begin with
    "2019." or "12)" is not the entry that number would be."""
    markers = [(i, NUMBERED.match(line)) for i, line in enumerate(lines)]
    found = [(i, m) for i, m in markers if m]
    if not found:
        return []
    numbers = [(i, list_number(m), re.sub(r"[\d\s]", "", m.group(0))) for i, m in found]
    first = next((n for n in numbers if n[1] == 1), numbers[0])
    starts, expected, style = [], first[1], first[2]
    for index, number, kind in numbers[numbers.index(first) :]:
        if number == expected and kind == style:
            starts.append(index)
            expected += 1
    return starts


_URL_TAIL = re.compile(r"(?:https?:/{0,2}|www\.|doi:|\b10\.\d{4,9}/)\S*$", re.IGNORECASE)


_SOFT_HYPHEN = "\u00ad"
# A DOI's next part after a line break at one of its full stops: letters then figures
# ("jbc." / "M111.291377"), never a word that opens a sentence.
_DOI_GOES_ON = re.compile(r"[A-Za-z]+\d[\w.;()/-]*(?:\s|$)")


def join_lines(texts: Sequence[str]) -> str:
    """The lines of one entry as one line: a word broken by a hyphen at a line end is mended
    (when it goes on in lower case; always at a soft hyphen, which marks the typesetter's
    break), a URL or DOI broken across lines is put back together."""
    joined = ""
    for text in texts:
        text = text.strip()
        if not joined:
            joined = text
            continue
        url = _URL_TAIL.search(joined)
        if joined.endswith(_SOFT_HYPHEN):  # the typesetter's own break: always mended
            joined = joined[:-1] + text
        elif url and (
            not (url.group(0)[-1] in ".," and text[:1].isupper()) or _DOI_GOES_ON.match(text)
        ):
            joined += text  # URLs break anywhere, without a hyphen of their own
        elif re.search(r"[a-z]-$", joined) and text[:1].islower():
            joined = joined[:-1] + text
        elif re.search(r"\w-$", joined) and text[:1].isupper():
            joined += text  # a compound broken at its own hyphen: "Object-" "Oriented"
        else:
            joined += " " + text
    return joined.replace(_SOFT_HYPHEN, "")  # elsewhere it prints nothing


_NAME_OPENING = re.compile(
    r"^(?:(?:van|von|de|der|den|da|di|del|la|le)\s+)*"  # particles: "van der Walt, S."
    r"(?:[A-Z][\w'’\-]+(?:\s[A-Z][\w'’\-]+)?,\s*(?:[A-Z]\.|[A-Z][a-z]+)"  # Family, G. / Given
    r"|[A-Z]\.(?:\s?[A-Z]\.)*\s[A-Z][\w'’\-]+"  # G. G. Family
    r"|[A-Z][\w'’\-]+\s[A-Z]{1,3}[,.\s])"  # Family GG
)


# An author–year opening whose author no name form reads: an organisation, a one-word name, a
# quoted title standing first ("World Bank Group (2023)", "Sanoma (2024)", "“SmartNoise” (2023)").
_DATED_OPENING = re.compile(
    r"^[“\"]?[A-Z][^\s().]*(?:\s[^\s().]+){0,6}?[”\"]?\s\((?:1[5-9]|20)\d\d[a-z]?\)"
)


def opens_like_names(line: str) -> bool:
    """Whether `line` starts like a list of names ("Family, G.", "G. Family", "Family GG") or
    an author and its date ("World Bank Group (2023)")."""
    return bool(_NAME_OPENING.match(line) or _DATED_OPENING.match(line))


def opens_entry(previous: str, line: str) -> bool:
    """Whether `line` opens a new entry after `previous`: the one ends an entry, the other
    starts like a list of names or an author and its date."""
    return bool(ends_entry(previous) and opens_like_names(line))


def ends_entry(text: str) -> bool:
    """Whether a line can end an entry: a sentence end, a link, or the labels of the links a
    publisher prints after an entry."""
    return bool(re.search(r"[.)]$", text) or _URL_END.search(text) or LINK_LABELS.match(text))


# The labels of links publishers print after each entry, on a line of their own (F1000's
# "Publisher Full Text", Springer Nature's "Article | PubMed | Google Scholar"): no part of the
# reference, and the end of one.
LINK_LABELS = re.compile(
    r"^\s*(?:(?:Publisher Full Text|Reference Source|PubMed Abstract|(?:PubMed Central )?Free "
    r"Full Text|Google Scholar|Cross[Rr]ef|PubMed(?: Central)?|CAS|Article|Web of Science|"
    r"Scopus|MathSciNet|ADS)\s*[|·,]?\s*)+$"
)


_URL_END = re.compile(r"(?:https?://|www\.|doi:|\b10\.\d{4,9}/)\S*$", re.IGNORECASE)


def split_references(text: str) -> list[ListedReference]:
    """The entries of a reference list, each joined onto one line."""
    lines = text.splitlines()
    starts = numbered_starts(lines)
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
                blocks += _entries_in(first, current)
                current = []
    entries = []
    for start, body in blocks:
        joined = _BULLETED.sub("", NUMBERED.sub("", join_lines(body)))
        if has_marker(joined):
            entries.append(ListedReference(" ".join(joined.split()), start + 1))
    return entries


def _entries_in(start: int, body: list[str]) -> list[tuple[int, list[str]]]:
    """A paragraph split where a new entry opens: at lines set flush where the others are
    indented (a hanging indent kept in text), else at a line that opens like a name list after
    one that ends an entry. A paragraph of one entry comes back whole."""
    indents = [len(line) - len(line.lstrip()) for line in body]
    if indents[0] == 0 and any(indents):
        cuts = [i for i, indent in enumerate(indents) if indent == 0]
    else:
        following = range(1, len(body))
        cuts = [0] + [i for i in following if opens_entry(body[i - 1], body[i].strip())]
    bounds = [*cuts, len(body)]
    return [(start + a, body[a:b]) for a, b in itertools.pairwise(bounds)]


def reference_section(text: str) -> tuple[str, int]:
    """The text after the last References/Bibliography heading, and the line it starts on;
    the whole text when there is no such heading."""
    headings = list(HEADING.finditer(text))
    if not headings:
        return text, 0
    start = headings[-1].end()
    return text[start:], text.count("\n", 0, start)
