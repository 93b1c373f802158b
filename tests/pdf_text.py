"""Text set on generated PDF pages as a typesetter sets it: words filled into a column's width."""

from __future__ import annotations

import pymupdf


def wrap(text: str, width: float, size: float, font: str = "helv") -> list[str]:
    """The text's words filled into lines no wider than `width` points in `font` at `size`."""
    lines, current = [], ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and pymupdf.get_text_length(candidate, font, size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    return [*lines, current]
