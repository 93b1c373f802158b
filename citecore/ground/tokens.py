"""Tokens for evidence ranking and alignment: text normalized the way PDFs break it.

Ligatures (ﬁ), hyphenation at line breaks, curly quotes and dashes, case and Markdown markup
are folded away, so that a sentence quoted from a PDF matches the PDF's extracted text.
"""

from __future__ import annotations

import re
import unicodedata

_TOKEN = re.compile(r"[^\W_]+(?:[.,][0-9]+)*", re.UNICODE)
STOP_WORDS = frozenset(
    """a an the of in on for to and or with by at from into as is are was were be been being it
    its this that these those which who whom than then there their our we they he she his her
    not no nor but if so such can could may might will would should has have had do does did
    also more most very via per each other any all some both""".split()
)
NEGATIONS = frozenset(
    {
        "not",
        "no",
        "never",
        "none",
        "nor",
        "without",
        "neither",
        "cannot",
        "fail",
        "fails",
        "failed",
        "lack",
        "lacks",
        "absent",
        "unable",
    }
)


# Words by which a text denies: its negations, and words that deny without one ("is unlikely to
# confer", "they're going to miss the elderly", "was absent").
DENIALS = NEGATIONS | frozenset(
    """lacking unlikely absence miss misses missed insufficient rarely hardly unclear""".split()
)


def normalize(text: str) -> str:
    """Text with PDF breakage folded: ligatures, hyphenated line breaks, quotes, dashes, case,
    Markdown emphasis."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"(\w)[-\u00ad]\s*\n\s*(\w)", r"\1\2", text)  # hyphen at a line break
    text = re.sub(r"[*_`#>|]", " ", text)  # Markdown markup from pymupdf4llm
    text = text.translate(str.maketrans("‘’“”–—−", "''\"\"---"))
    return text.casefold()


def tokens(text: str) -> list[str]:
    """Word and number tokens of normalized text, in order (numbers keep their decimals)."""
    return _TOKEN.findall(normalize(text))


def content_tokens(text: str) -> list[str]:
    """Tokens that carry content: no stopwords, no one-letter words."""
    return [t for t in tokens(text) if t not in STOP_WORDS and (len(t) > 1 or t.isdigit())]


# Words that are never names, however they are set: a heading in Title Case capitalises them.
_NEVER_NAMES = frozenset(
    """it its it's they them their theirs this that these those he she his her him we our us
    you your i my a an the and or but of in on for to with by at as is are was were be""".split()
)
# Three capitalised words in a row set in capitals ("ANNOUNCES FIBA AMERICUP ROSTER"): a heading,
# where capitals tell no name from a word.
_CAPITALS_RUN = re.compile(r"\b[A-Z][A-Z-]+(?:\s+[A-Z0-9][A-Z0-9-]*){2,}\b")


def named_entities(text: str) -> set[str]:
    """Capitalized words not opening a sentence ("Transformer", "WMT"), folded like tokens;
    neither pronouns nor the words of a heading set in capitals."""
    text = _CAPITALS_RUN.sub(" ", text.strip())
    found = re.findall(r"(?<![.!?]\s)(?<!^)\b([A-Z][\w-]+)", text)
    return {normalize(word) for word in found} - _NEVER_NAMES


def numbers(text: str) -> set[str]:
    """The numbers a text states ("3.5", "20", "1,000" as "1000")."""
    return {t.replace(",", "") for t in tokens(text) if any(c.isdigit() for c in t)}
