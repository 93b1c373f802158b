"""Citations from LaTeX sources: natbib and biblatex commands, across `\\input` and friends.

What LaTeX does not read (comments, verbatim, `\\iffalse`) is blanked in one linear pass, and
the bodies of macro definitions with it; user macros whose bodies cite (`\\newcommand{\\mycite}
[1]{\\citep{#1}}`) are learnt from every file of the project first and read as the citation they
make. The citation commands themselves are read by a small argument parser, because biblatex's
multicite commands (`\\cites(pre)(post)[pre][post]{a}[pre][post]{b}`) take a variable number
of arguments that no fixed macro specification describes; pylatexenc turns the paragraph around
a citation into readable text for the claim sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from pylatexenc import latexwalker, macrospec
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from citecore.errors import InputError
from citecore.extract.latex_bibitems import bibitems
from citecore.extract.latex_commands import command_spec
from citecore.extract.latex_keys import KeyProblem, key_list_problems
from citecore.extract.latex_syntax import balanced_group, blank, mask_ignored
from citecore.extract.sentences import sentence_spans
from citecore.extract.signals import locator_of, signal_of
from citecore.model import Citation, CitationContext, CitationMode, Reference, SourceLocation

_INCLUDES = re.compile(r"\\(input|include|subfile|import|subimport|includefrom|subincludefrom)\b")
_BIBLIOGRAPHY = re.compile(
    r"\\(?:bibliography|addbibresource|addglobalbib)\s*(?:\[[^\]]*\])?"
    r"\s*\{([^}]*)\}"
)
_LOCAL_PACKAGE = re.compile(
    r"\\(usepackage|RequirePackage|documentclass|LoadClass)\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}"
)
_INCLUDEONLY = re.compile(r"\\includeonly\s*\{([^}]*)\}")
_COMMAND = re.compile(r"\\([A-Za-z]+)(\*?)")
_CITE_MARK = "\ue000"


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
    _, position = _optionals(text, position, 2)
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
    declared, _ = _optionals(text, name_end, 2)
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
        named = _BIBLIOGRAPHY.search(text, *spans[0])
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


def _optionals(text: str, position: int, limit: int) -> tuple[list[str], int]:
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
        optional, after = _optionals(text, position, 1)
        volume = balanced_group(text, after, "{", "}")
        if volume is None:
            break
        pages, after = _optionals(text, volume[1], 1)
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
        optional, after = _optionals(text, position, 2)
        group = balanced_group(text, after, "{", "}")
        if group is None:
            break
        pre, post = _notes(optional)
        keys.extend((k.strip(), pre, post) for k in group[0].split(",") if k.strip())
        position = group[1]
        if not multi:
            break
    return keys, position


@dataclass
class LatexExtraction:
    """Everything read from a LaTeX project."""

    citations: list[Citation] = field(default_factory=list)
    nocite: list[str] = field(default_factory=list)
    nocite_all: bool = False
    bibliographies: list[Path] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    # The `\\bibitem`s of inline `thebibliography` environments, read as references.
    bibitems: list[Reference] = field(default_factory=list)
    # Key lists LaTeX or BibTeX will reject, with the file each is in.
    key_problems: list[tuple[Path, KeyProblem]] = field(default_factory=list)


# pylatexenc passes the converter by this parameter name.
def _link_text(node: Any, l2tobj: Any) -> str:
    """`\\href{url}{text}` as its text, however many of its arguments are there."""
    arguments = list(node.nodeargd.argnlist) if node.nodeargd is not None else []
    shown = [a for a in arguments[1:2] if a is not None]
    return str(l2tobj.nodelist_to_text(shown)) if shown else ""


def _url_text(node: Any) -> str:
    """`\\url{…}` as its address ("" when the argument is missing)."""
    arguments = list(node.nodeargd.argnlist) if node.nodeargd is not None else []
    address = "".join(a.latex_verbatim() for a in arguments[:1] if a is not None).strip("{}")
    return re.sub(r"\\([%#])", r"\1", address)  # escaped by _escaped_addresses


@cache
def _converter() -> tuple[Any, Any]:
    """pylatexenc's LaTeX-to-text converter, and the parser context it reads with, taught the
    hyperref macros (pylatexenc's own reading of `\\href` fails on every use)."""
    parsing = latexwalker.get_default_latex_context_db()
    parsing.add_context_category(
        "citecheck-hyperref",
        macros=[macrospec.std_macro("href", False, 2), macrospec.std_macro("url", False, 1)],
        prepend=True,
    )
    text = get_default_latex_context_db()
    text.add_context_category(
        "citecheck-hyperref",
        macros=[
            MacroTextSpec("href", simplify_repl=_link_text),
            MacroTextSpec("url", simplify_repl=_url_text),
        ],
        prepend=True,
    )
    converter = LatexNodes2Text(
        latex_context=text, math_mode="with-delimiters", strict_latex_spaces=False
    )
    return converter, parsing


_LINK_COMMAND = re.compile(r"\\(?:href|url)(?![a-zA-Z])")


def _escaped_addresses(latex: str) -> str:
    """`\\href` and `\\url` addresses with `%` and `#` escaped: hyperref reads them verbatim
    (`\\href{https://x.org/a%20b}{…}` is fine LaTeX), but pylatexenc would take the `%` for a
    comment and lose the rest of the line, the citation with it."""
    pieces, cursor = [], 0
    for match in _LINK_COMMAND.finditer(latex):
        group = balanced_group(latex, match.end(), "{", "}")
        if group is None or match.start() < cursor:
            continue
        address, end = group
        opening = latex.index("{", match.end())
        pieces.append(latex[cursor : opening + 1])
        pieces.append(re.sub(r"(?<!\\)([%#])", r"\\\1", address))
        pieces.append("}")
        cursor = end
    pieces.append(latex[cursor:])
    return "".join(pieces)


def _readable(latex: str) -> str:
    """Plain text of a LaTeX fragment (math and `~` handled), white space collapsed. A fragment
    pylatexenc cannot read is stripped of its commands instead: claim text is for people, and
    one odd macro must not cost the report."""
    converter, parsing = _converter()
    try:
        text = str(converter.latex_to_text(_escaped_addresses(latex), latex_context=parsing))
    except Exception:
        text = _rough_text(latex)
    return " ".join(text.split())


def _rough_text(latex: str) -> str:
    """LaTeX with commands, braces and math delimiters taken out, words kept."""
    text = re.sub(r"\\(?:href|url)\s*\{[^{}]*\}", " ", latex)
    text = re.sub(r"\\[a-zA-Z@]+\*?(?:\[[^\]]*\])?", " ", text)
    return re.sub(r"[{}$~\\]", " ", text)


# Paragraph boundaries: blank lines, sectioning commands (a heading is not part of a claim) and
# the start of the document body (the preamble is no one's claim).
_BOUNDARY = re.compile(
    r"\n[ \t]*\n|\\(?:part|chapter|section|subsection|subsubsection|paragraph)\*?"
    r"(?:\[[^\]]*\])?\{[^{}]*\}|\\begin\s*\{document\}"
)


# How far a claim's paragraph reaches either side of its citation: real paragraphs are shorter;
# a file with no paragraph breaks (generated, or one long line) must not be read whole for each.
_PARAGRAPH_REACH = 4000


def _paragraph_bounds(text: str, position: int, notes: list[tuple[int, int]]) -> tuple[int, int]:
    """The paragraph around `position`: a footnote's text when it sits in one; at most
    _PARAGRAPH_REACH characters either side."""
    for start, end in notes:
        if start < position < end:
            return max(start, position - _PARAGRAPH_REACH), min(end, position + _PARAGRAPH_REACH)
    low = max(0, position - _PARAGRAPH_REACH)
    before = [m.end() for m in _BOUNDARY.finditer(text, low, position)]
    start = before[-1] if before else low
    after = _BOUNDARY.search(text, position, position + _PARAGRAPH_REACH)
    return start, after.start() if after else min(len(text), position + _PARAGRAPH_REACH)


def _claims(
    text: str, commands: list[CiteCommand], notes: list[tuple[int, int]]
) -> dict[int, tuple[str, str]]:
    """The claim sentence and paragraph (readable text) of every command, by its start; a
    citation in a footnote gets the footnote's sentence."""
    results: dict[int, tuple[str, str]] = {}
    by_paragraph: dict[tuple[int, int], list[CiteCommand]] = {}
    for command in commands:
        bounds = _paragraph_bounds(text, command.start, notes)
        # Where no paragraph break is near, the reach windows of neighbouring citations overlap:
        # they are read as one stretch (read once, not once per citation: a 300-citation file
        # without blank lines took 16 s), each citation's paragraph cut around it.
        if by_paragraph:
            last = next(reversed(by_paragraph))
            if last != bounds and bounds[0] < last[1] and last[0] <= bounds[0]:
                merged = (last[0], max(last[1], bounds[1]))
                by_paragraph[merged] = [*by_paragraph.pop(last), command]
                continue
        by_paragraph.setdefault(bounds, []).append(command)
    for (start, end), group in by_paragraph.items():
        pieces, cursor = [], start
        for command in group:
            pieces.append(text[max(cursor, start) : command.start])
            pieces.append(_CITE_MARK)
            cursor = max(cursor, command.end)
        pieces.append(text[cursor:end])
        readable = _readable("".join(pieces))
        spans = sentence_spans(readable)
        marks = [m.start() for m in re.finditer(_CITE_MARK, readable)]
        whole = end - start <= 2 * _PARAGRAPH_REACH
        for command, mark in zip(group, marks, strict=False):
            sentence = next((readable[s:e] for s, e in spans if s <= mark < e), readable)
            around = readable if whole else _around(readable, spans, mark)
            results[command.start] = (
                " ".join(sentence.replace(_CITE_MARK, "[…]").split()),
                around.replace(_CITE_MARK, "[…]"),
            )
    return results


def _around(readable: str, spans: list[tuple[int, int]], mark: int) -> str:
    """The whole sentences of a long stretch within half a reach of a citation mark."""
    low, high = mark - _PARAGRAPH_REACH // 2, mark + _PARAGRAPH_REACH // 2
    inside = [(s, e) for s, e in spans if e > low and s < high]
    return readable[inside[0][0] : inside[-1][1]] if inside else readable[max(low, 0) : high]


def _include_target(text: str, match: re.Match[str]) -> tuple[str, int] | None:
    command = match.group(1)
    position = match.end()
    if command in ("import", "subimport", "includefrom", "subincludefrom"):
        first = balanced_group(text, position, "{", "}")
        if first is None:
            return None
        second = balanced_group(text, first[1], "{", "}")
        if second is None:
            return None
        return first[0].strip().rstrip("/") + "/" + second[0].strip(), second[1]
    group = balanced_group(text, position, "{", "}")
    if group is None:
        bare = re.match(r"\s+([^\s{}\\]+)", text[position:])  # \input file (TeX primitive form)
        return (bare.group(1), position + bare.end()) if bare else None
    return group[0].strip(), group[1]


def _expand_macro(text: str, argument: str, before: int) -> str:
    """`argument` with a lone parameterless macro in it replaced by its last definition before
    `before` (`\\def\\files{a,b}` … `\\includeonly{\\files}`, a common thesis switch), as
    TeX would expand it; any other argument as it stands."""
    name = re.fullmatch(r"\\([A-Za-z@]+)", argument)
    if name is None:
        return argument
    definition = re.compile(
        rf"\\(?:[egx]?def\s*\\{name.group(1)}|(?:re)?newcommand\*?\s*\{{?\s*\\{name.group(1)}"
        rf"\s*\}}?)\s*\{{"
    )
    found = [m for m in definition.finditer(text, 0, before)]
    if not found:
        return argument
    body = balanced_group(text, found[-1].end() - 1, "{", "}")
    return body[0] if body else argument


def _resolve_tex(name: str, folders: list[Path]) -> Path | None:
    for folder in folders:
        for candidate in (folder / name, folder / f"{name}.tex"):
            if candidate.is_file():
                return candidate
    return None


_PARAMETER = re.compile(r"#+[1-9]")


def _cited(commands: list[CiteCommand]) -> list[CiteCommand]:
    """The commands in the order they are written, without keys that are macro parameters
    (`\\citep{#1}` in the body of a definition made by a macro of the project's own, such as
    `\\newmacro`, that no reader can know): such a key cites nothing until the macro is used."""
    kept = []
    for command in sorted(commands, key=lambda c: c.start):
        keys = tuple(k for k in command.keys if not _PARAMETER.search(k[0]))
        if keys:
            kept.append(replace(command, keys=keys))
    return kept


class _Reader:
    def __init__(self, root: Path) -> None:
        self.root = root.parent
        self.jobname = root.stem
        self.result = LatexExtraction()
        self.include_only: set[str] | None = None
        self.notes = 0
        self.seen: set[Path] = set()
        self.shows_source: set[str] = set()
        self.wrappers: dict[str, CiteWrapper] = {}
        self.bibliography_wrappers: dict[str, CiteWrapper] = {}

    @staticmethod
    def _source(path: Path) -> str:
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            return path.read_text(encoding="latin-1")
        except OSError as exc:
            raise InputError(f"{path}: cannot read: {exc.strerror}") from exc

    def learn_macros(self, path: Path, seen: set[Path]) -> None:
        """Learn the project's citing and source-printing macros, in every file it inputs,
        before any file is read for citations: a preamble often inputs its macros from a file
        of their own, and a chapter may use a macro defined after it is input."""
        resolved = path.resolve()
        if resolved in seen:
            return
        seen.add(resolved)
        text = mask_ignored(self._source(path))
        self.wrappers.update(cite_wrappers(text))
        self.bibliography_wrappers.update(bibliography_wrappers(text))
        mask_definitions(text, self.shows_source)
        for match in _INCLUDES.finditer(text):
            target = _include_target(text, match)
            found = _resolve_tex(target[0], [path.parent, self.root]) if target else None
            if found is not None:
                self.learn_macros(found, seen)
        # A package or class kept in the project is found before TeX Live's, as TeX finds it.
        for match in _LOCAL_PACKAGE.finditer(text):
            suffix = ".cls" if match.group(1) in ("documentclass", "LoadClass") else ".sty"
            for name in match.group(2).split(","):
                local = self.root / f"{name.strip()}{suffix}"
                if name.strip() and local.is_file():
                    self.learn_macros(local, seen)

    def read(self, path: Path) -> None:
        resolved = path.resolve()
        if resolved in self.seen:
            return
        self.seen.add(resolved)
        self.result.files.append(path)
        raw = self._source(path)
        unmasked = mask_ignored(raw)
        text = mask_definitions(unmasked, self.shows_source)
        self.result.bibitems.extend(bibitems(raw, str(path)))
        self.result.key_problems.extend((path, p) for p in key_list_problems(raw, text))
        only = _INCLUDEONLY.search(text)
        if only and self.include_only is None:
            listed = _expand_macro(unmasked, only.group(1).strip(), only.start())
            self.include_only = {n.strip() for n in listed.split(",") if n.strip()}
        named = [m.group(1) for m in _BIBLIOGRAPHY.finditer(text)]
        named += bibliography_wrapper_names(text, self.bibliography_wrappers)
        for listed in named:
            for name in listed.replace("\\jobname", self.jobname).split(","):
                name = name.strip()
                if name:
                    bib = name if name.endswith(".bib") else f"{name}.bib"
                    candidate = path.parent / bib
                    self.result.bibliographies.append(
                        candidate if candidate.exists() else self.root / bib
                    )
        commands = _cited(
            [*find_cite_commands(text), *wrapper_uses(text, self.wrappers)],
        )
        footnotes = [
            (m.start(), self._footnote_end(text, m.end()))
            for m in re.finditer(r"\\footnote\b", text)
        ]
        note_texts = [(self._footnote_text_start(text, start), end - 1) for start, end in footnotes]
        claims = _claims(text, commands, note_texts)
        events = sorted(
            [(c.start, "cite", c) for c in commands]
            + [(m.start(), "include", m) for m in _INCLUDES.finditer(text)]
            + [(start, "footnote", None) for start, _ in footnotes]
        )
        footnote_numbers: dict[int, int] = {}
        for position, kind, item in events:
            if kind == "footnote":
                self.notes += 1
                footnote_numbers[position] = self.notes
            elif kind == "include":
                self._follow(text, item, path)  # type: ignore[arg-type]
            else:
                command: CiteCommand = item  # type: ignore[assignment]
                note = next(
                    (footnote_numbers.get(s) for s, e in footnotes if s < position < e), None
                )
                spec = command_spec(command.name.rstrip("*"))
                if spec is not None and spec.note:
                    self.notes += 1
                    note = self.notes
                self._add(command, path, raw, claims.get(command.start, ("", "")), note)

    @staticmethod
    def _footnote_text_start(text: str, start: int) -> int:
        """Where the text of the footnote command at `start` begins (after its brace)."""
        return text.index("{", start) + 1

    @staticmethod
    def _footnote_end(text: str, position: int) -> int:
        _, after = _optionals(text, position, 1)
        group = balanced_group(text, after, "{", "}")
        return group[1] if group else position

    def _follow(self, text: str, match: re.Match[str], current: Path) -> None:
        target = _include_target(text, match)
        if target is None:
            return
        name, _ = target
        excluded = self.include_only is not None and name.removesuffix(".tex") not in (
            self.include_only
        )
        if match.group(1) == "include" and excluded:
            return
        found = _resolve_tex(name, [current.parent, self.root])
        if found is not None:
            self.read(found)

    def _add(
        self,
        command: CiteCommand,
        path: Path,
        raw: str,
        claim: tuple[str, str],
        note: int | None,
    ) -> None:
        base = command.name.rstrip("*")
        line = raw.count("\n", 0, command.start) + 1
        if base == "nocite":
            for key, _, _ in command.keys:
                if key == "*":
                    self.result.nocite_all = True
                else:
                    self.result.nocite.append(key)
            return
        spec = command_spec(base)
        mode = spec.mode if spec is not None else CitationMode.NORMAL
        keys = tuple(k for k, _, _ in command.keys)
        for key, pre, post in command.keys:
            prenote, postnote = _readable(pre) if pre else "", _readable(post) if post else ""
            self.result.citations.append(
                Citation(
                    key=key,
                    mode=mode,
                    location=SourceLocation(str(path), line),
                    prefix=prenote,
                    suffix=postnote,
                    locator=locator_of(postnote),
                    signal=signal_of(prenote),
                    claim=claim[0],
                    paragraph=claim[1],
                    note_number=note,
                    cited_with=tuple(k for k in keys if k != key),
                    context=CitationContext.NOTE if note is not None else CitationContext.BODY,
                )
            )


@dataclass(frozen=True, slots=True)
class ProjectMacros:
    """A project's citing macros and the macros that print their argument as source."""

    wrappers: dict[str, CiteWrapper]
    shows_source: frozenset[str]


def project_macros(main: Path) -> ProjectMacros:
    """The macros a LaTeX project defines, in its main file and every file it inputs."""
    reader = _Reader(main)
    reader.learn_macros(main, set())
    return ProjectMacros(dict(reader.wrappers), frozenset(reader.shows_source))


def citation_commands(text: str, macros: ProjectMacros | None = None) -> list[CiteCommand]:
    """Every citation one LaTeX file makes, as `extract_latex` reads it — its commands and the
    uses of the project's citing macros — outside comments, verbatim and definitions."""
    shows_source = set(macros.shows_source) if macros else set()
    masked = mask_definitions(mask_ignored(text), shows_source)
    wrappers = {**(macros.wrappers if macros else {}), **cite_wrappers(mask_ignored(text))}
    return _cited([*find_cite_commands(masked), *wrapper_uses(masked, wrappers)])


def extract_latex(main: Path) -> LatexExtraction:
    """Every citation of a LaTeX project, starting at its main file and following `\\input`,
    `\\include` (honouring `\\includeonly`), `\\subfile` and `\\import`."""
    if not main.is_file():
        raise InputError(f"{main}: no such file")
    reader = _Reader(main)
    reader.learn_macros(main, set())
    reader.read(main)
    reader.result.bibliographies = list(dict.fromkeys(reader.result.bibliographies))
    return reader.result
