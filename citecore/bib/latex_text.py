"""LaTeX markup in bibliography fields decoded to plain Unicode text, with pylatexenc."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pylatexenc.latex2text import LatexNodes2Text

# Text that only protects case with braces ("{BERT}: Pre-training") needs no LaTeX parser.
_NEEDS_PARSER = re.compile(r"[\\$~%&]|--|``|''")


@cache
def _converter() -> LatexNodes2Text:
    # start-up: pylatexenc is slow to import, and many files never need it.
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text", strict_latex_spaces=True)


@lru_cache(maxsize=4096)
def decode_latex(text: str) -> str:
    """Plain text of a LaTeX field value: accents and macros decoded, braces and math delimiters
    dropped, white space collapsed. Never raises on malformed input: where pylatexenc itself
    fails (its `\\href` handler on some argument forms), macro names are dropped instead."""
    if not _NEEDS_PARSER.search(text):
        return " ".join(text.replace("{", "").replace("}", "").split())
    try:
        return " ".join(str(_converter().latex_to_text(text)).split())
    except (IndexError, KeyError, ValueError, AttributeError, TypeError):
        plain = re.sub(r"\\[A-Za-z]+\*?|[{}$]", " ", text)
        return " ".join(plain.split())
