"""Annotated drafts: each flagged citation decorated in the output format's own way.

LaTeX/PDF gets margin notes, HTML a highlighted span with a tooltip, docx a Word comment; other
formats are left unchanged. Only findings at warning level or above are shown in the document.
"""

from __future__ import annotations

import importlib

import panflute as pf

from citecore.annotate.checked import DocumentCheck
from citecore.annotate.flags import flags_for

_LATEX_FORMATS = {"latex", "beamer", "pdf"}
_HTML_FORMATS = {
    "html",
    "html4",
    "html5",
    "revealjs",
    "slidy",
    "slideous",
    "dzslides",
    "s5",
    "epub",
    "epub2",
    "epub3",
    "chunkedhtml",
}
_DOCX_FORMATS = {"docx"}


def output_family(output_format: str) -> str | None:
    """'latex', 'html' or 'docx' for a pandoc output format name, None for anything else."""
    base = output_format.split("+")[0].split("-")[0].lower()
    if base in _LATEX_FORMATS:
        return "latex"
    if base in _HTML_FORMATS:
        return "html"
    if base in _DOCX_FORMATS:
        return "docx"
    return None


def annotate(doc: pf.Doc, check: DocumentCheck, output_format: str) -> int:
    """Decorate every flagged citation of `doc` (changed in place) for
    `output_format`; return how many."""
    family = output_family(output_format)
    if family is None:
        return 0
    flagged = flags_for(check)
    # Each format's writer is loaded for its own format only: a build writes one.
    importlib.import_module(f"citecore.annotate.{family}").annotate(doc, flagged)
    return len(flagged)
