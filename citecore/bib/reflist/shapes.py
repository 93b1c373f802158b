"""The fixed shapes of a printed reference: a year, a DOI, a link, a quoted title."""

from __future__ import annotations

import re

# A year, not the start of an arXiv id ("1607.06450"), part of a longer number or of an article
# number ("e1503"), or the end of a page range ("1638–1649").
# A year: not inside a number, a path or a range; after a full stop only when the stop ends a
# word ("Biochem Pharmacol.2011;82(9)", typeset without its space), never a figure ("1.2015").
YEAR = re.compile(r"(?<![\w/:–-])(?<![\d./]\.)(1[5-9]\d\d|20\d\d)[a-z]?(?![\d–]|\.\d)")
DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+", re.IGNORECASE)
# A PubMed id as lists print it: "PMID: 16631834", "[PMID 16631834]", "PubMed PMID: 1".
PMID = re.compile(r"\b(?:PubMed\s+)?PMID:?\s*(\d{1,9})\b")
URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
# A quoted title, closed by the mark that matches its opening one; inside single quotes an
# apostrophe within a word ("cell’s") or after a plural before a lower-case word ("Species’
# roles", "metrics’ standardization") does not close it.
QUOTED = re.compile(
    r"(?:“(?P<curly>[^”]{3,}?)”|\"(?P<straight>[^\"]{3,}?)\""
    r"|‘(?P<single>(?:[^’]|’(?=[^\W\d_])|(?<=s)’(?=\s(?!in\b)[a-z])){3,}?)’"
    r"(?!\s(?!in\b)[a-z]))(?=[\s,.;:?!]|$)"
)


def quoted_body(match: re.Match[str]) -> str:
    return match.group("curly") or match.group("straight") or match.group("single") or ""


def stands_alone(text: str, quoted: re.Match[str]) -> bool:
    """Whether a quotation is a title of its own ("Doe, J. “Title,” Venue"), not words quoted
    inside an unquoted title ("… functions for “grid” graphics", "“Utilitarian” judgments in
    …", "A Response to “Redefine Statistical Significance”. PsyArXiv"): it opens after a
    punctuation mark or the entry's start, and closes before punctuation or with its own."""
    before = text[: quoted.start()].rstrip()
    opens = not before or before[-1] in ".,:;)]"
    closes = bool(re.match(r"\s*(?:[.,;:?!(\[]|$)", text[quoted.end() :]))
    return opens and (closes or quoted.group(0)[-2:-1] in ".,?!")
