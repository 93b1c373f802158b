"""Text folding shared by every comparison: case, accents, punctuation and white space."""

from __future__ import annotations

import re
import unicodedata

_PUNCTUATION = re.compile(r"[^\w\s]|_")


def fold(text: str) -> str:
    """Case-folded text without accents or punctuation, words separated by single spaces."""
    # Compatibility forms first: a mathematical "𝓐" (common in text copied from PDFs) becomes
    # "A" only in NFKD, and must then be case-folded like any other letter.
    if text.isascii():  # nothing to decompose (most titles and names): a tenth of the time
        stripped = text.lower()
    else:
        decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
        stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(_PUNCTUATION.sub(" ", stripped).split())


def normalized_title(title: str) -> str:
    """A title folded for duplicate detection: `fold` plus hyphenated words joined
    ("Pre-trained" = "Pretrained")."""
    return fold(re.sub(r"(\w)[-‐‑–](\w)", r"\1\2", title))
