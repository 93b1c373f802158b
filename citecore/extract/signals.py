"""Signals and locators: what a citation's prefix and suffix say about how it is used."""

from __future__ import annotations

import re

from citecore.model import Signal

# Longest phrases first, so "see also" wins over "see"; compared case-folded with spaces collapsed.
_SIGNAL_PHRASES: tuple[tuple[str, Signal], ...] = tuple(
    sorted(
        {
            "see, e.g.,": Signal.SEE_EG,
            "see, e.g.": Signal.SEE_EG,
            "see e.g.,": Signal.SEE_EG,
            "see e.g.": Signal.SEE_EG,
            "see also": Signal.SEE_ALSO,
            "see generally": Signal.SEE_GENERALLY,
            "see": Signal.SEE,
            "e.g.,": Signal.EG,
            "e.g.": Signal.EG,
            "for example": Signal.EG,
            "cf.": Signal.CF,
            "cf": Signal.CF,
            "compare": Signal.COMPARE,
            "but see": Signal.BUT_SEE,
            "but cf.": Signal.BUT_CF,
            "contra": Signal.CONTRA,
            "accord": Signal.ACCORD,
            "vgl.": Signal.CF,
            "siehe": Signal.SEE,
        }.items(),
        key=lambda item: -len(item[0]),
    )
)

_LOCATOR_LABELS = (
    r"pp?\.|pages?|chaps?\.|chapters?|ch\.|secs?\.|sections?|§§?|figs?\.|figures?|tabs?\.|tables?"
    r"|vols?\.|volumes?|paras?\.|paragraphs?|nn?\.|notes?|cols?\.|columns?|lines?|l{1,2}\."
    r"|books?|parts?|eqs?\.|equations?|[Ss]\.|[Kk]ap\.|[Aa]bs\.|[Rr]n\.|loc\.|ff?\."
)
_LOCATOR = re.compile(
    rf"^\s*,?\s*((?:{_LOCATOR_LABELS})\s*[\w.\-–—,: ]*?\w"
    r"|[0-9ivxlcdm]+(?:\s*[-–—]\s*[0-9ivxlcdm]+)?)"
    r"(?=\s*(?:[,;)]|$))",
    re.IGNORECASE,
)


def signal_of(prefix: str) -> Signal | None:
    """The signal a citation prefix opens with ("see also", "cf.", "but see" …), or None."""
    if not prefix:  # most citations have none
        return None
    folded = " ".join(prefix.casefold().split())
    for phrase, signal in _SIGNAL_PHRASES:
        if folded == phrase or (folded.startswith(phrase) and not folded[len(phrase)].isalnum()):
            return signal
    return None


def locator_of(suffix: str) -> str:
    """The locator at the start of a citation suffix ("p. 42", "chap. 3", "pp. 3–5"), or ""."""
    if not suffix:
        return ""
    match = _LOCATOR.match(suffix.replace("\u00a0", " "))
    return match.group(1).strip() if match else ""
