"""The readable text of pandoc's inlines: a citation as its author typed it (`[see @a, p. 3]`),
and the claim sentence around the place a citation sits in a paragraph."""

from __future__ import annotations

import re
from collections.abc import Iterable

import panflute as pf

CITE_MARK = "\ue000"  # a private-use character marks where a Cite sits in paragraph text

SPACES = (pf.Space, pf.SoftBreak, pf.LineBreak)
# Inline elements holding text, and those holding inlines (a Note holds blocks: not here).
TEXT_INLINES = (pf.Str, pf.Code, pf.Math)
INLINE_HOLDERS = (pf.Emph, pf.Underline, pf.Strong, pf.Strikeout, pf.Superscript, pf.Subscript,
                  pf.SmallCaps, pf.Quoted, pf.Cite, pf.Link, pf.Image, pf.Span)  # fmt: skip


def inline_text(inlines: Iterable[pf.Element]) -> str:
    """Plain text of a citation prefix or suffix, non-breaking spaces made plain."""
    if not inlines:  # most citations have neither
        return ""
    pieces: list[str] = []
    _plain_text(inlines, pieces)
    return "".join(pieces).replace("\u00a0", " ").strip()


def _plain_text(inlines: Iterable[pf.Element], pieces: list[str]) -> None:
    """Append the text of inline elements to `pieces`: a Cite as typed, notes and raw
    inlines left out."""
    for element in inlines:
        if isinstance(element, pf.Cite):
            pieces.append(render_cite(element))
        elif isinstance(element, SPACES):
            pieces.append(" ")
        elif isinstance(element, TEXT_INLINES):
            pieces.append(element.text)
        elif isinstance(element, INLINE_HOLDERS):
            _plain_text(element.content, pieces)


def _stringify_citation(citation: pf.Citation) -> str:
    """A readable pandoc-Markdown form of one citation, for claim text."""
    prefix = inline_text(citation.prefix)
    suffix = inline_text(citation.suffix)
    marker = ("-@" if citation.mode == "SuppressAuthor" else "@") + citation.id
    return " ".join(part for part in (prefix, marker) if part) + (
        f", {suffix.lstrip(', ')}" if suffix else ""
    )


def render_cite(cite: pf.Cite) -> str:
    """The Cite as its author typed it: `@key` in text, `[see @a; @b, p. 3]` otherwise."""
    citations = cite.citations
    if len(citations) == 1 and citations[0].mode == "AuthorInText":
        return _stringify_citation(citations[0])
    return "[" + "; ".join(_stringify_citation(c) for c in citations) + "]"


def substitute_marks(text: str, rendered: list[str]) -> str:
    """Replace each Cite mark in `text` by the citation's readable form."""
    parts = text.split(CITE_MARK)
    out = [parts[0]]
    for part, cite_text in zip(parts[1:], rendered, strict=True):
        out.extend((cite_text, part))
    return " ".join("".join(out).split())


def claim_for(text: str, spans: list[tuple[int, int]], offset: int, rendered: list[str]) -> str:
    """The sentence holding the mark at `offset`; a sentence that is only citations borrows the one
    before it ("… as shown. [@a]")."""
    index = next((i for i, (s, e) in enumerate(spans) if s <= offset < e), len(spans) - 1)
    if index < 0:
        return ""
    while index > 0 and not re.search(r"\w", text[slice(*spans[index])].replace(CITE_MARK, "")):
        index -= 1
    start, end = spans[index]
    marks_before = text.count(CITE_MARK, 0, start)
    sentence = text[start:end]
    return substitute_marks(
        sentence, rendered[marks_before : marks_before + sentence.count(CITE_MARK)]
    )
