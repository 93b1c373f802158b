"""The syntax every LaTeX reader here shares: what LaTeX does not read (comments, verbatim,
TeX's skipped conditional branches) blanked in place, and balanced groups read as TeX reads an
argument."""

from __future__ import annotations

import re

from citecore.extract.latex_conditionals import mask_conditionals


def blank(text: str, start: int, end: int) -> str:
    """`text` with [start, end) replaced by spaces, newlines kept (so positions stay)."""
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


# What LaTeX does not read, found left to right in one pass: whichever starts first wins, so a
# `%` inside verbatim is not a comment and a `\\begin{comment}` after a `%` is not an
# environment. Control symbols (`\\%`, `\\\\`) and the addresses of `\\url` and `\\href`
# (hyperref reads them verbatim) are consumed so that their `%` is not taken for a comment.
_IGNORED = re.compile(
    r"(?P<skip>\\(?:url|path|href)\s*\{[^{}\n]*\}|\\[^A-Za-z])"
    r"|(?P<comment>%[^\n]*)"
    r"|(?P<environment>\\begin\s*\{(?P<name>comment|verbatim\*?|Verbatim\*?|lstlisting|minted)\}"
    r".*?\\end\s*\{(?P=name)\})"
    r"|(?P<verb>\\verb\*?(?P<delimiter>[^A-Za-z\s*])[^\n]*?(?P=delimiter))",
    re.DOTALL,
)


# `\endinput` alone on a line at its start: the file ends with that line (a package's
# documentation often follows, `\cite{you,me}` in ulem.sty's). One that is indented or shares
# its line stands in a conditional (a guard against loading twice) and may not be reached.
_END_INPUT = re.compile(r"^\\endinput[ \t]*$", re.M)


def mask_unread(text: str) -> str:
    """Blank out what LaTeX never reads, whatever the state of its conditionals: comments,
    `comment` and verbatim environments, `\\verb`, and what follows a file's own
    `\\endinput` line. Positions and line numbers are kept; linear in the length of the text,
    whatever it holds."""
    pieces, cursor = [], 0
    for match in _IGNORED.finditer(text):
        if match.group("skip") is not None:
            continue
        pieces.append(text[cursor : match.start()])
        pieces.append(re.sub(r"[^\n]", " ", match.group()))
        cursor = match.end()
    pieces.append(text[cursor:])
    masked = "".join(pieces)
    end = _END_INPUT.search(masked)
    if end is None:
        return masked
    return masked[: end.end()] + re.sub(r"[^\n]", " ", masked[end.end() :])


def mask_ignored(text: str) -> str:
    """Blank out what LaTeX does not read in `text` read on its own: what it never reads
    (`mask_unread`), then the branches of conditionals TeX skips (`\\iffalse … \\fi`, nested
    ones counted, `\\newif` switches followed: `latex_conditionals`). Positions and line
    numbers are kept."""
    return mask_conditionals(mask_unread(text))


def balanced_group(text: str, start: int, opening: str, closing: str) -> tuple[str, int] | None:
    """The balanced group opening at `start` (after white space): its content and end index.
    Escaped characters are skipped; braces inside `[...]` or `(...)` are kept whole."""
    index = start
    while index < len(text) and text[index] in " \t\n":
        index += 1
    if index >= len(text) or text[index] != opening:
        return None
    depth, position = 0, index
    while position < len(text):
        char = text[position]
        if char == "\\":
            position += 2
            continue
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return text[index + 1 : position], position + 1
        elif char == "{" and opening != "{":
            inner = balanced_group(text, position, "{", "}")
            if inner is None:
                return None
            position = inner[1]
            continue
        position += 1
    return None
