"""A Markdown document's YAML front matter as written, before pandoc reads it: where it ends,
and on which line each citecheck option is set (so a bad value is said at its line)."""

from __future__ import annotations

import re
from typing import Any

import yaml

# The YAML block pandoc reads first: `---` on the first line, closed by `---` or `...`; after
# a byte-order mark and with Windows line ends too (RStudio on Windows writes both; an editor
# sends its text as it is).
FRONT_MATTER = re.compile(
    r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.DOTALL
)

_MAP_START = re.compile(r"citecheck:[ \t]*(?:#.*)?$")
_INLINE_MAP = re.compile(r"citecheck:[ \t]*\{(?P<body>.*)\}[ \t]*(?:#.*)?$")
_FLAT_KEY = re.compile(r"citecheck[.-](?P<name>[\w-]+)[ \t]*:")
_KEY = re.compile(r"(?P<indent>[ \t]+)(?P<name>[\w-]+)[ \t]*:")


def option_lines(text: str) -> dict[str, int]:
    """The line (1-based) of each citecheck option the front matter sets, by the name it is
    written with: the keys of a `citecheck:` map (block or `{…}` inline), and top-level
    `citecheck.name:` / `citecheck-name:` keys. Options set elsewhere (`-M`, a metadata file,
    `_quarto.yml`) have no line here."""
    match = FRONT_MATTER.match(text)
    if match is None:
        return {}
    lines: dict[str, int] = {}
    in_map, indent = False, ""
    for number, line in enumerate(match.group(1).replace("\r", "").split("\n"), start=2):
        if in_map:
            key = _KEY.match(line)
            if key is not None:
                # The map's own keys share the first key's indentation; deeper ones are values.
                indent = indent or key.group("indent")
                if key.group("indent") == indent:
                    lines.setdefault(key.group("name"), number)
                continue
            if line.strip() and not line.startswith((" ", "\t", "#")):
                in_map = False
        inline = _INLINE_MAP.match(line)
        if inline is not None:
            for name in re.findall(r"([\w-]+)[ \t]*:", inline.group("body")):
                lines.setdefault(name, number)
        elif _MAP_START.match(line):
            in_map, indent = True, ""
        elif (flat := _FLAT_KEY.match(line)) is not None:
            lines.setdefault(flat.group("name"), number)
    return lines


# A top-level field of the front matter and its value: the rest of its line and the lines
# indented under it (a block scalar or a list).
_FIELD = re.compile(r"^(?P<name>[\w-]+)[ \t]*:[^\n]*(?:\n(?:[ \t]+[^\n]*|[ \t]*(?=\n)))*", re.M)


def field_spans(text: str, names: frozenset[str]) -> list[tuple[int, int]]:
    """Where the front matter's top-level fields of `names` stand in `text` (start, end), value
    included: the `nocite:` list names entries, it cites nothing."""
    matter = FRONT_MATTER.match(text)
    if matter is None:
        return []
    offset = matter.start(1)
    return [
        (offset + m.start(), offset + m.end())
        for m in _FIELD.finditer(matter.group(1))
        if m.group("name") in names
    ]


def front_matter_values(text: str) -> dict[str, Any]:
    """The front matter as YAML reads it, as R Markdown and Quarto read their options (`output:`,
    `format:` — pandoc's reading would turn `--bibliography` into an en dash); {} when there is
    none or it is not YAML yet (a half-typed line in an editor)."""
    match = FRONT_MATTER.match(text)
    if match is None:
        return {}
    try:
        data = yaml.safe_load(match.group(1))
    except (yaml.YAMLError, ValueError):
        return {}
    return {str(k): v for k, v in data.items()} if isinstance(data, dict) else {}
