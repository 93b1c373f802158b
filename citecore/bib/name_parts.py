"""One BibTeX name split into First, von, Last and Jr exactly as BibTeX splits it.

The rules are those of bibtex.web (`von_token_found`, the von/last boundary and the comma forms
"First von Last", "von Last, First", "von Last, Jr, First"), which tests/bib hold against BibTeX
itself. bibtexparser's splitter reads `{\\O}rsted` or `{\\AA}se` as lower-case words (so as a
"von" part) and "van Gogh" as a first name; this module exists for those cases.

Where BibTeX sees only ASCII, a raw Unicode letter ("Ørsted") takes its case from Unicode, as
biber does: the registries a name is compared with write names that way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Special characters whose control sequence alone gives the case (bibtex.web, "foreign").
_UPPER_FOREIGN = frozenset({"OE", "AE", "AA", "O", "L"})
_LOWER_FOREIGN = frozenset({"oe", "ae", "aa", "o", "l", "i", "j", "ss"})


@dataclass(frozen=True, slots=True)
class NameParts:
    """The four parts of a name, each as written (LaTeX not yet decoded), "" when absent."""

    first: str = ""
    von: str = ""
    last: str = ""
    jr: str = ""


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    start: int  # offsets in the comma part, so that a run of tokens is cut out as written
    end: int
    after_hyphen: bool  # joined to the token before by "-" (not by a space or "~")


def _split_at_level_zero(text: str, separators: str) -> list[tuple[int, int]]:
    """(start, end) of the pieces of `text` between separator characters outside braces."""
    pieces, level, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "{":
            level += 1
        elif char == "}":
            level = max(level - 1, 0)
        elif level == 0 and char in separators:
            pieces.append((start, index))
            start = index + 1
    pieces.append((start, len(text)))
    return pieces


def _tokens(part: str) -> list[_Token]:
    """The words of one comma part: separated by white space, "~" or "-" outside braces."""
    tokens = []
    for start, end in _split_at_level_zero(part, " \t\r\n~-"):
        if start < end and part[start:end].strip():
            hyphen = start > 0 and part[start - 1] == "-"
            tokens.append(_Token(part[start:end], start, end, hyphen))
    return tokens


def _special_is_lower(token: str, start: int) -> bool | None:
    """The case of a special character `{\\...}` opening at `start`: from a foreign letter's
    control sequence (`{\\O}`, `{\\ss}`), else from the first letter after it (`{\\'e}`)."""
    name = re.match(r"[A-Za-z]*", token[start + 2 :])
    command = name.group(0) if name else ""
    if command in _UPPER_FOREIGN:
        return False
    if command in _LOWER_FOREIGN:
        return True
    level = 1
    for char in token[start + 2 + len(command) :]:
        if char == "{":
            level += 1
        elif char == "}":
            level -= 1
            if level == 0:
                return None
        elif char.isalpha():
            return char.islower()
    return None


def _is_von(token: str) -> bool:
    """True when the first cased letter of the word, outside plain brace groups, is lower case
    (`van`, `{d}e`, `{\\'e}mile`); a word with no such letter is not a von word."""
    index = 0
    while index < len(token):
        char = token[index]
        if char == "{":
            if token[index + 1 : index + 2] == "\\":
                case = _special_is_lower(token, index)
                if case is not None:
                    return case
            level = 0  # a plain brace group is caseless: skip to its end
            while index < len(token):
                level += {"{": 1, "}": -1}.get(token[index], 0)
                if level == 0:
                    break
                index += 1
        elif char.isalpha():
            return char.islower()
        index += 1
    return False


def _cut(part: str, tokens: list[_Token]) -> str:
    """The text of a run of tokens as written, ties and runs of white space made one space."""
    if not tokens:
        return ""
    return " ".join(part[tokens[0].start : tokens[-1].end].replace("~", " ").split())


def _von_end(tokens: list[_Token], von_start: int, last_end: int) -> int:
    """Where von ends: after the last von word before the final word."""
    von_end = last_end - 1
    while von_end > von_start and not _is_von(tokens[von_end - 1].text):
        von_end -= 1
    return von_end


def split_name(name: str) -> NameParts:
    """The parts of one name, by BibTeX's rules; text beyond a third comma joins First."""
    parts = [name[s:e] for s, e in _split_at_level_zero(name.strip().rstrip(","), ",")]
    head, head_tokens = parts[0], _tokens(parts[0])
    if not head_tokens:
        return NameParts()
    if len(parts) == 1:  # First von Last
        count = len(head_tokens)
        von_start = next((i for i in range(count - 1) if _is_von(head_tokens[i].text)), None)
        if von_start is None:  # no von: Last is the final word and the words hyphened to it
            von_start = count - 1
            while von_start > 0 and head_tokens[von_start].after_hyphen:
                von_start -= 1
            von_end = von_start
        else:
            von_end = _von_end(head_tokens, von_start, count)
        return NameParts(
            first=_cut(head, head_tokens[:von_start]),
            von=_cut(head, head_tokens[von_start:von_end]),
            last=_cut(head, head_tokens[von_end:]),
        )
    von_end = _von_end(head_tokens, 0, len(head_tokens))
    rest = [" ".join(p.replace("~", " ").split()) for p in parts[1:]]
    return NameParts(
        first=", ".join(rest[1:]) if len(rest) >= 2 else rest[0],
        von=_cut(head, head_tokens[:von_end]),
        last=_cut(head, head_tokens[von_end:]),
        jr=rest[0] if len(rest) >= 2 else "",
    )
