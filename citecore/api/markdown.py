"""A Markdown, R Markdown or Quarto document checked end to end: its bibliography found as pandoc
finds it, its citations read from pandoc's AST (after knitr's rules), then the shared pipeline."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import panflute as pf

from citecore.annotate.checked import DocumentCheck
from citecore.api.pipeline import check_citations
from citecore.bib.loader import load_bibliographies, resolve_bibliography
from citecore.cache import Cache
from citecore.errors import BibliographyNotFoundError
from citecore.extract.locate import SourceFile
from citecore.extract.markdown import extract_citations, nocite_keys
from citecore.findings import (
    finding,
)
from citecore.model import (
    Bibliography,
    Finding,
    FindingKind,
    SourceLocation,
)
from citecore.options import Options
from citecore.pandoc.document import metadata_value
from citecore.pandoc.front_matter import field_spans, front_matter_values
from citecore.pandoc.knitr import as_knitr_reads
from citecore.pandoc.metadata_layers import ToolchainMetadata, as_names
from citecore.pandoc.project import toolchain_metadata
from citecore.pandoc.reader import read_markdown, read_markdown_book
from citecore.pandoc.rmarkdown_project import book_chapters
from citecore.verify import Verifier

logger = logging.getLogger(__name__)


def _field_line(source: SourceFile | None, name: str) -> int | None:
    """The line of the front matter's field `name`, where what it names is said."""
    if source is None:
        return None
    spans = field_spans(source.text, frozenset({name}))
    return source.text.count("\n", 0, spans[0][0]) + 1 if spans else None


def _field_location(source: SourceFile | None, name: str) -> SourceLocation | None:
    """The front matter's field `name` as a place (None when the front matter lacks it)."""
    line = _field_line(source, name)
    return SourceLocation(source.name, line) if source is not None and line else None


def load_document_bibliography(
    doc: pf.Doc,
    options: Options,
    search_dirs: Sequence[Path],
    sources: Sequence[SourceFile],
    cache: Cache | None = None,
    toolchain: ToolchainMetadata | None = None,
) -> tuple[Bibliography, list[Finding]]:
    """Every bibliography pandoc reads for the document — its own `bibliography:` joined with
    or replaced by the toolchain's (`toolchain`), or the options' instead of all of them, as
    pandoc's `--bibliography` — then the inline `references:` (the toolchain's, then the
    document's). Relative names are read from the folder of the file that names them, then
    under `search_dirs`. A file that is nowhere is one `missing_bibliography` finding at the
    line that names it; the others are still read."""
    toolchain = toolchain or ToolchainMetadata()
    source = sources[0] if sources else None
    document = Path(source.name) if source else Path.cwd() / "<stdin>"
    own = as_names(metadata_value(doc, "bibliography"))
    named = toolchain.bibliographies_with(own, document, options.bibliographies)
    paths: list[Path] = []
    missing: list[Finding] = []
    for name in named:
        by = name.named_by or None
        try:
            paths.append(resolve_bibliography(name.name, (name.folder, *search_dirs), by))
        except BibliographyNotFoundError as exc:
            line = _field_line(source, "bibliography") if source and by == source.name else None
            location = SourceLocation(by, line) if by else SourceLocation(name.name)
            said = str(exc).removeprefix(f"{by}: ")  # the finding's location names it
            missing.append(finding(FindingKind.MISSING_BIBLIOGRAPHY, said, "", location))
    inline = metadata_value(doc, "references", [])
    references = [*toolchain.references, *(inline if isinstance(inline, list) else [])]
    bibliography = load_bibliographies(
        list(dict.fromkeys(paths)),
        references,
        inline_file=source.name if source else "<metadata>",
        inline_text=source.text if source else None,
        cache=cache,
    )
    return bibliography, missing


def nocite_entries(
    keys: Sequence[str], bibliography: Bibliography, where: SourceLocation | None = None
) -> tuple[list[str], list[Finding]]:
    """A Markdown document's nocite keys that name an entry, and a `nocite_not_found` finding
    (at `where`) for each that does not: citeproc drops such a key without a word, where
    BibTeX warns for LaTeX's `\\nocite` (those stay `undefined`)."""
    known = set(bibliography.references) | {u.key for u in bibliography.unparsed if u.key}
    dropped = [
        finding(
            FindingKind.NOCITE_NOT_FOUND,
            "listed with nocite but in no bibliography: citeproc leaves it out of the "
            "reference list without a warning",
            key,
            where,
        )
        for key in keys
        if key not in known
    ]
    return [key for key in keys if key in known], dropped


def check_document(
    doc: pf.Doc,
    options: Options,
    *,
    sources: Sequence[SourceFile] = (),
    search_dirs: Sequence[Path] = (),
    verifier: Verifier | None = None,
    toolchain: ToolchainMetadata | None = None,
) -> DocumentCheck:
    """Run the pipeline over one pandoc document (a `panflute.Doc`: a writer's own panflute
    filter can pass the one it holds), with what its toolchain adds to its metadata
    (`toolchain`: none inside pandoc, which has merged it already); raises only for unusable
    input (an unreadable file), never for problems in the citations or a missing bibliography
    (a finding)."""
    toolchain = toolchain or ToolchainMetadata()
    extraction = extract_citations(doc, sources, toolchain.crossref_kinds)
    with Cache(options.cache) as cache:
        bibliography, missing = load_document_bibliography(
            doc, options, search_dirs, sources, cache, toolchain
        )
    nocite, nocite_all = nocite_keys(doc)
    nocite = list(dict.fromkeys([*toolchain.nocite, *nocite]))
    nocite_all = nocite_all or toolchain.nocite_all
    nocite, dropped = nocite_entries(
        nocite, bibliography, _field_location(sources[0] if sources else None, "nocite")
    )
    unmapped = (
        finding(
            FindingKind.UNMAPPED,
            "citation could not be mapped to a line of the source",
            c.key,
            c.location,
            c.ident,
        )
        for c in extraction.unmapped
    )
    comma_joined = (
        finding(
            FindingKind.COMMA_SEPARATED_KEYS,
            f"[@{outer},@{c.key}] joins keys with a comma, so pandoc reads @{c.key} as part of "
            f"@{outer}'s locator: separate them with a semicolon, [@{outer}; @{c.key}]",
            c.key,
            c.location,
            c.ident,
        )
        for outer, c in extraction.comma_joined
    )
    result = check_citations(
        extraction.citations,
        bibliography,
        options,
        verifier,
        documents=tuple(s.name for s in sources) or ("<stdin>",),
        folder=Path(sources[0].name).parent if sources else Path.cwd(),
        nocite=(nocite, nocite_all),
        extra_findings=[*missing, *dropped, *unmapped, *comma_joined],
    )
    return DocumentCheck(result, extraction)


def read_markdown_document(path: Path) -> tuple[pf.Doc, tuple[SourceFile, ...]]:
    """The document pandoc reads for the Markdown file `path` and the files it was read from:
    a bookdown book's first file is the whole book, its chapters merged as bookdown merges
    them; any other file is itself (an R Markdown or Quarto file as knitr leaves it)."""
    chapters = book_chapters(path) or [path]
    doc = read_markdown_book(chapters) if len(chapters) > 1 else read_markdown(path)
    sources = tuple(
        SourceFile(str(c), as_knitr_reads(c, c.read_text(encoding="utf-8", errors="replace")))
        for c in (chapters if len(chapters) > 1 else [path])
    )
    return doc, sources


def check_markdown_file(
    path: Path, options: Options, verifier: Verifier | None = None
) -> DocumentCheck:
    """Read a Markdown/Quarto/R Markdown file with pandoc's reader (a bookdown book's first
    file with all its chapters) and check it."""
    doc, sources = read_markdown_document(path)
    return check_markdown_document(doc, path, options, verifier, sources=sources)


def check_markdown_document(
    doc: pf.Doc,
    path: Path,
    options: Options,
    verifier: Verifier | None = None,
    toolchain: ToolchainMetadata | None = None,
    sources: Sequence[SourceFile] = (),
) -> DocumentCheck:
    """Check a document pandoc read from the Markdown file `path` (for line numbers and the
    folder bibliographies are found in; `sources` when it was read from several files, a
    book's chapters) as its toolchain renders it: with `toolchain`, or what
    `document_toolchain` reads of its project files."""
    if not sources:
        text = path.read_text(encoding="utf-8", errors="replace")
        sources = (SourceFile(str(path), as_knitr_reads(path, text)),)
    if toolchain is None:
        toolchain = document_toolchain(path)
        for problem in toolchain.problems:  # one line each; the document is still checked
            logger.warning("%s", problem)
    return check_document(
        doc,
        options,
        sources=sources,
        search_dirs=(path.parent,),
        verifier=verifier,
        toolchain=toolchain,
    )


def document_toolchain(path: Path, metadata_files: Sequence[Path] = ()) -> ToolchainMetadata:
    """What the toolchain of the Markdown file `path` adds to its own metadata: Quarto's
    project, R Markdown's output options, bookdown's first file (its front matter's `format:`
    and `output:` read as those tools read them: YAML, after knitr), and the `metadata_files`
    given as to pandoc's `--metadata-file`."""
    text = path.read_text(encoding="utf-8", errors="replace")
    args = [a for f in metadata_files for a in ("--metadata-file", str(f))]
    return toolchain_metadata(path, front_matter_values(as_knitr_reads(path, text)), args)
