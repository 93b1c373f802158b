"""How a journal's name is written short, as a librarian compares two of them: word by word,
each word written out or abbreviated ("J. Mach. Learn. Res."); by ISO 4 (the LTWA word list
shipped by `pyiso4`); and as NLM writes MEDLINE's abbreviations, which keep a section or edition
letter the registry's title may leave out ("Urologe A" for "Der Urologe")."""

from __future__ import annotations

import re
from functools import cache

from pyiso4.ltwa import Abbreviate
from rapidfuzz import fuzz

from citecore.normalize import fold

STOPWORDS = frozenset(
    "a an the of in on for to and with by at from und der die das de la le et".split()
)
_NOISE = frozenset(
    "proceedings proc annual conference conf international intl int workshop symposium".split()
)


def is_acronym(venue: str) -> bool:
    """ "NeurIPS", "CVPR", "ICLR 2015", "NAACL-HLT": a short acronym, not a written-out name or
    an abbreviated one ("Nat Commun")."""
    core = re.sub(r"['’]?\d{2,4}", "", venue).strip()
    tokens = re.split(r"[\s-]+", core)
    return bool(re.fullmatch(r"[A-Za-z&-]{2,12}(?: [A-Za-z&-]{2,8})?", core)) and all(
        sum(c.isupper() for c in token) >= 2 for token in tokens
    )


def venue_words(venue: str) -> list[str]:
    """Content words of a venue: folded, runs of initials joined ("U. S. A." → "usa"), no
    parentheses, numbers, stopwords or noise words."""
    folded = joined_initials(fold(re.sub(r"\(.*?\)", " ", venue.replace("&", " and "))).split())
    return [
        w
        for i, w in enumerate(folded)
        if (w not in STOPWORDS or (len(w) == 1 and i == len(folded) - 1))  # "J. Phys. A"
        and w not in _NOISE
        and not re.fullmatch(r"\d+(st|nd|rd|th)?", w)
    ]


def joined_initials(words: list[str]) -> list[str]:
    joined: list[str] = []
    run = ""
    for word in words:
        if len(word) == 1 and word.isalpha():
            run += word
            continue
        if run:
            joined.append(run)
            run = ""
        joined.append(word)
    return [*joined, run] if run else joined


def _abbreviates_word(short: str, full: str) -> bool:
    """ "natl" abbreviates "national": same first letter, the rest in order (ISO 4 style)."""
    if not short or not full or short[0] != full[0] or len(short) > len(full):
        return False
    letters = iter(full)
    return all(char in letters for char in short)


def same_words(cited: list[str], found: list[str]) -> bool:
    if not cited or not found:
        return False
    if cited == found:
        return True
    if len(cited) == len(found) and all(
        _abbreviates_word(c, f) or _abbreviates_word(f, c)
        for c, f in zip(cited, found, strict=True)
    ):
        return True
    shorter, longer = sorted((cited, found), key=len)
    if len(shorter) >= 3 and longer[: len(shorter)] == shorter:
        return True  # "Proc Natl Acad Sci" and "… USA"
    differing = set(cited) ^ set(found)
    if any(len(word) <= 2 for word in differing):
        return False  # "Physical Review B" is not "… D": a section letter is the journal
    if min(len(cited), len(found)) >= 3:
        return fuzz.token_sort_ratio(" ".join(cited), " ".join(found)) >= 90
    return False


@cache
def _ltwa() -> object:
    return Abbreviate.create()


@cache
def iso4(title: str) -> str:
    """The ISO 4 abbreviation of a journal title ("Proc. Natl. Acad. Sci. U. S. A.")."""
    abbreviate = _ltwa()
    try:
        return str(abbreviate(title, remove_part=True))  # type: ignore[operator]
    except (ValueError, KeyError, IndexError, AttributeError):
        return ""


def as_written(cited: str, cited_words: list[str], name: str) -> bool:
    """The same words, each written out or abbreviated ("J. Mach. Learn. Res.")."""
    return same_words(cited_words, venue_words(name))


def as_iso4(cited: str, cited_words: list[str], name: str) -> bool:
    """The cited name as the ISO 4 abbreviation of the record's (neither an acronym)."""
    if is_acronym(cited) or is_acronym(name):
        return False
    abbreviated = venue_words(iso4(name))
    return bool(abbreviated) and same_words(cited_words, abbreviated)


# NLM's abbreviation keeps a journal's section or edition ("Urologe A" for "Der Urologe. Ausg. A");
# the registry's title often leaves it out.
_SECTION = re.compile(r"(.+?)[.,]?\s+(?:(?:Sect|Ser|Ausg|Pt)\.?\s+)?[A-Z]\.?")


def as_medline_section(cited: str, cited_words: list[str], name: str) -> bool:
    """A MEDLINE abbreviation whose section or edition letter the record's name leaves out: the
    rest agrees as written or by ISO 4 ("Urologe A" for "Der Urologe")."""
    section = _SECTION.fullmatch(cited.strip())
    if section is None or is_acronym(cited):
        return False
    rest = section.group(1)
    return as_written(rest, venue_words(rest), name) or as_iso4(rest, venue_words(rest), name)
