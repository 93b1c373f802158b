"""What the shells call: one entry per job, each one pipeline from its input to a CheckResult
(extract → load bibliography → verify → fetch → ground → policy; emitting is the caller's).

- a Markdown, R Markdown or Quarto document: `check_markdown_file` (a path), or
  `check_document` (pandoc's AST already read, as the filter has it);
- a LaTeX project from its main file: `check_latex_file`;
- citations already extracted (the language server's live text): `check_citations`;
- bibliographies and reference lists on their own: `verify_files`, `verify_bibliography`;
  one reference given on the command line: `verify_one`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citecore.lazy import load_public

if TYPE_CHECKING:
    from citecore.api.bibliography import verify_bibliography, verify_files, verify_one
    from citecore.api.latex import check_latex_file
    from citecore.api.markdown import (
        check_document,
        check_markdown_document,
        check_markdown_file,
    )
    from citecore.api.pipeline import check_citations

# Where each entry lives; a shell loads only the job it runs (the filter needs no LaTeX reader
# and no reference-list parser, whose patterns cost a build ~20 ms to compile).
_HOMES = {
    "check_citations": "citecore.api.pipeline",
    "check_document": "citecore.api.markdown",
    "check_latex_file": "citecore.api.latex",
    "check_markdown_document": "citecore.api.markdown",
    "check_markdown_file": "citecore.api.markdown",
    "verify_bibliography": "citecore.api.bibliography",
    "verify_files": "citecore.api.bibliography",
    "verify_one": "citecore.api.bibliography",
}

__all__ = [
    "check_citations",
    "check_document",
    "check_latex_file",
    "check_markdown_document",
    "check_markdown_file",
    "verify_bibliography",
    "verify_files",
    "verify_one",
]


def __getattr__(name: str) -> Any:
    """An entry, loaded from its module when first asked for."""
    return load_public(__name__, _HOMES, name)
