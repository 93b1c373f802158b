"""Map citations from pandoc's AST back to lines of the Markdown source.

Pandoc's Markdown reader keeps no source positions, so each key's citations are matched, in
order of appearance, to that key's `@key` occurrences in the source text. Code, HTML comments and
escaped `\\@` are masked first (pandoc reads no citations there), and the YAML front matter and
footnote definitions (`[^1]: …`, which pandoc moves to where the note is referenced) are matched
separately, so that their order does not disturb the body's.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from citecore.model import SourceLocation
from citecore.pandoc.front_matter import FRONT_MATTER


class Region(Enum):
    """Where in a Markdown source an occurrence sits; citations are matched within a region."""

    METADATA = "metadata"
    NOTE_DEFINITION = "note_definition"
    BODY = "body"


_MASKED = re.compile(
    r"^(?P<fence>[ \t]*(?:`{3,}|~{3,})).*?^(?P=fence)[ \t]*$"  # fenced code blocks
    r"|<!--.*?-->"  # HTML comments
    # inline code and display math, as pandoc reads them: within one paragraph (a LaTeX-style
    # opening quote ``like this'' opens no code span that a later paragraph closes), closed by
    # a run of exactly as many backticks
    r"|(?P<ticks>`+)(?:(?!\n[ \t]*\n).)+?(?<!`)(?P=ticks)(?!`)"
    r"|\$\$(?:(?!\n[ \t]*\n).)+?\$\$"
    # inline math as pandoc's tex_math_dollars reads it: no space inside either dollar, and no
    # digit right after the closing one ("$5 and $10" is money)
    r"|(?<![\\$])\$(?=[^\s$])(?:[^$\\\n]|\\.)+?(?<=\S)\$(?!\d)",
    re.DOTALL | re.MULTILINE,
)
_NOTE_START = re.compile(r"^\[\^[^\]\s]+\]:", re.MULTILINE)
_NOTE_REFERENCE = re.compile(r"\[\^([^\]\s]+)\]")
# Pandoc's citation key grammar: a word character, then word characters or internal punctuation
# (punctuation only when a word character follows, and `:` or `/` before a `/`, as in
# `@url:https://example.org/b`); or any key in braces, `@{…}`.
_CITATION_KEY = re.compile(
    r"(?<![\w\\@])-?@(?:\{(?P<braced>[^{}\s]+)\}"
    r"|(?P<bare>\w(?:\w|[:.#$%&\-+?<>~/](?=\w)|[:/](?=/))*))"
)


def _mask(text: str) -> str:
    """Blank out code and comments, keeping every offset and newline in place."""
    return _MASKED.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def citation_keys(text: str) -> list[tuple[str, int, int]]:
    """(key, start, end) of every `@key` in a Markdown text outside code, math, comments and
    the footnote definitions pandoc drops (never referenced, or overridden by a later one of
    the same label): what an editor marks while the text is typed, before pandoc reads it."""
    masked = _mask(text)
    definitions = _note_definition_spans(masked)
    last = {label: (start, end) for start, end, label in definitions}
    starts = {start for start, _, _ in definitions}
    referenced = {m.group(1) for m in _NOTE_REFERENCE.finditer(masked) if m.start() not in starts}
    dead = [
        (start, end)
        for start, end, label in definitions
        if label not in referenced or last[label] != (start, end)
    ]
    return [
        (m.group("braced") or m.group("bare"), m.start(), m.end())
        for m in _CITATION_KEY.finditer(masked)
        if not any(start <= m.start() < end for start, end in dead)
    ]


def _note_definition_spans(text: str) -> list[tuple[int, int, str]]:
    """Spans of footnote definitions, with their labels: the `[^id]:` line and its indented
    continuation."""
    spans = []
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    index = 0
    while index < len(lines):
        if not _NOTE_START.match(lines[index]):
            index += 1
            continue
        start = index
        index += 1
        while index < len(lines):
            line = lines[index]
            if line.strip() and not line.startswith(("    ", "\t")):
                break
            index += 1
        label = lines[start][2 : lines[start].index("]")]
        spans.append((offsets[start], offsets[index], label))
    return spans


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One Markdown input as pandoc read it: its name and its text."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class SourceIndex:
    """The `@key` occurrences of Markdown sources, by key and region, in reading order."""

    occurrences: dict[tuple[str, Region], tuple[SourceLocation, ...]]

    @classmethod
    def build(cls, sources: Sequence[SourceFile]) -> SourceIndex:
        """Index every citation key occurrence, file after file (pandoc reads several inputs as
        one document, in the order given)."""
        found: dict[tuple[str, Region], list[SourceLocation]] = defaultdict(list)
        for source in sources:
            for (key, region), lines in _occurrences(source.text).items():
                found[(key, region)].extend(SourceLocation(source.name, line) for line in lines)
        return cls({k: tuple(v) for k, v in found.items()})


def _occurrences(text: str) -> dict[tuple[str, Region], list[int]]:
    """Lines of every citation key occurrence in one text, by key and region, in the order
    pandoc reads them. A footnote definition is read where its note is referenced, once per
    reference: a label defined twice gives the last definition (pandoc warns), a definition
    never referenced gives nothing."""
    masked = _mask(text)
    front = FRONT_MATTER.match(masked)
    front_end = front.end() if front else 0
    definitions = _note_definition_spans(masked)
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", masked)]
    found: dict[tuple[str, Region], list[int]] = defaultdict(list)

    def keys_in(start: int, end: int) -> list[tuple[str, int]]:
        """(key, offset) of each citation key in masked[start:end]."""
        return [
            (m.group("braced") or m.group("bare"), m.start())
            for m in _CITATION_KEY.finditer(masked, start, end)
        ]

    outside_notes = 0
    for start, end, _ in [*definitions, (len(masked), len(masked), "")]:
        for key, offset in keys_in(outside_notes, start):
            region = Region.METADATA if offset < front_end else Region.BODY
            found[(key, region)].append(bisect_right(line_starts, offset))
        outside_notes = end
    # The last definition of each label, read at each reference to it.
    notes = {label: keys_in(start, end) for start, end, label in definitions}
    starts = {start for start, _, _ in definitions}
    for reference in _NOTE_REFERENCE.finditer(masked):
        if reference.start() not in starts:  # not a definition's own `[^id]:`
            for key, offset in notes.get(reference.group(1), []):
                found[(key, Region.NOTE_DEFINITION)].append(bisect_right(line_starts, offset))
    return found


class LineMatcher:
    """Hands out each key's source lines in order, one per citation, within the right region."""

    def __init__(self, index: SourceIndex) -> None:
        self._queues = {k: deque(v) for k, v in index.occurrences.items()}

    def take(self, key: str, preferred: Region) -> SourceLocation | None:
        """The place of the next unused occurrence of `key`, from `preferred` region first
        (a footnote definition's occurrences are indexed once per reference to the note)."""
        order = [preferred] + [r for r in (Region.BODY, Region.NOTE_DEFINITION) if r != preferred]
        for region in order:
            queue = self._queues.get((key, region))
            if queue:
                return queue.popleft()
        return None
