"""A Markdown, R Markdown or Quarto document checked end to end: its bibliography found as pandoc
finds it, its citations read from pandoc's AST (after knitr's rules), then the shared pipeline."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import panflute as pf

from citecore.annotate.checked import DocumentCheck
from citecore.api.pipeline import check_citations
from citecore.bib.loader import load_bibliographies, resolve_bibliography
from citecore.cache import Cache
from citecore.extract.locate import SourceFile
from citecore.extract.markdown import extract_citations, nocite_keys
from citecore.findings import (
    finding,
)
from citecore.model import (
    Bibliography,
    FindingKind,
)
from citecore.options import Options
from citecore.pandoc.document import metadata_value
from citecore.pandoc.knitr import as_knitr_reads
from citecore.pandoc.reader import read_markdown
from citecore.verify import Verifier

logger = logging.getLogger(__name__)


def _as_names(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value]


def load_document_bibliography(
    doc: pf.Doc,
    options: Options,
    search_dirs: Sequence[Path],
    sources: Sequence[SourceFile],
    cache: Cache | None = None,
) -> Bibliography:
    """Every bibliography the document names, then its inline `references:`; relative paths
    are tried as given, then under `search_dirs`. Bibliographies given as options replace the
    document's `bibliography:`, as pandoc's `--bibliography` does."""
    names = list(options.bibliographies) or _as_names(metadata_value(doc, "bibliography"))
    named_by = sources[0].name if sources and not options.bibliographies else None
    paths = list(dict.fromkeys(resolve_bibliography(n, search_dirs, named_by) for n in names))
    inline = metadata_value(doc, "references", [])
    return load_bibliographies(
        paths,
        inline if isinstance(inline, list) else [],
        inline_file=sources[0].name if sources else "<metadata>",
        inline_text=sources[0].text if sources else None,
        cache=cache,
    )


def check_document(
    doc: pf.Doc,
    options: Options,
    *,
    sources: Sequence[SourceFile] = (),
    search_dirs: Sequence[Path] = (),
    verifier: Verifier | None = None,
) -> DocumentCheck:
    """Run the pipeline over one pandoc document (a `panflute.Doc`: a writer's own panflute
    filter can pass the one it holds); raises only for unusable input (a missing bibliography,
    an unreadable file), never for problems in the citations."""
    extraction = extract_citations(doc, sources)
    with Cache(options.cache) as cache:
        bibliography = load_document_bibliography(doc, options, search_dirs, sources, cache)
    nocite, nocite_all = nocite_keys(doc)
    unmapped = (
        finding(
            FindingKind.UNMAPPED,
            "citation could not be mapped to a line of the source",
            c.key,
            c.location,
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
        extra_findings=[*unmapped, *comma_joined],
    )
    return DocumentCheck(result, extraction)


def check_markdown_file(
    path: Path, options: Options, verifier: Verifier | None = None
) -> DocumentCheck:
    """Read a Markdown/Quarto/R Markdown file with pandoc's reader and check it."""
    return check_markdown_document(read_markdown(path), path, options, verifier)


def check_markdown_document(
    doc: pf.Doc, path: Path, options: Options, verifier: Verifier | None = None
) -> DocumentCheck:
    """Check a document pandoc read from the Markdown file `path` (for line numbers and the
    folder bibliographies are found in)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    source = SourceFile(str(path), as_knitr_reads(path, text))
    return check_document(
        doc, options, sources=(source,), search_dirs=(path.parent,), verifier=verifier
    )
