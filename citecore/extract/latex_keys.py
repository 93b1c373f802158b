"""Key lists LaTeX or BibTeX will reject, found where they are written.

LaTeX strips the spaces before a key but keeps those after it: `\\citep{alpha , beta}` looks up
`alpha␣`, prints it as undefined, and BibTeX stops at the `\\citation` line ("White space in
argument"), so natbib's whole list goes missing from the PDF. A key list whose brace is never
closed runs on until TeX gives up. Both are told at their line; citecheck still reads the keys
as the writer meant them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from citecore.extract.latex_commands import command_spec
from citecore.extract.latex_syntax import balanced_group

_COMMAND = re.compile(r"\\([A-Za-z]+)\*?")
# A comment ends the line without a space: `a%` then a newline is `a`.
_COMMENT = re.compile(r"(?<!\\)%[^\n]*\n[ \t]*")


@dataclass(frozen=True, slots=True)
class KeyProblem:
    """A citation key (or key list) at `line` that LaTeX or BibTeX will not take as written."""

    line: int
    key: str
    reason: str


def _spaced(piece: str) -> str | None:
    """Why one comma-separated piece of a key list is a key LaTeX keeps with a space, or None."""
    key = piece.lstrip()
    if not key.strip():
        return None
    if re.search(r"\s", key.strip()):
        return "holds a space"
    if key != key.rstrip():
        return "ends in a space LaTeX keeps (it strips only the spaces before a key)"
    return None


def key_list_problems(raw: str, masked: str) -> Iterator[KeyProblem]:
    """The problems of every citation key list in one file: `raw` is its text, `masked` the
    same with what LaTeX does not read blanked (the positions agree)."""
    for match in _COMMAND.finditer(masked):
        spec = command_spec(match.group(1))
        if spec is None or spec.volume:
            continue
        position = match.end()
        while (option := balanced_group(masked, position, "[", "]")) is not None:
            position = option[1]
        opening = len(masked) - len(masked[position:].lstrip())
        between = masked[position:opening]
        if opening >= len(masked) or masked[opening] != "{" or re.search(r"\n\s*\n", between):
            continue  # no argument here (TeX does not read past a blank line for one)
        line = masked.count("\n", 0, match.start()) + 1
        group = balanced_group(masked, opening, "{", "}")
        if group is None:
            yield KeyProblem(
                line,
                masked[opening + 1 : opening + 40].split("\n")[0].strip(),
                f"the key list of \\{match.group(1)} is never closed: LaTeX reads on past it "
                "and cites none of it",
            )
            continue
        written = _COMMENT.sub("", raw[opening + 1 : group[1] - 1])
        for piece in written.split(","):
            reason = _spaced(piece)
            if reason is not None:
                yield KeyProblem(
                    line,
                    piece.strip(),
                    f"the key {piece.lstrip()!r} {reason}: LaTeX prints it as undefined and "
                    "BibTeX rejects the whole citation ('White space in argument'), so with "
                    "natbib its other keys go missing too",
                )
