"""A project's own macros: the bodies of definitions blanked (what they say is not cited where
they are defined), and user macros that wrap a citation (`\\newcommand{\\mycite}[1]{\\citep{#1}}`)
or a bibliography learnt, so that their uses are read as what they make."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from citecore.extract.latex_cites import CiteCommand, find_cite_commands, optionals
from citecore.extract.latex_commands import BIBLIOGRAPHY_COMMAND, command_spec
from citecore.extract.latex_syntax import balanced_group, blank

# Definitions, by what follows the command: (braced groups before the body, bodies).
_DEFINITIONS = {
    "newcommand": (0, 1),
    "renewcommand": (0, 1),
    "providecommand": (0, 1),
    "DeclareRobustCommand": (0, 1),
    "NewDocumentCommand": (1, 1),
    "RenewDocumentCommand": (1, 1),
    "ProvideDocumentCommand": (1, 1),
    "DeclareDocumentCommand": (1, 1),
    "newenvironment": (0, 2),
    "renewenvironment": (0, 2),
}
_DEFINITION = re.compile(
    r"\\(?:[gex]?def\s*\\(?P<primitive>[A-Za-z@]+)[^{]*"
    r"|(?P<command>" + "|".join(_DEFINITIONS) + r")\*?)"
)
_DEFINED_NAME = re.compile(r"\s*(?:\{\s*\\(?P<braced>[A-Za-z@]+)\s*\}|\\(?P<bare>[A-Za-z@]+))")
# A user macro that shows its argument as text instead of typesetting it.
_SHOWS_SOURCE = re.compile(r"\\(?:detokenize|string|meaning|unexpanded)(?![A-Za-z])")


def _definition_bodies(text: str, match: re.Match[str]) -> tuple[str, list[tuple[int, int]]]:
    """The name a definition defines ("" for an environment) and the spans of its bodies."""
    if match.group("primitive"):
        body = balanced_group(text, match.end(), "{", "}")
        return match.group("primitive"), [(match.end(), body[1])] if body else []
    groups_before, bodies = _DEFINITIONS[match.group("command")]
    position, name = match.end(), ""
    named = _DEFINED_NAME.match(text, position)
    if bodies == 1 and named:
        name, position = named.group("braced") or named.group("bare"), named.end()
    else:  # an environment's name, in braces
        environment = balanced_group(text, position, "{", "}")
        if environment is None:
            return "", []
        position = environment[1]
    for _ in range(groups_before):
        group = balanced_group(text, position, "{", "}")
        if group is None:
            return name, []
        position = group[1]
    _, position = optionals(text, position, 2)
    spans = []
    for _ in range(bodies):
        body = balanced_group(text, position, "{", "}")
        if body is None:
            break
        spans.append((position, body[1]))
        position = body[1]
    return name, spans


def _drops_its_argument(text: str, match: re.Match[str], body: tuple[int, int]) -> bool:
    """True for a macro of one mandatory argument whose body never uses it
    (`\\newcommand{\\ignore}[1]{}`, a common way to put text aside): LaTeX reads the argument
    and throws it away."""
    named = _DEFINED_NAME.match(text, match.end())
    name_end = named.end() if named and not match.group("primitive") else match.end()
    count, default = _parameter_count(text, match, name_end)
    return count == 1 and default is None and "#1" not in text[body[0] : body[1]]


def mask_definitions(text: str, shows_source: set[str] | None = None) -> str:
    """Blank the bodies of macro and environment definitions (a citation in a definition cites
    nothing until the macro is used, and its key is a parameter such as `#1`), and the
    arguments of user macros that print their argument as source (`\\code{\\cite{a1}}` with
    `\\detokenize`) or drop it (`\\ignore{…}`): LaTeX cites none of these. `shows_source`
    carries the names of such macros from file to file (a project defines them in its preamble
    and uses them in its chapters); the ones defined here are added to it.
    Positions and line numbers are kept."""
    shows_source = set() if shows_source is None else shows_source
    for match in list(_DEFINITION.finditer(text)):
        name, spans = _definition_bodies(text, match)
        if name and spans and _drops_its_argument(text, match, spans[0]):
            shows_source.add(name)
        for start, end in spans:
            if name and _SHOWS_SOURCE.search(text, start, end):
                shows_source.add(name)
            text = blank(text, start, end)
    for name in shows_source:
        for use in list(re.finditer(rf"\\{re.escape(name)}(?![A-Za-z@])", text)):
            argument = balanced_group(text, use.end(), "{", "}")
            if argument is not None:
                text = blank(text, use.end(), argument[1])
    return text


@dataclass(frozen=True, slots=True)
class CiteWrapper:
    """A user macro whose body cites: `\\newcommand{\\mycite}[2][]{\\citep[#1]{#2}}`. Each use
    cites what the body's citation names, its parameters replaced by the use's arguments."""

    command: str  # the citation command in the body
    arguments: int
    optional_default: str | None  # the first argument's default, when it is optional
    keys: tuple[str, ...]  # the body's keys: "#2" for a parameter, else a literal key


def _parameter_count(text: str, match: re.Match[str], name_end: int) -> tuple[int, str | None]:
    """How many arguments a definition takes, and the default of an optional first one."""
    if match.group("primitive"):
        return len(re.findall(r"#\d", match.group(0))), None
    declared, _ = optionals(text, name_end, 2)
    count = int(declared[0]) if declared and declared[0].strip().isdigit() else 0
    return count, (declared[1] if len(declared) == 2 else None)


def cite_wrappers(text: str) -> dict[str, CiteWrapper]:
    """The user macros defined in (comment-masked) `text` whose bodies cite, by name. A macro
    that redefines a citation command itself is left out: its uses are read as that command."""
    wrappers: dict[str, CiteWrapper] = {}
    for match in _DEFINITION.finditer(text):
        name, spans = _definition_bodies(text, match)
        if not name or not spans or command_spec(name) is not None:
            continue
        start, end = spans[0]
        body = next(find_cite_commands(text[start:end]), None)
        if body is None:
            continue
        named = _DEFINED_NAME.match(text, match.end())
        name_end = named.end() if named and not match.group("primitive") else match.end()
        count, default = _parameter_count(text, match, name_end)
        keys = tuple(key for key, _, _ in body.keys)
        if all(re.fullmatch(r"#[1-9]", key) is None or int(key[1]) <= count for key in keys):
            wrappers[name] = CiteWrapper(body.name, count, default, keys)
    return wrappers


# What comes right before a macro's name where it is being defined, not used.
_DEFINING = re.compile(r"\\(?:[gex]?def|" + "|".join(_DEFINITIONS) + r")\*?\s*\{?\s*$")


def _use_arguments(
    text: str, position: int, count: int, optional_default: str | None
) -> tuple[list[str], int]:
    """The arguments a use of a user macro of `count` parameters takes from `position` (the
    first one optional, with its default, when the definition gives one), and where they end."""
    arguments: list[str] = []
    if optional_default is not None:
        optional = balanced_group(text, position, "[", "]")
        arguments.append(optional[0] if optional else optional_default)
        position = optional[1] if optional else position
    while len(arguments) < count:
        group = balanced_group(text, position, "{", "}")
        if group is None:
            break
        arguments.append(group[0])
        position = group[1]
    return arguments, position


def bibliography_wrappers(text: str) -> dict[str, CiteWrapper]:
    """The user macros defined in (comment-masked) `text` whose bodies name the bibliography
    (`\\newcommand{\\seBibliography}[2][]{\\bibliography{#2}…}`), by name; a wrapper's `keys`
    hold the body's bibliography names ("#2" for a parameter)."""
    wrappers: dict[str, CiteWrapper] = {}
    for match in _DEFINITION.finditer(text):
        name, spans = _definition_bodies(text, match)
        if not name or not spans:
            continue
        named = BIBLIOGRAPHY_COMMAND.search(text, *spans[0])
        if named is None:
            continue
        declared = _DEFINED_NAME.match(text, match.end())
        name_end = declared.end() if declared and not match.group("primitive") else match.end()
        count, default = _parameter_count(text, match, name_end)
        wrappers[name] = CiteWrapper("bibliography", count, default, (named.group(1).strip(),))
    return wrappers


def _wrapper_calls(
    text: str, wrappers: dict[str, CiteWrapper]
) -> Iterator[tuple[CiteWrapper, int, int, list[str]]]:
    """Each use of a wrapper in (masked) `text` (not where it is being defined): the wrapper,
    where the use starts and ends, and its body's names (`keys`) with each parameter replaced
    by the use's argument."""
    for name, wrapper in wrappers.items():
        for use in re.finditer(rf"\\{re.escape(name)}(?![A-Za-z@])", text):
            if _DEFINING.search(text, max(0, use.start() - 40), use.start()):
                continue
            arguments, end = _use_arguments(
                text, use.end(), wrapper.arguments, wrapper.optional_default
            )
            named = []
            for key in wrapper.keys:
                parameter = re.fullmatch(r"#([1-9])", key)
                if parameter is None:
                    named.append(key)
                elif int(parameter.group(1)) <= len(arguments):
                    named.append(arguments[int(parameter.group(1)) - 1])
            yield wrapper, use.start(), end, named


def bibliography_wrapper_names(text: str, wrappers: dict[str, CiteWrapper]) -> Iterator[str]:
    """The bibliography names each use of a bibliography-naming user macro in (masked) `text`
    gives, its parameters replaced by the use's arguments."""
    for _, _, _, named in _wrapper_calls(text, wrappers):
        yield from named


def wrapper_uses(text: str, wrappers: dict[str, CiteWrapper]) -> Iterator[CiteCommand]:
    """Each use of a citing user macro in (masked) `text`, as the citation it makes."""
    for wrapper, start, end, named in _wrapper_calls(text, wrappers):
        keys = [k.strip() for listed in named for k in listed.split(",") if k.strip()]
        if keys:
            yield CiteCommand(wrapper.command, start, end, tuple((k, "", "") for k in keys))
