"""How the local judge reads a word: its stem, numbers in digits or words, a quotation."""

from __future__ import annotations

import re
from functools import lru_cache

import snowballstemmer

# Snowball's English (Porter 2) stemmer: the word families a reader sees as one word
# ("improves"/"improvement", "regulates"/"regulation") without a crude prefix rule that also
# joins words that are not ("protein"/"protect"). Measured against the suffix list and first
# five letters it replaced: more supported claims found, no more reassurance on a changed slot.
_ENGLISH = snowballstemmer.stemmer("english")
# Number words read as the numbers they are ("two years" is "2 years"); "one" is left alone, as
# it is as often a pronoun ("one of the") as a number.
_NUMBER_WORDS = {
    word: str(value)
    for value, word in enumerate(
        "zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
    if word != "_"
} | {
    word: str(10 * tens)
    for tens, word in enumerate("_ _ _ thirty forty fifty sixty seventy eighty ninety".split())
    if word != "_"
}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)


# Remembered: a judgment stems the same few hundred words thousands of times, and Snowball's
# pure-Python stemmer takes ~70 µs a word.
@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The word's stem ("relies", "relying" → "reli"); numbers are left as they are."""
    return word if word[:1].isdigit() else str(_ENGLISH.stemWord(word))


def is_number(token: str) -> bool:
    """Whether a token is a number ("2017", "0.1", "1,000")."""
    return bool(re.fullmatch(r"\d+(?:[.,]\d+)*", token))


def as_written(word: str, text: str) -> str:
    """A claim word as the writer wrote it in `text`: "ten" for the "10" that `comparable` made
    of it; the word itself otherwise."""
    for match in _NUMBER_WORD.finditer(text):
        if _NUMBER_WORDS[match.group(1).lower()] == word:
            return match.group(1)
    return word


def number_value(number: str) -> str:
    """A number as its value reads: "08" is "8", "1,000" is "1000", "2.50" is "2.5"."""
    plain = number.replace(",", "")
    if "." in plain:
        plain = plain.rstrip("0").rstrip(".")
    return plain.lstrip("0") or "0"


# The headings of a structured abstract ("RESULTS Of the 32,441 samples …") are not its words.
_HEADINGS = re.compile(
    r"\b(?:BACKGROUND|METHODS?|RESULTS?|CONCLUSIONS?|OBJECTIVES?|DESIGN|SETTING|FINDINGS|"
    r"INTERPRETATION|PURPOSE|AIMS?|INTRODUCTION|DISCUSSION)\b"
)


_YEAR_RANGE = re.compile(r"\b(1[6-9]|20)(\d\d)\s*[-–—/]\s*(\d\d)(?!\d)")


def _whole_years(match: re.Match[str]) -> str:
    """A range of years with its second year written whole ("2018–19" as "2018–2019")."""
    century, first, second = match.groups()
    return f"{century}{first}–{century}{second}"


def comparable(text: str) -> str:
    """The text as the rules compare it: number words as digits, so that "two years" and "16
    years" compare, the chemists' "NO" (nitric oxide) kept apart from the negation, a
    structured abstract's headings left out, and subscripts in parentheses joined to their
    word ("T(H)2")."""
    text = _HEADINGS.sub(" ", re.sub(r"\bNO\b", "nitricoxide", text))
    # A subscript written in parentheses inside a word is part of it: "T(H)2" is "TH2".
    text = re.sub(r"(?<=\w)\((\w{1,3})\)(?=\w)", r"\1", text)
    # A number joined to a name by a hyphen is part of the name ("COVID-19", "IL-6", "U-19"),
    # not a quantity to compare with the source's numbers.
    text = re.sub(r"(?<=[A-Za-z])-(?=\d)", "", text)
    # A range of years is one value however it is written: "2018–19", "2018-2019", "2018/19".
    text = _YEAR_RANGE.sub(_whole_years, text)
    # "78%" is "78 percent": the unit a number is given in is compared as a word.
    text = re.sub(r"(?<=\d)\s*%", " percent", text)
    return _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], text)


def quote(sentence: str) -> str:
    """The source sentence as a conflict quotes it."""
    return f'the source says "{" ".join(sentence.split())}"'
