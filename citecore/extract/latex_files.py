"""The files of a LaTeX project, in the order TeX reads them: what `\\input`, `\\include`
(with `\\includeonly`), `\\subfile`, `\\import` and a package or class kept in the project
load, and each file cut after its load commands so that its conditionals are read with the
switches the files loaded before have set."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from citecore.extract.latex_conditionals import Conditionals
from citecore.extract.latex_syntax import balanced_group
from citecore.files import is_file

INCLUDES = re.compile(r"\\(input|include|subfile|import|subimport|includefrom|subincludefrom)\b")
LOCAL_PACKAGE = re.compile(
    r"\\(usepackage|RequirePackage|documentclass|LoadClass)\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}"
)
INCLUDEONLY = re.compile(r"\\includeonly\s*\{([^}]*)\}")


def include_target(text: str, match: re.Match[str]) -> tuple[str, int] | None:
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


def expand_macro(text: str, argument: str, before: int) -> str:
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


def resolve_tex(name: str, folders: list[Path]) -> Path | None:
    for folder in folders:
        for candidate in (folder / name, folder / f"{name}.tex"):
            if is_file(candidate):
                return candidate
    return None


def _start(match: re.Match[str]) -> int:
    return match.start()


def loaded_files(
    text: str, match: re.Match[str], current: Path, root: Path, include_only: set[str] | None
) -> list[Path]:
    """The project's files a load command at `match` reads: the file an `\\input` names, or an
    `\\include` that `\\includeonly` lets through; or the packages and classes kept in the
    project that a `\\usepackage` or `\\documentclass` names (found before TeX Live's, as TeX
    finds them)."""
    if match.re is LOCAL_PACKAGE:
        suffix = ".cls" if match.group(1) in ("documentclass", "LoadClass") else ".sty"
        local = [root / f"{name.strip()}{suffix}" for name in match.group(2).split(",")]
        return [path for path in local if path.stem and is_file(path)]
    target = include_target(text, match)
    if target is None:
        return []
    name, _ = target
    if (
        match.group(1) == "include"
        and include_only is not None
        and (name.removesuffix(".tex") not in include_only)
    ):
        return []
    found = resolve_tex(name, [current.parent, root])
    return [] if found is None else [found]


def conditional_pieces(
    plain: str, conditionals: Conditionals
) -> Iterator[tuple[re.Match[str] | None, int, str]]:
    """A file's text cut after each command that loads another file, each piece masked as TeX
    reads it, lazily: the caller reads the loaded file (whose switches hold in the next piece)
    before asking for the next. Yields the load command ending the piece (None for the last),
    where the piece starts, and the masked piece."""
    loads = sorted([*INCLUDES.finditer(plain), *LOCAL_PACKAGE.finditer(plain)], key=_start)
    cursor = 0
    for match in [*loads, None]:
        end = len(plain) if match is None else match.end()
        yield match, cursor, conditionals.mask(plain[cursor:end])
        cursor = end
