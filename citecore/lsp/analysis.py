"""One open document checked as the builds check it, fast enough for every keystroke.

The citations come from the live text (citecore.lsp.scan); the bibliography from what the
document names (`bibliography:` in its front matter, `--bib`-like options in citecheck.toml, or
for LaTeX what its main file names); then the build's own pipeline (`check_citations`) runs
with registry verification answered from the cache only and no grounding. Network and model
work happen elsewhere: verification on save, grounding on request.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citecore.api import check_citations
from citecore.api.bibliography import verify_bibliography
from citecore.api.markdown import nocite_entries
from citecore.bib.loader import load_bibliographies, resolve_bibliography
from citecore.cache import Cache
from citecore.errors import CitecheckError
from citecore.extract.latex import ProjectMacros, extract_latex, project_macros
from citecore.extract.latex_root import main_files_for
from citecore.findings import finding
from citecore.lsp.scan import (
    LATEX_SUFFIXES,
    CitedKey,
    citations_of,
    latex_nocite,
    markdown_nocite,
)
from citecore.model import (
    Bibliography,
    CheckResult,
    Citation,
    CitationId,
    CitationMode,
    CitationResult,
    Finding,
    FindingKind,
    SourceLocation,
)
from citecore.options import Options, resolve_options
from citecore.pandoc.front_matter import front_matter_values, option_lines
from citecore.pandoc.knitr import as_knitr_reads
from citecore.pandoc.metadata_layers import (
    NamedFile,
    ToolchainMetadata,
    as_names,
    custom_crossref_kinds,
)
from citecore.pandoc.project import toolchain_metadata
from citecore.verify.registry import registry_verifier

BIBLIOGRAPHY_SUFFIXES = (".bib", ".bibtex")
_COMMA_JOINED = re.compile(r"@\{?[\w:.#$%&\-+?<>~/]+\}?\s*,\s*-?@")


@dataclass
class Analysis:
    """What the editor shows for one document: its citations and the check's result."""

    path: Path
    citations: list[CitedKey]
    result: CheckResult
    problems: list[str] = field(default_factory=list)  # why a part could not be checked
    # Grounding verdicts by (0-based line, key), filled by the grounding command.
    grounding: dict[tuple[int, str], CitationResult] = field(default_factory=dict)

    @property
    def bibliography(self) -> Bibliography:
        """The bibliography the document was checked against."""
        return self.result.bibliography


def _front_matter(path: Path, text: str) -> dict[str, Any]:
    """The front matter as pandoc reads it after knitr (inline code where YAML cannot hold it
    blanked), as plain values."""
    return front_matter_values(as_knitr_reads(path, text))


@dataclass(frozen=True, slots=True)
class _LatexProject:
    """What the editor needs of a LaTeX project: its bibliography names and its macros."""

    bibliographies: list[str]
    macros: ProjectMacros


# Each main file's project, with the files it was read from and their modification times:
# reading a whole project per keystroke costs 100+ ms, its files rarely change while a chapter
# is typed.
_LATEX_PROJECTS: dict[Path, tuple[dict[Path, int], _LatexProject]] = {}


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return -1


def _latex_project(main: Path) -> _LatexProject:
    """A LaTeX project as its files on disk say, read again only when one of them changed."""
    known = _LATEX_PROJECTS.get(main)
    if known is not None and all(_mtime(f) == t for f, t in known[0].items()):
        return known[1]
    extraction = extract_latex(main)
    project = _LatexProject([str(p) for p in extraction.bibliographies], project_macros(main))
    stamps = {f: _mtime(f) for f in {main, *extraction.files}}
    _LATEX_PROJECTS[main] = (stamps, project)
    return project


# A chapter's main file, found once per saved state of the chapter: finding it may read every
# main file of the workspace, which must not happen on each keystroke.
_MAINS: dict[tuple[Path, int], Path] = {}


def _latex_main(path: Path, workspace: Path) -> Path:
    known = (path, _mtime(path))
    if known not in _MAINS:
        mains = main_files_for(path, workspace)
        _MAINS[known] = mains[0] if mains else path
    return _MAINS[known]


def _toolchain(path: Path, front: Mapping[str, Any]) -> ToolchainMetadata:
    """What a Markdown document's toolchain adds to its front matter (nothing for LaTeX)."""
    if path.suffix.lower() in LATEX_SUFFIXES:
        return ToolchainMetadata()
    return toolchain_metadata(path, front)


def _bibliography_paths(
    path: Path,
    front: Mapping[str, Any],
    options: Options,
    workspace: Path,
    problems: list[str],
    project: ToolchainMetadata,
) -> list[Path]:
    """The bibliography files of a document: the options', else what it names itself (its
    front matter with its toolchain's project files, or for LaTeX its main file's
    `\\bibliography`/`\\addbibresource`). A file that is not there is one line in `problems`;
    the others are read."""
    if path.suffix.lower() in LATEX_SUFFIXES:
        main = _latex_main(path, workspace)
        named = [
            NamedFile(n, main.parent, str(path))
            for n in list(options.bibliographies) or _latex_project(main).bibliographies
        ]
    else:
        own = as_names(front.get("bibliography"))
        named = project.bibliographies_with(own, path, options.bibliographies)
        problems += project.problems
    found: list[Path] = []
    for name in named:
        try:
            # Absolute: diagnostics go to the file's URI, and an editor may start the server
            # anywhere.
            found.append(
                resolve_bibliography(name.name, (name.folder,), name.named_by or None).absolute()
            )
        except CitecheckError as exc:  # not written yet: say so, read the others
            problems.append(str(exc))
    return list(dict.fromkeys(found))


def _options(
    path: Path,
    text: str,
    front: Mapping[str, Any],
    layer: Mapping[str, Any],
    project: ToolchainMetadata,
) -> Options:
    own = front.get("citecheck")
    metadata = {**project.options, **(own if isinstance(own, dict) else {})}
    # Each keystroke is analysed: sources are fetched by builds and `sources fetch`, not here.
    return resolve_options(
        {**layer, "ground": False, "fetch_sources": False},
        folder=path.parent,
        metadata=metadata or None,
        metadata_origin=str(path),
        metadata_lines=option_lines(text),
    )


def semicolon_separated(group: str) -> str:
    """`[@a,@b]` as `[@a; @b]`; a group without comma-joined keys unchanged."""
    if not group.startswith("[") or not _COMMA_JOINED.search(group):
        return group
    return re.sub(r"\s*,\s*(?=-?@)", "; ", group)


def _comma_joined(path: Path, citations: list[CitedKey]) -> list[Finding]:
    """`[@a,@b]`: pandoc reads @b into @a's locator. One finding per group."""
    found: dict[tuple[int, int], Finding] = {}
    for cited in citations:
        span = cited.citation_span
        fixed = semicolon_separated(cited.group_text)
        if fixed != cited.group_text:
            found.setdefault(
                (span.start_line, span.start_character),
                finding(
                    FindingKind.COMMA_SEPARATED_KEYS,
                    f"{cited.group_text} joins keys with a comma, so pandoc reads the second as "
                    f"part of the first's locator: write {fixed}",
                    cited.key,
                    SourceLocation(str(path), span.start_line + 1),
                ),
            )
    return list(found.values())


def analyse_document(
    path: Path, text: str, layer: Mapping[str, Any], workspace: Path | None = None
) -> Analysis:
    """Check the open text of a Markdown or LaTeX document against its bibliographies and the
    cached registry verdicts (`layer` holds the server's options, e.g. `offline`)."""
    workspace = workspace or path.parent
    macros = None
    if path.suffix.lower() in LATEX_SUFFIXES:
        macros = _latex_project(_latex_main(path, workspace)).macros
    front = _front_matter(path, text)  # read once a keystroke: every step below needs it
    project = _toolchain(path, front)
    # Quarto's custom cross-reference kinds (the project's and the document's): no citations.
    kinds = project.crossref_kinds | custom_crossref_kinds(front.get("crossref"))
    citations = [
        c for c in citations_of(str(path), text, macros) if c.key.split("-", 1)[0] not in kinds
    ]
    problems: list[str] = []
    options = _options(path, text, front, {**layer, "offline": True}, project)
    paths = _bibliography_paths(path, front, options, workspace, problems, project)
    try:
        with Cache(options.cache) as cache:
            bibliography = load_bibliographies(paths, cache=cache)
    except CitecheckError as exc:  # a bibliography unreadable: say so, check the rest
        problems.append(str(exc))
        bibliography = Bibliography()
    # The line a build gives a citation: the key's in Markdown (pandoc's line mapping), the
    # command's in LaTeX (a command may spread its keys over lines).
    latex = path.suffix.lower() in LATEX_SUFFIXES
    records = [
        Citation(
            c.key,
            CitationMode.NORMAL,
            SourceLocation(str(path), (c.citation_span if latex else c.key_span).start_line + 1),
            CitationId(str(path), ordinal),
        )
        for ordinal, c in enumerate(citations)
    ]
    extra = [] if latex else _comma_joined(path, citations)
    nocite = latex_nocite(text, macros, path) if latex else markdown_nocite(text)
    if not latex:  # as a build reads them: a key no entry defines is citeproc's silent drop
        keys = list(dict.fromkeys([*project.nocite, *nocite[0]]))
        listed, dropped = nocite_entries(keys, bibliography)
        nocite, extra = (listed, nocite[1] or project.nocite_all), [*extra, *dropped]
    result = check_citations(
        records,
        bibliography,
        options,
        registry_verifier(options),
        documents=(str(path),),
        folder=path.parent,
        nocite=nocite,
        extra_findings=extra,
    )
    return Analysis(path, citations, result, problems)


def analyse_bibliography(path: Path, layer: Mapping[str, Any]) -> Analysis:
    """Check a bibliography file on disk entry by entry, registry verdicts from the cache."""
    options = resolve_options({**layer, "offline": True, "ground": False}, folder=path.parent)
    with Cache(options.cache) as cache:
        bibliography = load_bibliographies([path], cache=cache)
    return Analysis(path, [], verify_bibliography(bibliography, options))
