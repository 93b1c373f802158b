"""Sentence splitting for scholarly prose, returning character spans.

A period ends a sentence only when what follows looks like a new sentence (after white space,
anything but a lower-case letter) and the word before it is not an abbreviation that scholarly
text puts before capitals and numbers ("et al.", "e.g.", "Fig. 2", "Eq. 3", "J. Smith").
"""

from __future__ import annotations

import re

# Words that end with a period without ending the sentence, compared lower-cased without the dot.
_ABBREVIATIONS = frozenset(
    [
        "al",
        "e.g",
        "i.e",
        "cf",
        "fig",
        "figs",
        "eq",
        "eqs",
        "sec",
        "secs",
        "ch",
        "chap",
        "chaps",
        "tab",
        "tabs",
        "no",
        "nos",
        "vol",
        "vols",
        "pp",
        "p",
        "ed",
        "eds",
        "dr",
        "mr",
        "mrs",
        "ms",
        "prof",
        "st",
        "vs",
        "approx",
        "ca",
        "resp",
        "ref",
        "refs",
        "art",
        "arts",
        "para",
        "sect",
        "app",
        "suppl",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "inc",
        "ltd",
        "co",
        "corp",
        "univ",
        "dept",
        "est",
        "viz",
        "et",
        "seq",
        "op",
        "cit",
        "ibid",
        "n",
        "nn",
    ]
)

# A boundary is end punctuation, closing quotes or brackets, white space, then anything but a
# lower-case letter: a capital, a digit, an opening quote, or a citation.
_BOUNDARY = re.compile(r"[.!?…]+[\"'”’)\]]*(?=\s+[^\sa-zß-öø-ÿ])")
_WORD_BEFORE = re.compile(r"(\S+)$")


def _is_abbreviation(text: str, end: int) -> bool:
    """True when the period at `end` closes an abbreviation or an initial, not a sentence."""
    # Only the last few characters: searching from the text's start made a long page quadratic.
    match = _WORD_BEFORE.search(text, max(0, end - 64), end)
    if match is None:
        return False
    word = match.group(1).lstrip("([\"'“‘").lower()
    if word in _ABBREVIATIONS:
        return True
    # A single letter is an initial ("J. Smith"), a dotted run is an abbreviation ("U.S.").
    return (len(word) == 1 and word.isalpha()) or bool(re.fullmatch(r"(?:[a-z]\.)+[a-z]", word))


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Split `text` into sentences; return (start, end) spans that cover it, white space trimmed."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if match.group(0).startswith(".") and _is_abbreviation(text, match.start()):
            continue
        spans.append((start, match.end()))
        start = match.end()
    spans.append((start, len(text)))
    trimmed = []
    for begin, end in spans:
        while begin < end and text[begin].isspace():
            begin += 1
        while end > begin and text[end - 1].isspace():
            end -= 1
        if begin < end:
            trimmed.append((begin, end))
    return trimmed
