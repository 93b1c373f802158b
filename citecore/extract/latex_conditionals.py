"""TeX's conditionals, read as TeX reads them: the branch TeX skips is blanked.

`\\iffalse … \\fi` skips to the *matching* `\\fi`: TeX counts every conditional it passes while
skipping (`\\if…` primitives and the conditionals `\\newif` makes), so that

    \\iffalse A \\iffalse B \\fi C \\fi D

reads only D. `\\iftrue` skips its `\\else` branch. A conditional made by `\\newif\\ifdraft` is
false until `\\drafttrue` is read, and follows `\\drafttrue`/`\\draftfalse` in reading order. A
conditional whose value depends on what TeX computes (`\\ifx`, `\\ifdefined`, `\\ifnum`, …) is
read on both branches, as before: either may be the one TeX reads. A macro whose name starts with
"if" but is no conditional (`\\ifthenelse{…}{…}{…}`, babel's `\\iflanguage`) is not counted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# TeX's and e-TeX/pdfTeX's conditional primitives, and the switches the engine-test packages
# define with \newif or \let (iftex, ifpdf, ifxetex, ifluatex): each is matched by a \fi.
_PRIMITIVES = frozenset(
    """if ifcat ifnum ifdim ifodd ifvmode ifhmode ifmmode ifinner ifvoid ifhbox ifvbox ifx
    ifeof iftrue iffalse ifcase ifdefined ifcsname iffontchar ifincsname ifpdfprimitive
    ifpdfabsnum ifpdfabsdim ifabsnum ifabsdim ifprimitive ifpdf ifxetex ifluatex ifpdftex
    iftutex ifvtex ifptex ifuptex ifetex""".split()
)
_CONTROL = re.compile(r"\\(newif\s*\\(?P<declared>if[A-Za-z@]+)|(?P<word>[A-Za-z@]+))")


@dataclass
class _Frame:
    """One open conditional: its value (None when TeX computes it), whether its current branch
    is skipped, and whether it was met inside skipped text (then it only counts, so that the
    right \\fi ends the skipping)."""

    value: bool | None
    skipped: bool = False
    counted: bool = False


def _skipping(frames: list[_Frame]) -> bool:
    return any(frame.skipped for frame in frames if not frame.counted)


class Conditionals:
    """TeX's conditional state as it reads a project: the `\\newif` switches, which every file
    read later sees as the earlier ones left them, and the conditionals open in the file being
    read. A file is read in pieces (up to each `\\input`, say), each masked as TeX reads it."""

    def __init__(self, flags: dict[str, bool] | None = None) -> None:
        """A reader starting with no conditional open and the switches `flags` (shared, not
        copied: the switches a file sets stay set for the files read after it)."""
        self.flags = {} if flags is None else flags  # by name: "draft" of \ifdraft
        self._frames: list[_Frame] = []

    @property
    def skipping(self) -> bool:
        """Whether TeX is skipping text where the last piece read ended."""
        return _skipping(self._frames)

    def mask(self, piece: str) -> str:
        """`piece`, the text that follows the pieces read before, with what TeX skips blanked
        (newlines kept, so positions stay). Comments and verbatim must be blanked already: a
        `\\fi` in a comment is no `\\fi`."""
        skip_from = 0
        spans: list[tuple[int, int]] = []
        for match in _CONTROL.finditer(piece):
            was = self.skipping
            word = match.group("word")
            if not self._follow(match.group("declared"), word, was):
                continue
            now = self.skipping
            if now and not was:
                skip_from = match.start()
            elif was and not now:
                # The \\fi that ends a skip is kept, so that the conditional it closes stays
                # closed when the masked text is read again.
                spans.append((skip_from, match.start() if word == "fi" else match.end()))
        if self.skipping:  # still skipping where the piece ends: blank to its end
            spans.append((skip_from, len(piece)))
        return _blanked(piece, spans)

    def _follow(self, declared: str | None, word: str, was: bool) -> bool:
        """One control word as TeX meets it (`was`: whether it was skipping): a `\\newif`
        declared, a switch set, or a conditional opened, turned by `\\else` or closed; True
        for the last three, which may start or end a skip."""
        flags, frames = self.flags, self._frames
        if declared is not None:
            if not was:
                flags[declared[2:]] = False
            return False
        if word.startswith("if") and (word in _PRIMITIVES or word[2:] in flags):
            if was:
                frames.append(_Frame(None, counted=True))
            else:
                value = _value(word, flags)
                frames.append(_Frame(value, skipped=value is False))
            return True
        if word == "else" and frames and not frames[-1].counted:
            if frames[-1].value is not None:
                frames[-1].skipped = not frames[-1].skipped
            return True
        if word == "fi" and frames:
            frames.pop()
            return True
        if not was and word.endswith(("true", "false")):
            name = word.removesuffix("true").removesuffix("false")
            if name in flags:
                flags[name] = word.endswith("true")
        return False


def mask_conditionals(text: str) -> str:
    """`text`, read on its own, with the branches TeX skips blanked (newlines kept, so positions
    stay); a skipped branch never closed runs to the end, as TeX skips to the end. Comments and
    verbatim must be blanked already."""
    return Conditionals().mask(text)


def _value(word: str, flags: dict[str, bool]) -> bool | None:
    """What a conditional is when TeX meets it, where it can be known without running TeX."""
    if word == "iftrue":
        return True
    if word == "iffalse":
        return False
    if word[2:] in flags and word not in _PRIMITIVES:
        return flags[word[2:]]
    return None


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    pieces, cursor = [], 0
    for start, end in spans:
        pieces.append(text[cursor:start])
        pieces.append(re.sub(r"[^\n]", " ", text[start:end]))
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)
