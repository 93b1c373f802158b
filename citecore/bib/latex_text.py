"""LaTeX markup in bibliography fields decoded to plain Unicode text, with pylatexenc."""

from __future__ import annotations

from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text

_CONVERTER = LatexNodes2Text(math_mode="text", strict_latex_spaces=True)


@lru_cache(maxsize=4096)
def decode_latex(text: str) -> str:
    """Plain text of a LaTeX field value: accents and macros decoded, braces and math delimiters
    dropped, white space collapsed. Never raises on malformed input (pylatexenc is tolerant)."""
    if not any(ch in text for ch in "\\{}$~%&"):
        return " ".join(text.split())
    return " ".join(str(_CONVERTER.latex_to_text(text)).split())
