"""Citations from a pandoc AST (panflute), with claim sentences, footnotes and source lines.

The walk keeps document order: a paragraph's citations come in reading order, and a footnote's
citations come where the note is referenced, numbered as pandoc numbers notes. Each `pf.Cite`
element is kept beside its citations so that annotation can later decorate exactly that element.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import panflute as pf

from citecore.extract.locate import LineMatcher, Region, SourceFile, SourceIndex
from citecore.extract.markdown_text import (
    CITE_MARK,
    attached,
    claim_for,
    inline_text,
    render_cite,
    substitute_marks,
)
from citecore.extract.sentences import sentence_spans
from citecore.extract.signals import locator_of, signal_of
from citecore.model import Citation, CitationContext, CitationMode, SourceLocation

# Quarto (`@fig-x`) and pandoc-crossref (`@fig:x`) cross-references look like citations but are not.
_CROSSREF = re.compile(
    r"^(?:fig|tbl|sec|eq|lst|thm|lem|cor|prp|cnj|def|exm|exr|sol|rem|alg|apx|tab|chp)[-:]"
)

_MODES = {
    "NormalCitation": CitationMode.NORMAL,
    "AuthorInText": CitationMode.AUTHOR_IN_TEXT,
    "SuppressAuthor": CitationMode.SUPPRESS_AUTHOR,
}


def is_crossref(key: str) -> bool:
    """True for Quarto / pandoc-crossref cross-reference ids, which are not citations."""
    return bool(_CROSSREF.match(key))


@dataclass(frozen=True, slots=True)
class CiteGroup:
    """One `pf.Cite` element and the citation records made from it (same order as its keys)."""

    element: pf.Cite
    citations: tuple[Citation, ...]


@dataclass(frozen=True, slots=True)
class MarkdownExtraction:
    """What extraction found: every citation group in document order, and what did not map."""

    groups: tuple[CiteGroup, ...]
    unmapped: tuple[Citation, ...]
    # Citations pandoc read inside another's suffix because keys were joined by a comma
    # (`[@a,@b]`): cited all the same, but the writer meant `[@a; @b]`.
    # Each is (the key before the comma, the citation read into its suffix).
    comma_joined: tuple[tuple[str, Citation], ...] = ()

    @property
    def citations(self) -> tuple[Citation, ...]:
        """Every citation, flattened in document order."""
        return tuple(c for group in self.groups for c in group.citations)


@dataclass(frozen=True, slots=True)
class _Context:
    """Where the walk is: the kind of container and the footnote number, if inside one."""

    kind: CitationContext = CitationContext.BODY
    note_number: int | None = None


class _Walker:
    """One pass over a document, producing citation groups in reading order."""

    def __init__(self, file: str, matcher: LineMatcher | None) -> None:
        self.file = file
        self.matcher = matcher
        self.groups: list[CiteGroup] = []
        self.unmapped: list[Citation] = []
        self.comma_joined: list[tuple[str, Citation]] = []
        self.note_count = 0
        # Inside a figure with a caption, pandoc 3 repeats the caption as the image's alt
        # text: the alt text's citations are the caption's, read once.
        self.in_captioned_figure = False

    def blocks(self, blocks: Iterable[pf.Element], context: _Context) -> None:
        for block in attached(blocks):
            self.block(block, context)

    def block(self, block: pf.Element, context: _Context) -> None:
        if isinstance(block, (pf.Para, pf.Plain)):
            self.inline_container(block.content, context)
        elif isinstance(block, pf.Header):
            self.inline_container(
                block.content, _Context(CitationContext.HEADING, context.note_number)
            )
        elif isinstance(block, pf.LineBlock):
            for line in block.content:
                self.inline_container(line.content, context)
        elif isinstance(block, pf.Table):
            self.table(block, context)
        elif isinstance(block, pf.Figure):
            self.caption(block.caption, context)
            captioned = block.caption is not None and bool(block.caption.content)
            outer, self.in_captioned_figure = self.in_captioned_figure, captioned
            try:
                self.blocks(block.content, context)
            finally:
                self.in_captioned_figure = outer
        elif isinstance(block, pf.BlockQuote):
            self.blocks(block.content, _Context(CitationContext.QUOTE, context.note_number))
        elif isinstance(block, (pf.BulletList, pf.OrderedList)):
            for item in block.content:
                self.blocks(item.content, _Context(CitationContext.LIST, context.note_number))
        elif isinstance(block, pf.DefinitionList):
            for item in block.content:
                self.inline_container(
                    item.term, _Context(CitationContext.LIST, context.note_number)
                )
                for definition in item.definitions:
                    self.blocks(
                        definition.content, _Context(CitationContext.LIST, context.note_number)
                    )
        elif isinstance(block, pf.Div):
            self.blocks(block.content, context)

    def caption(self, caption: pf.Caption | None, context: _Context) -> None:
        if caption is not None:
            self.blocks(caption.content, _Context(CitationContext.CAPTION, context.note_number))

    def table(self, table: pf.Table, context: _Context) -> None:
        self.caption(table.caption, context)
        inner = _Context(CitationContext.TABLE, context.note_number)
        parts = [table.head, *table.content, table.foot]
        for part in parts:
            if part is None:
                continue
            rows = list(part.content)
            if isinstance(part, pf.TableBody):
                rows = list(part.head) + rows
            for row in rows:
                for cell in row.content:
                    self.blocks(cell.content, inner)

    def inline_container(self, inlines: Iterable[pf.Element], context: _Context) -> None:
        """Text of one paragraph-like element; each Cite in it gets its claim sentence."""
        pieces: list[str] = []
        cites: list[tuple[int, pf.Cite]] = []
        notes: list[tuple[int, pf.Note]] = []
        self._flatten(inlines, pieces, cites, notes)
        text = "".join(pieces)
        rendered = [render_cite(cite) for _, cite in cites]
        paragraph = substitute_marks(text, rendered)
        spans = sentence_spans(text)
        note_iter = iter(notes)
        pending_note = next(note_iter, None)
        for offset, cite in cites:
            # Notes referenced before this citation are walked first, keeping reading order.
            while pending_note is not None and pending_note[0] <= offset:
                self.note(pending_note[1], context)
                pending_note = next(note_iter, None)
            claim = claim_for(text, spans, offset, rendered)
            self.cite(cite, context, claim, paragraph)
        while pending_note is not None:
            self.note(pending_note[1], context)
            pending_note = next(note_iter, None)

    def note(self, note: pf.Note, context: _Context) -> None:
        self.note_count += 1
        self.blocks(note.content, _Context(CitationContext.NOTE, self.note_count))

    def _flatten(
        self,
        inlines: Iterable[pf.Element],
        pieces: list[str],
        cites: list[tuple[int, pf.Cite]],
        notes: list[tuple[int, pf.Note]],
        position: int = 0,
    ) -> int:
        """Append the plain text of `inlines` to `pieces`, with a mark character where each
        (non-cross-ref) Cite sits; `position` is the text length so far; returns the new one."""
        for element in attached(inlines):
            if isinstance(element, pf.Cite):
                if all(is_crossref(c.id) for c in element.citations):
                    text = " ".join(f"@{c.id}" for c in element.citations)
                else:
                    cites.append((position, element))
                    text = CITE_MARK
            elif isinstance(element, pf.Note):
                notes.append((position, element))
                continue
            elif isinstance(element, (pf.Space, pf.SoftBreak, pf.LineBreak)):
                text = " "
            elif isinstance(element, (pf.Str, pf.Code, pf.Math)):
                text = element.text
            elif isinstance(element, pf.Quoted):
                double = element.quote_type == "DoubleQuote"
                pieces.append("“" if double else "‘")
                position = self._flatten(element.content, pieces, cites, notes, position + 1)
                text = "”" if double else "’"
            elif self._unread(element):
                continue
            else:
                position = self._flatten(element.content, pieces, cites, notes, position)
                continue
            pieces.append(text)
            position += len(text)
        return position

    def _unread(self, element: pf.Element) -> bool:
        """Raw inlines and leaves hold no citation; a captioned figure's image holds a copy."""
        if isinstance(element, pf.RawInline) or not hasattr(element, "content"):
            return True
        return isinstance(element, pf.Image) and self.in_captioned_figure

    def cite(self, cite: pf.Cite, context: _Context, claim: str, paragraph: str) -> None:
        keys = tuple(c.id for c in cite.citations if not is_crossref(c.id))
        records = []
        for citation in cite.citations:
            if is_crossref(citation.id):
                continue
            location = self._location_for(citation.id, context)
            prefix, suffix = inline_text(citation.prefix), inline_text(citation.suffix)
            record = Citation(
                key=citation.id,
                mode=_MODES.get(citation.mode, CitationMode.NORMAL),
                location=location or SourceLocation(self.file),
                prefix=prefix,
                suffix=suffix,
                locator=locator_of(suffix),
                signal=signal_of(prefix),
                claim=claim,
                paragraph=paragraph,
                note_number=context.note_number,
                cited_with=tuple(k for k in keys if k != citation.id),
                context=context.kind,
            )
            if location is None and self.matcher is not None:
                self.unmapped.append(record)
            records.append(record)
        self.groups.append(CiteGroup(cite, tuple(records)))
        for citation in cite.citations:
            for inlines in (citation.prefix, citation.suffix):
                self._nested(citation.id, list(inlines), context, claim, paragraph)

    def _nested(
        self,
        outer: str,
        inlines: list[pf.Element],
        context: _Context,
        claim: str,
        paragraph: str,
    ) -> None:
        """Citations pandoc read inside a prefix or suffix (`[@a,@b]`, `[see @a, p. 3, @b]`):
        read like any other, and remembered when a comma joined them to the one before."""
        for index, element in enumerate(inlines):
            if isinstance(element, pf.Cite):
                before = len(self.groups)
                self.cite(element, context, claim, paragraph)
                if _after_comma(inlines[:index]):
                    self.comma_joined.extend((outer, c) for c in self.groups[before].citations)
            elif hasattr(element, "content") and not isinstance(element, pf.Note):
                self._nested(outer, list(element.content), context, claim, paragraph)

    def _location_for(self, key: str, context: _Context) -> SourceLocation | None:
        if self.matcher is None:
            return None
        if context.kind is CitationContext.METADATA:
            region = Region.METADATA
        elif context.note_number is not None:
            region = Region.NOTE_DEFINITION
        else:
            region = Region.BODY
        return self.matcher.take(key, region)


def _after_comma(inlines: list[pf.Element]) -> bool:
    """True when the inlines end with a comma (spaces aside): `@a,@b` or `@a, p. 3, @b`."""
    for element in reversed(inlines):
        if isinstance(element, (pf.Space, pf.SoftBreak)):
            continue
        return isinstance(element, pf.Str) and element.text.endswith(",")
    return False


def _metadata_inlines(value: pf.MetaValue) -> Iterator[pf.Element]:
    """Block-level containers inside a metadata value that may hold citations (e.g. `abstract`)."""
    if isinstance(value, pf.MetaInlines):
        yield pf.Plain(*value.content)
    elif isinstance(value, pf.MetaBlocks):
        yield from value.content
    elif isinstance(value, pf.MetaList):
        for item in value.content:
            yield from _metadata_inlines(item)
    elif isinstance(value, pf.MetaMap):
        for item in value.content.values():
            yield from _metadata_inlines(item)


_METADATA_SKIPPED = frozenset(
    {"references", "bibliography", "nocite", "citecheck", "header-includes"}
)


def extract_citations(doc: pf.Doc, sources: Sequence[SourceFile] = ()) -> MarkdownExtraction:
    """Every citation in `doc` in reading order, each with its claim sentence and source line.

    `sources` are the Markdown files the AST was read from; without them places are unknown.
    Metadata fields such as `abstract` are read too; `nocite`, `references` and the bibliography
    settings are not (they name keys but cite nothing in the text).
    """
    matcher = LineMatcher(SourceIndex.build(sources)) if sources else None
    walker = _Walker(sources[0].name if sources else "<stdin>", matcher)
    for name, value in doc.metadata.content.items():
        if name not in _METADATA_SKIPPED:
            walker.blocks(_metadata_inlines(value), _Context(CitationContext.METADATA))
    walker.blocks(doc.content, _Context())
    return MarkdownExtraction(
        tuple(walker.groups), tuple(walker.unmapped), tuple(walker.comma_joined)
    )


def nocite_keys(doc: pf.Doc) -> tuple[list[str], bool]:
    """Keys named in the `nocite` metadata, and whether it includes everything (`@*`)."""
    nocite = doc.get_metadata("nocite", builtin=False)
    if nocite is None:
        return [], False
    keys: list[str] = []
    star = False

    def collect(element: pf.Element, _doc: pf.Doc) -> None:
        nonlocal star
        if isinstance(element, pf.Cite):
            for citation in element.citations:
                if citation.id == "*":
                    star = True
                else:
                    keys.append(citation.id)

    nocite.walk(collect)
    text = pf.stringify(nocite)
    star = star or "@*" in text
    return keys, star
