"""The bibliography a LaTeX document writes itself: `\\bibitem` entries of an inline
`thebibliography` environment (or of the `.bbl` a BibTeX run left, when the `.bib` it came from
is not there).

LaTeX prints each item as written, so an item is what a reader of the PDF sees: its printed
text, decoded from LaTeX, read by the same reference-list parser as a PDF's list, under the key
`\\bibitem` gives it. It is then verified like any other entry."""

from __future__ import annotations

import re
from pathlib import Path

from citecore.bib.latex_text import decode_latex
from citecore.bib.reflist.refparse import parse_reference_text
from citecore.extract.latex_syntax import balanced_group, mask_ignored
from citecore.model import Reference, SourceLocation

_ENVIRONMENT = re.compile(
    r"\\begin\s*\{thebibliography\}(?P<body>.*?)(?:\\end\s*\{thebibliography\}|\Z)", re.DOTALL
)
_BIBITEM = re.compile(r"\\bibitem(?![A-Za-z@])")
# What separates an item's blocks in the styles' output; the printed text has a space there.
_LAYOUT = re.compile(r"\\(?:newblock|providecommand\s*\{\\natexlab\}[^\n]*|BIBentry\w*)\b")
_NATEXLAB = re.compile(r"\{\\natexlab\{([a-z])\}\}")


def _printed(latex: str) -> str:
    """An item's LaTeX as the text the PDF shows."""
    latex = _NATEXLAB.sub(r"\1", latex)
    return decode_latex(_LAYOUT.sub(" ", latex)).strip()


def bibitems(text: str, file: str) -> list[Reference]:
    """Every `\\bibitem[label]{key} text` of the `thebibliography` environments in one LaTeX
    file's `text` (comments and verbatim aside), each read into a Reference located at the
    line of its `\\bibitem`."""
    masked = mask_ignored(text)
    references: list[Reference] = []
    for environment in _ENVIRONMENT.finditer(masked):
        body_start = environment.start("body")
        body = environment.group("body")
        starts = [m for m in _BIBITEM.finditer(body)]
        for index, item in enumerate(starts):
            position = item.end()
            label = balanced_group(body, position, "[", "]")
            position = label[1] if label else position
            key = balanced_group(body, position, "{", "}")
            if key is None or not key[0].strip():
                continue
            end = starts[index + 1].start() if index + 1 < len(starts) else len(body)
            line = masked.count("\n", 0, body_start + item.start()) + 1
            reference = parse_reference_text(
                _printed(body[key[1] : end]), key[0].strip(), SourceLocation(file, line)
            )
            references.append(reference)
    return references


def bbl_bibitems(main: Path) -> list[Reference]:
    """The items of the `.bbl` beside a LaTeX main file (what a BibTeX run wrote and LaTeX
    reads), or none when there is no such file or it is biblatex's (it has no `\\bibitem`)."""
    bbl = main.with_suffix(".bbl")
    if not bbl.is_file():
        return []
    try:
        text = bbl.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        text = bbl.read_text(encoding="latin-1")
    except OSError:
        return []
    return bibitems(text, str(bbl))
