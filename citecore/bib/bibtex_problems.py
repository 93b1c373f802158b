"""What is wrong with a BibTeX entry, said in the writer's words: a field BibTeX would reject
although bibtexparser read it, and why a block could not be read at all (at its line)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bibtexparser import model as bibmodel


def split_concatenation(value: str) -> list[str]:
    """Split a raw field value on `#` outside braces and quotes."""
    if "#" not in value:  # the common value: one part
        return [value.strip()]
    parts: list[str] = []
    current: list[str] = []
    depth, quoted = 0, False
    for char in value:
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == '"' and depth == 0:
            quoted = not quoted
        if char == "#" and depth == 0 and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return [p.strip() for p in parts]


_VALUE_PART = re.compile(r'^(?:\{.*\}|".*"|\d+|[A-Za-z_][\w:.+/\-]*)$', re.DOTALL)


_BRACE = re.compile(r"[{}]")


def _balanced(text: str) -> bool:
    depth = 0
    for brace in _BRACE.finditer(text):
        depth += 1 if brace.group() == "{" else -1
        if depth < 0:
            return False
    return depth == 0


# What follows a value that ends too early: the next field, its comma forgotten.
_NEXT_FIELD = re.compile(r"\s*([A-Za-z][\w:.+/-]*)\s*=")


def _missing_comma(part: str) -> str | None:
    """The name of the field that follows a braced value without the comma between them
    (`title = {A}` newline `volume = {19}`), or None."""
    if not part.startswith("{"):
        return None
    depth = 0
    for brace in _BRACE.finditer(part):
        depth += 1 if brace.group() == "{" else -1
        if depth == 0:
            following = _NEXT_FIELD.match(part, brace.end())
            return following.group(1) if following else None
    return None


def malformed_field(entry: bibmodel.Entry) -> str | None:
    """Why an entry that bibtexparser accepted would still stop BibTeX, or None.

    bibtexparser is lenient: it reads `author = Smith and Jones` (no delimiters), `year = ,`
    (no value) or unbalanced braces inside a value; BibTeX rejects all three, and so do we."""
    for item in entry.fields:
        raw = str(item.value).strip()
        if not item.key.strip():
            return f"a field without a name (value {raw[:40]!r})"
        if not raw:
            return f"field '{item.key}' has no value"
        for part in split_concatenation(raw):
            following = _missing_comma(part)
            if following is not None:
                return (
                    f"no comma between field '{item.key}' and field '{following}': BibTeX "
                    f"drops '{following}' and the fields after it, biber the whole file"
                )
            if not _VALUE_PART.match(part):
                return (
                    f"field '{item.key}': {part[:40]!r} is not braced, quoted, a number "
                    "or a @string name"
                )
            inner = part[1:-1] if part[0] in '{"' else part
            if not _balanced(inner):
                return f"field '{item.key}' has unbalanced braces"
    return None


def failure_reason(block: bibmodel.ParsingFailedBlock) -> str:
    """What is wrong with an entry BibTeX rejects, in the writer's words and at its line when
    the parser's complaint points to one (bibtexparser says "Expected a `=` after entry key";
    the writer needs "line 3: field 'author' has no `=`")."""
    error = block.error
    reason = " ".join(
        str(getattr(error, "abort_reason", "") or str(error) or type(error).__name__).split()
    )
    raw = block.raw or ""
    first = (block.start_line or 0) + 1
    if reason.startswith("Expected a `=` after entry key"):
        # The parser stops at the field it choked on: the last line of what it kept.
        lines = raw.splitlines()
        offset = len(lines) - 1
        named = re.match(r"\s*([A-Za-z][\w-]*)\s*$", lines[-1]) if lines else None
        if offset > 0 and named:
            return (
                f"line {first + offset}: field '{named.group(1)}' has no `=` before its "
                "value; BibTeX and biber reject the entry"
            )
        return "a field has no `=` before its value; BibTeX and biber reject the entry"
    if reason.startswith("Expected comma after entry key"):
        return f"line {first}: no comma after the key; BibTeX and biber reject the entry"
    if reason.startswith("Unexpected block start") or reason.startswith("Unexpectedly reached"):
        where = _unclosed_line(raw)
        place = f"line {first + where}: " if where is not None else ""
        after = (
            "the next entry starts" if reason.startswith("Unexpected block") else "the file ends"
        )
        return (
            f'{place}a value opened with `{{` or `"` is not closed before {after}; BibTeX '
            "reads what follows into it"
        )
    return reason


def _unclosed_line(raw: str) -> int | None:
    """The line (0-based, in the entry) where a value is opened and never closed: the first
    line that ends inside a value when the line after it starts a new field."""
    depth, quoted = 0, False
    lines = raw.splitlines()
    for offset, line in enumerate(lines):
        for char in line:
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            elif char == '"' and depth == 1:
                quoted = not quoted
        following = lines[offset + 1] if offset + 1 < len(lines) else ""
        inside = depth > 1 or quoted
        if inside and (re.match(r"\s*[A-Za-z][\w-]*\s*=", following) or not following):
            return offset
    return None


def key_in_raw(raw: str) -> str | None:
    match = re.match(r"\s*@\s*\w+\s*[{(]\s*([^,\s]+)\s*,", raw)
    return match.group(1) if match else None
