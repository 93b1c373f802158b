"""The citation commands of natbib, biblatex and the journal classes, and how each takes its keys.

One table, so that the reader, the language server and the wrapper learning agree on what a
citation is. Names are given as biblatex's manual and natbib's give them; a capitalised
variant (`\\Textcite`, `\\Citeauthor`) and a starred one (`\\citet*`) are the same command.
The classes' own commands were found by reading the classes TeX Live ships (revtex4-2.cls,
acmart.cls, mnras.cls, IEEEtran.cls; aastex, elsarticle, llncs, achemso use natbib's or
LaTeX's): each is held to a real build's `.aux` in tests/extract/test_class_citations.py."""

from __future__ import annotations

import re
from dataclasses import dataclass

from citecore.model import CitationMode


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """How one citation command cites: the mode of its citations, whether it takes a list of
    `[pre][post]{keys}` groups (biblatex's multicite commands), whether its citations are
    footnotes, and whether each group is `[pre]{volume}[pages]{key}` (the `\\volcite` family)."""

    mode: CitationMode
    multi: bool = False
    note: bool = False
    volume: bool = False


_NORMAL = CitationMode.NORMAL
_IN_TEXT = CitationMode.AUTHOR_IN_TEXT
_SUPPRESS = CitationMode.SUPPRESS_AUTHOR


def _table() -> dict[str, CommandSpec]:
    table: dict[str, CommandSpec] = {}
    for name in (
        "cite citep citealp parencite autocite smartcite supercite fullcite citenum citeurl "
        "citetitle citeonline nocite citename citelist citefield notecite pnotecite "
        # natbib's alias citation; REVTeX's "Refs.~\\onlinecite{a,b}"; mnras's and acmart's
        # \\shortcite
        "citepalias onlinecite shortcite"
    ).split():
        table[name] = CommandSpec(_NORMAL)
    for name in "footcite footcitetext footfullcite fnotecite".split():
        table[name] = CommandSpec(_NORMAL, note=True)
    for name in (
        "citet citealt textcite citeauthor citeauthorfull citetalias citefullauthor "
        # acmart's ACM-style names for natbib's commands, and harvard's \\citeasnoun
        "citeN citeA citeANP citeNP citeasnoun"
    ).split():
        table[name] = CommandSpec(_IN_TEXT)
    for name in "citeyear citeyearpar citedate citeNN citeyearNP".split():
        table[name] = CommandSpec(_SUPPRESS)
    for name in "cites parencites autocites smartcites supercites".split():
        table[name] = CommandSpec(_NORMAL, multi=True)
    for name in "footcites footcitetexts".split():
        table[name] = CommandSpec(_NORMAL, multi=True, note=True)
    table["textcites"] = CommandSpec(_IN_TEXT, multi=True)
    for stem, mode, note in (
        ("vol", _NORMAL, False),
        ("pvol", _NORMAL, False),
        ("svol", _NORMAL, False),
        ("avol", _NORMAL, False),
        ("fvol", _NORMAL, True),
        ("ftvol", _NORMAL, True),
        ("tvol", _IN_TEXT, False),
    ):
        table[f"{stem}cite"] = CommandSpec(mode, note=note, volume=True)
        table[f"{stem}cites"] = CommandSpec(mode, multi=True, note=note, volume=True)
    return table


_COMMANDS = _table()


def command_spec(name: str) -> CommandSpec | None:
    """How the command `name` (without its backslash or star) cites, or None when it is not a
    natbib or biblatex citation command."""
    if not name:
        return None
    return _COMMANDS.get(name[0].lower() + name[1:])


# The commands that name bibliography files: BibTeX's and biblatex's.
BIBLIOGRAPHY_COMMAND = re.compile(
    r"\\(?:bibliography|addbibresource|addglobalbib)\s*(?:\[[^\]]*\])?"
    r"\s*\{([^}]*)\}"
)
