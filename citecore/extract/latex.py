"""Citations from LaTeX sources: natbib and biblatex commands, across `\\input` and friends.

What LaTeX does not read (comments, verbatim, `\\iffalse`) is blanked in one linear pass
(`latex_syntax`), and the bodies of macro definitions with it; user macros whose bodies cite
(`\\newcommand{\\mycite}[1]{\\citep{#1}}`) are learnt from every file of the project first and
read as the citation they make (`latex_macros`). The citation commands themselves are read by a
small argument parser (`latex_cites`); pylatexenc turns the paragraph around a citation into
readable text for the claim sentence (`latex_claims`). This module follows the project's files
and puts the pieces together.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from citecore.errors import InputError
from citecore.extract.latex_bibitems import bibitems
from citecore.extract.latex_cites import CiteCommand, find_cite_commands, optionals
from citecore.extract.latex_claims import claim_sentences, readable_text
from citecore.extract.latex_commands import BIBLIOGRAPHY_COMMAND, command_spec
from citecore.extract.latex_keys import KeyProblem, key_list_problems
from citecore.extract.latex_macros import (
    CiteWrapper,
    bibliography_wrapper_names,
    bibliography_wrappers,
    cite_wrappers,
    mask_definitions,
    wrapper_uses,
)
from citecore.extract.latex_syntax import balanced_group, mask_ignored
from citecore.extract.signals import locator_of, signal_of
from citecore.model import Citation, CitationContext, CitationMode, Reference, SourceLocation

_INCLUDES = re.compile(r"\\(input|include|subfile|import|subimport|includefrom|subincludefrom)\b")
_LOCAL_PACKAGE = re.compile(
    r"\\(usepackage|RequirePackage|documentclass|LoadClass)\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}"
)
_INCLUDEONLY = re.compile(r"\\includeonly\s*\{([^}]*)\}")


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
        named = [m.group(1) for m in BIBLIOGRAPHY_COMMAND.finditer(text)]
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
        claims = claim_sentences(text, commands, note_texts)
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
        _, after = optionals(text, position, 1)
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
            prenote, postnote = (
                readable_text(pre) if pre else "",
                readable_text(post) if post else "",
            )
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
