"""Margin notes for LaTeX/PDF output: the citation coloured, a short note in the margin.

`\\marginpar` is used in running text because LaTeX stacks margin pars so they never overlap; in
footnotes, tables and captions, where `\\marginpar` is not allowed, the note is set inline instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import panflute as pf

from citecore.annotate.elements import append_header_include, insert_around
from citecore.annotate.flags import Flag
from citecore.extract.markdown import CiteGroup
from citecore.model import CitationContext

_PREAMBLE = r"""\usepackage{xcolor}
\definecolor{citecheck-error}{HTML}{B71C1C}
\definecolor{citecheck-warning}{HTML}{A14D00}
\definecolor{citecheck-info}{HTML}{2E7D32}
\definecolor{citecheck-unconfirmed}{HTML}{757575}
\usepackage{silence}
\WarningFilter{latex}{Marginpar on page}
\DeclareRobustCommand{\citecheckMark}[2]{{\color{citecheck-#1}#2}}
\newcommand{\citecheckSafeChars}{\expandafter\def\csname UTFviii@undefined@err\endcsname##1{?}}
\DeclareRobustCommand{\citecheckNote}[2]{\marginpar{\citecheckSafeChars\raggedright\footnotesize
  \color{citecheck-#1}\textbf{citecheck:} #2}}
\DeclareRobustCommand{\citecheckInlineNote}[2]{{\citecheckSafeChars\footnotesize
  \color{citecheck-#1}\,[\textbf{citecheck:} #2]}}
"""
# silence: notes stacked in the margin are moved down on purpose; LaTeX's "Marginpar on page 1
# moved" for each would bury the build's real warnings.
# \citecheckSafeChars: a note quotes registry text ("α", "≤"); under pdfLaTeX a character the
# fonts do not know is shown as "?" in the note instead of an error that stops the build.
# A draft needs a margin wide enough to read; used only when the writer set no geometry.
_DRAFT_GEOMETRY = (
    "top=1in",
    "bottom=1in",
    "left=1in",
    "right=2.5in",
    "marginparwidth=2in",
    "marginparsep=0.2in",
)
_INLINE_CONTEXTS = {CitationContext.NOTE, CitationContext.TABLE, CitationContext.CAPTION}
# A note inside a heading would travel into the table of contents and PDF bookmarks.
_UNANNOTATED_CONTEXTS = {CitationContext.HEADING}
_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "^": r"\textasciicircum{}",
    "_": r"\_",
    "%": r"\%",
    "~": r"\textasciitilde{}",
}


def escape_latex(text: str) -> str:
    """`text` safe to typeset in LaTeX: special characters escaped."""
    return "".join(_SPECIALS.get(char, char) for char in text)


def annotate(doc: pf.Doc, flagged: Sequence[tuple[CiteGroup, Flag]]) -> None:
    """Colour each flagged citation and put its note in the margin (inline where no margin
    note is allowed); add the preamble and, if the writer set none, a draft geometry."""
    if not flagged:
        return
    append_header_include(doc, pf.RawBlock(_PREAMBLE, "latex"))
    if "geometry" not in doc.metadata.content:
        doc.metadata["geometry"] = pf.MetaList(*(pf.MetaString(g) for g in _DRAFT_GEOMETRY))
    # Last first: what is inserted around a citation moves only the ones after it, which are
    # done by then, so each citation is still where extraction found it.
    for group, flag in reversed(flagged):
        level = flag.tone
        contexts = {c.context for c in group.citations}
        if contexts & _UNANNOTATED_CONTEXTS:
            continue
        command = "citecheckInlineNote" if contexts & _INLINE_CONTEXTS else "citecheckNote"
        note = pf.RawInline("}" + f"\\{command}{{{level}}}{{{escape_latex(flag.text())}}}", "latex")
        mark = pf.RawInline(f"\\citecheckMark{{{level}}}{{", "latex")
        insert_around(group.element, group.container, mark, note)
