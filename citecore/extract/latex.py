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
from citecore.extract.latex_conditionals import Conditionals, mask_conditionals
from citecore.extract.latex_files import (
    INCLUDEONLY,
    INCLUDES,
    LOCAL_PACKAGE,
    conditional_pieces,
    expand_macro,
    loaded_files,
)
from citecore.extract.latex_keys import KeyProblem, key_list_problems
from citecore.extract.latex_macros import (
    CiteWrapper,
    bibliography_wrapper_names,
    bibliography_wrappers,
    cite_wrappers,
    mask_definitions,
    wrapper_uses,
)
from citecore.extract.latex_syntax import balanced_group, mask_ignored, mask_unread
from citecore.extract.signals import locator_of, signal_of
from citecore.files import is_file
from citecore.model import (
    Citation,
    CitationContext,
    CitationId,
    CitationMode,
    Reference,
    SourceLocation,
)


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
        self.masked: dict[Path, str] = {}  # each file as TeX reads it, in the project's order
        self.switches_at: dict[Path, dict[str, bool]] = {}  # the \\newif switches as it starts
        self.switches_after: dict[Path, dict[str, bool]] = {}  # … and as it leaves them

    @staticmethod
    def _source(path: Path) -> str:
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            return path.read_text(encoding="latin-1")
        except OSError as exc:
            raise InputError(f"{path}: cannot read: {exc.strerror}") from exc

    def mask_in_reading_order(self, path: Path, flags: dict[str, bool]) -> None:
        """Read the project's conditionals as TeX does, each file where TeX inputs it: a
        `\\newif` switch declared in a local package or set in the preamble or in one chapter
        holds in every file read after it. Keeps each file's masked text for `read`."""
        resolved = path.resolve()
        if resolved in self.masked:
            return
        self.masked[resolved] = ""  # being read: a file that inputs itself is not followed
        self.switches_at[resolved] = dict(flags)
        plain = mask_unread(self._source(path))
        conditionals = Conditionals(flags)
        pieces: list[str] = []
        for match, start, piece in conditional_pieces(plain, conditionals):
            pieces.append(piece)
            only = INCLUDEONLY.search(piece)
            if only and self.include_only is None:
                listed = expand_macro(plain, only.group(1).strip(), start + only.start())
                self.include_only = {n.strip() for n in listed.split(",") if n.strip()}
            if match is not None and not conditionals.skipping:
                for loaded in loaded_files(plain, match, path, self.root, self.include_only):
                    self.mask_in_reading_order(loaded, flags)
        self.masked[resolved] = "".join(pieces)
        self.switches_after[resolved] = dict(flags)

    def learn_macros(self, path: Path, seen: set[Path]) -> None:
        """Learn the project's citing and source-printing macros, in every file it inputs,
        before any file is read for citations: a preamble often inputs its macros from a file
        of their own, and a chapter may use a macro defined after it is input."""
        resolved = path.resolve()
        if resolved in seen:
            return
        seen.add(resolved)
        text = self.masked.get(resolved) or mask_ignored(self._source(path))
        self.wrappers.update(cite_wrappers(text))
        self.bibliography_wrappers.update(bibliography_wrappers(text))
        mask_definitions(text, self.shows_source)
        for match in [*INCLUDES.finditer(text), *LOCAL_PACKAGE.finditer(text)]:
            for loaded in loaded_files(text, match, path, self.root, None):
                self.learn_macros(loaded, seen)

    def read(self, path: Path) -> None:
        """Read one file of the project, in TeX's reading order: its bibliographies, inline
        `\\bibitem`s, citations with their claims and footnote numbers, and the files it
        loads (read where TeX loads them)."""
        resolved = path.resolve()
        if resolved in self.seen:
            return
        self.seen.add(resolved)
        self.result.files.append(path)
        raw = self._source(path)
        unmasked = self.masked.get(resolved) or mask_ignored(raw)
        text = mask_definitions(unmasked, self.shows_source)
        self.result.bibitems.extend(bibitems(raw, str(path)))
        self.result.key_problems.extend((path, p) for p in key_list_problems(raw, text))
        self.result.bibliographies.extend(self._bibliographies(text, path))
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
            + [(m.start(), "include", m) for m in INCLUDES.finditer(text)]
            # The project's own packages and classes are read too: one may hold the
            # `\\addbibresource` (or a `\\nocite`) for every document that loads it.
            + [(m.start(), "include", m) for m in LOCAL_PACKAGE.finditer(text)]
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

    def _bibliographies(self, text: str, path: Path) -> list[Path]:
        """The bibliography files a file names (`\\bibliography`, `\\addbibresource`, the
        project's wrappers of them): beside the file when there, else beside the main file."""
        named = [m.group(1) for m in BIBLIOGRAPHY_COMMAND.finditer(text)]
        named += bibliography_wrapper_names(text, self.bibliography_wrappers)
        found = []
        for listed in named:
            for name in listed.replace("\\jobname", self.jobname).split(","):
                name = name.strip()
                if name:
                    bib = name if name.endswith(".bib") else f"{name}.bib"
                    candidate = path.parent / bib
                    found.append(candidate if is_file(candidate) else self.root / bib)
        return found

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
        for found in loaded_files(text, match, current, self.root, self.include_only):
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
                    # The main file names the document: \input files are read within it.
                    ident=CitationId(str(self.result.files[0]), len(self.result.citations)),
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
    """A project's citing macros, the macros that print their argument as source, and the
    `\\newif` switches as they stand where TeX starts reading each of its files."""

    wrappers: dict[str, CiteWrapper]
    shows_source: frozenset[str]
    switches_at: dict[Path, dict[str, bool]] = field(default_factory=dict)
    switches_after: dict[Path, dict[str, bool]] = field(default_factory=dict)


def project_macros(main: Path) -> ProjectMacros:
    """The macros a LaTeX project defines, in its main file and every file it inputs."""
    reader = _Reader(main)
    reader.mask_in_reading_order(main, {})
    reader.learn_macros(main, set())
    return ProjectMacros(
        dict(reader.wrappers),
        frozenset(reader.shows_source),
        dict(reader.switches_at),
        dict(reader.switches_after),
    )


def citation_commands(
    text: str, macros: ProjectMacros | None = None, path: Path | None = None
) -> list[CiteCommand]:
    """Every citation one LaTeX file makes, as `extract_latex` reads it — its commands and the
    uses of the project's citing macros — outside comments, verbatim, definitions and the
    conditional branches TeX skips (with the switches as the project leaves them where TeX
    starts reading `path`)."""
    shows_source = set(macros.shows_source) if macros else set()
    ignored = _as_the_project_reads(text, macros, path)
    masked = mask_definitions(ignored, shows_source)
    wrappers = {**(macros.wrappers if macros else {}), **cite_wrappers(ignored)}
    return _cited([*find_cite_commands(masked), *wrapper_uses(masked, wrappers)])


def _as_the_project_reads(text: str, macros: ProjectMacros | None, path: Path | None) -> str:
    """`text` masked as TeX reads it where the project inputs `path`: starting with the switches
    the project has set there, and after each file it loads, with the switches that file left
    (as the last full reading of the project found them)."""
    plain = mask_unread(text)
    if macros is None or path is None:
        return mask_conditionals(plain)
    conditionals = Conditionals(dict(macros.switches_at.get(path.resolve(), {})))
    pieces: list[str] = []
    for match, _, piece in conditional_pieces(plain, conditionals):
        pieces.append(piece)
        if match is not None and not conditionals.skipping:
            for loaded in loaded_files(plain, match, path, path.parent, None):
                conditionals.flags.update(macros.switches_after.get(loaded.resolve(), {}))
    return "".join(pieces)


def extract_latex(main: Path) -> LatexExtraction:
    """Every citation of a LaTeX project, starting at its main file and following `\\input`,
    `\\include` (honouring `\\includeonly`), `\\subfile` and `\\import`."""
    if not main.is_file():
        raise InputError(f"{main}: no such file")
    reader = _Reader(main)
    reader.mask_in_reading_order(main, {})
    reader.learn_macros(main, set())
    reader.read(main)
    reader.result.bibliographies = list(dict.fromkeys(reader.result.bibliographies))
    return reader.result
