"""The citation commands of LaTeX source read as written: natbib's and biblatex's, with their
optional notes, biblatex's multicite and volume forms included, by a small argument parser
(multicite commands take a variable number of arguments no fixed macro specification
describes)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from citecore.extract.latex_commands import command_spec
from citecore.extract.latex_syntax import balanced_group

_COMMAND = re.compile(r"\\([A-Za-z]+)(\*?)")


@dataclass(frozen=True, slots=True)
class CiteCommand:
    """One citation command as written: its name, keys with their notes, and its span."""

    name: str
    start: int
    end: int
    keys: tuple[tuple[str, str, str], ...]  # (key, prenote, postnote)


def _notes(optional: list[str]) -> tuple[str, str]:
    if len(optional) >= 2:
        return optional[0].strip(), optional[1].strip()
    if len(optional) == 1:
        return "", optional[0].strip()
    return "", ""


def optionals(text: str, position: int, limit: int) -> tuple[list[str], int]:
    found: list[str] = []
    while len(found) < limit:
        group = balanced_group(text, position, "[", "]")
        if group is None:
            break
        found.append(group[0])
        position = group[1]
    return found, position


def _volume_groups(text: str, position: int, multi: bool) -> tuple[list[tuple[str, str, str]], int]:
    """The `[pre]{volume}[pages]{key}` groups of a `\\volcite`-family command from `position`:
    each key with its prenote and its locator ("volume, pages")."""
    keys: list[tuple[str, str, str]] = []
    while True:
        optional, after = optionals(text, position, 1)
        volume = balanced_group(text, after, "{", "}")
        if volume is None:
            break
        pages, after = optionals(text, volume[1], 1)
        key = balanced_group(text, after, "{", "}")
        if key is None:
            break
        locator = ", ".join(p.strip() for p in [volume[0], *pages] if p.strip())
        keys.append((key[0].strip(), optional[0].strip() if optional else "", locator))
        position = key[1]
        if not multi:
            break
    return [k for k in keys if k[0]], position


def find_cite_commands(text: str) -> Iterator[CiteCommand]:
    """Every natbib/biblatex citation command in (masked) LaTeX text, in order."""
    for match in _COMMAND.finditer(text):
        name, star = match.group(1), match.group(2)
        spec = command_spec(name)
        if spec is None:
            continue
        if name == "nocite" and star:
            # TeX takes the `*` itself as the argument: `\nocite*` is `\nocite{*}`.
            yield CiteCommand("nocite", match.start(), match.end(), (("*", "", ""),))
            continue
        position = match.end()
        if spec.multi:
            for _ in range(2):  # global (prenote)(postnote)
                group = balanced_group(text, position, "(", ")")
                if group is None:
                    break
                position = group[1]
        if spec.volume:
            keys, position = _volume_groups(text, position, spec.multi)
        else:
            keys, position = _key_groups(text, position, spec.multi)
        if keys:
            yield CiteCommand(name + star, match.start(), position, tuple(keys))


def _key_groups(text: str, position: int, multi: bool) -> tuple[list[tuple[str, str, str]], int]:
    """The `[pre][post]{keys}` groups from `position`: one, or for a multicite as many as
    follow each other."""
    keys: list[tuple[str, str, str]] = []
    while True:
        optional, after = optionals(text, position, 2)
        group = balanced_group(text, after, "{", "}")
        if group is None:
            break
        pre, post = _notes(optional)
        keys.extend((k.strip(), pre, post) for k in group[0].split(",") if k.strip())
        position = group[1]
        if not multi:
            break
    return keys, position
