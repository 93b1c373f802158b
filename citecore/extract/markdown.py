"""Citations from pandoc's document (panflute's `Doc`), with claim sentences, footnotes and
source lines.

The walk is one pass over the elements, in document order: a paragraph's citations come in
reading order, and a footnote's citations come where the note is referenced, numbered as pandoc
numbers notes. Each Cite element is kept beside its citations, with the inline list holding it,
so that annotation can later decorate exactly that element.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import panflute as pf

from citecore.extract.locate import LineMatcher, Region, SourceFile, SourceIndex
from citecore.extract.markdown_text import (
    CITE_MARK,
    INLINE_HOLDERS,
    SPACES,
    TEXT_INLINES,
    claim_for,
    inline_text,
    render_cite,
    substitute_marks,
)
from citecore.extract.sentences import sentence_spans
from citecore.extract.signals import locator_of, signal_of
from citecore.model import Citation, CitationContext, CitationId, CitationMode, SourceLocation
from citecore.pandoc.document import metadata_fields, metadata_value
from citecore.pandoc.metadata_layers import custom_crossref_kinds

# Quarto (`@fig-x`) and pandoc-crossref (`@fig:x`) cross-references look like citations but are not;
# nor are Quarto's (1.4+) references to callouts (`@tip-x`, `@nte-x`, `@wrn-x`, `@imp-x`, `@cau-x`).
_CROSSREF = re.compile(
    r"^(?:(?:fig|tbl|sec|eq|lst|thm|lem|cor|prp|cnj|def|exm|exr|sol|rem|alg|apx|tab|chp)[-:]"
    r"|(?:tip|nte|wrn|imp|cau)-)"
)

_MODES = {
    "NormalCitation": CitationMode.NORMAL,
    "AuthorInText": CitationMode.AUTHOR_IN_TEXT,
    "SuppressAuthor": CitationMode.SUPPRESS_AUTHOR,
}


def is_crossref(key: str) -> bool:
    """True for Quarto / pandoc-crossref cross-reference ids, which are not citations."""
    return bool(_CROSSREF.match(key))


@dataclass(frozen=True, slots=True, eq=False)
class CiteGroup:
    """One Cite element, the inline list holding it, and the citation records made from it
    (same order as its keys)."""

    element: pf.Cite
    container: pf.ListContainer
    citations: tuple[Citation, ...]
    # The Cite whose prefix or suffix holds this one (`[@a,@b]`): citeproc renders this one
    # as part of it.
    outer: CiteGroup | None = None
    # Inside an image's alt text, which a reader never sees as text.
    in_image: bool = False

    def shown_as(self) -> CiteGroup | None:
        """The Cite a reader sees this one as: the outermost Cite holding it, itself when none
        does; None inside an image's alt text, where it is never shown."""
        group = self
        while group.outer is not None:
            group = group.outer
        return None if group.in_image or self.in_image else group


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

    def __init__(
        self, file: str, matcher: LineMatcher | None, crossref_kinds: frozenset[str] = frozenset()
    ) -> None:
        self.file = file
        self.matcher = matcher
        self.crossref_kinds = crossref_kinds
        self.groups: list[CiteGroup] = []
        self.unmapped: list[Citation] = []
        self.comma_joined: list[tuple[str, Citation]] = []
        self.note_count = 0
        self.ordinal = 0  # the next citation's place in reading order
        # Inside a figure with a caption, pandoc 3 repeats the caption as the image's alt
        # text: the alt text's citations are the caption's, read once.
        self.in_captioned_figure = False

    def is_crossref(self, key: str) -> bool:
        """A cross-reference, Quarto's own kinds or the document's custom ones (`@dino-x`)."""
        return is_crossref(key) or key.split("-", 1)[0] in self.crossref_kinds

    def blocks(self, blocks: Iterable[pf.Element], context: _Context) -> None:
        for block in blocks:
            self.block(block, context)

    def block(self, block: pf.Element, context: _Context) -> None:
        in_list = _Context(CitationContext.LIST, context.note_number)
        if isinstance(block, (pf.Para, pf.Plain)):
            self.inline_container(block.content, context)
        elif isinstance(block, pf.Header):
            heading = _Context(CitationContext.HEADING, context.note_number)
            self.inline_container(block.content, heading)
        elif isinstance(block, pf.LineBlock):
            for line in block.content:
                self.inline_container(line.content, context)
        elif isinstance(block, pf.Table):
            self.table(block, context)
        elif isinstance(block, pf.Figure):
            self.caption(block.caption, context)
            outer = self.in_captioned_figure
            self.in_captioned_figure = bool(block.caption and block.caption.content)
            try:
                self.blocks(block.content, context)
            finally:
                self.in_captioned_figure = outer
        elif isinstance(block, pf.BlockQuote):
            self.blocks(block.content, _Context(CitationContext.QUOTE, context.note_number))
        elif isinstance(block, (pf.BulletList, pf.OrderedList)):
            for item in block.content:
                self.blocks(item.content, in_list)
        elif isinstance(block, pf.DefinitionList):
            for item in block.content:
                self.inline_container(item.term, in_list)
                for definition in item.definitions:
                    self.blocks(definition.content, in_list)
        elif isinstance(block, pf.Div):
            self.blocks(block.content, context)

    def caption(self, caption: pf.Caption | None, context: _Context) -> None:
        """A table's or figure's caption (its blocks; the short caption is the list's)."""
        if caption is not None:
            self.blocks(caption.content, _Context(CitationContext.CAPTION, context.note_number))

    def table(self, table: pf.Table, context: _Context) -> None:
        """The caption, then the rows: the head's, each body's intermediate head and own
        rows, the foot's."""
        self.caption(table.caption, context)
        inner = _Context(CitationContext.TABLE, context.note_number)
        rows = [*table.head.content] if table.head is not None else []
        for body in table.content:
            rows += [*body.head, *body.content]
        rows += table.foot.content if table.foot is not None else []
        for row in rows:
            for cell in row.content:
                self.blocks(cell.content, inner)

    def meta(self, value: pf.MetaValue, context: _Context) -> None:
        """The text inside a metadata value (an `abstract`, a `title`)."""
        if isinstance(value, pf.MetaInlines):
            self.inline_container(value.content, context)
        elif isinstance(value, pf.MetaBlocks):
            self.blocks(value.content, context)
        elif isinstance(value, pf.MetaList):
            for item in value.content:
                self.meta(item, context)
        elif isinstance(value, pf.MetaMap):
            for item in value.content.values():
                self.meta(item, context)

    def inline_container(self, inlines: pf.ListContainer, context: _Context) -> None:
        """Text of one paragraph-like element; each Cite in it gets its claim sentence."""
        pieces: list[str] = []
        cites: list[tuple[int, pf.Cite, pf.ListContainer, bool]] = []
        notes: list[tuple[int, pf.Note]] = []
        self._flatten(inlines, pieces, cites, notes, 0, False)
        text = "".join(pieces)
        rendered = [render_cite(cite) for _, cite, _, _ in cites]
        paragraph = substitute_marks(text, rendered)
        spans = sentence_spans(text)
        note_iter = iter(notes)
        pending_note = next(note_iter, None)
        for offset, cite, container, in_image in cites:
            # Notes referenced before this citation are walked first, keeping reading order.
            while pending_note is not None and pending_note[0] <= offset:
                self.note(pending_note[1], context)
                pending_note = next(note_iter, None)
            claim = claim_for(text, spans, offset, rendered)
            self.cite(cite, container, context, claim, paragraph, None, in_image)
        while pending_note is not None:
            self.note(pending_note[1], context)
            pending_note = next(note_iter, None)

    def note(self, note: pf.Note, context: _Context) -> None:
        self.note_count += 1
        self.blocks(note.content, _Context(CitationContext.NOTE, self.note_count))

    def _flatten(
        self,
        inlines: pf.ListContainer,
        pieces: list[str],
        cites: list[tuple[int, pf.Cite, pf.ListContainer, bool]],
        notes: list[tuple[int, pf.Note]],
        position: int,
        in_image: bool,
    ) -> int:
        """Append the plain text of `inlines` to `pieces`, with a mark character where each
        (non-cross-ref) Cite sits; `position` is the text length so far; returns the new one."""
        for element in inlines:
            if isinstance(element, TEXT_INLINES):
                text = element.text
            elif isinstance(element, SPACES):
                text = " "
            elif isinstance(element, pf.Cite):
                ids = [c.id for c in element.citations]
                if all(self.is_crossref(key) for key in ids):
                    text = " ".join(f"@{key}" for key in ids)
                else:
                    cites.append((position, element, inlines, in_image))
                    text = CITE_MARK
            elif isinstance(element, pf.Note):
                notes.append((position, element))
                continue
            elif isinstance(element, pf.Quoted):
                double = element.quote_type == "DoubleQuote"
                pieces.append("“" if double else "‘")
                position = self._flatten(
                    element.content, pieces, cites, notes, position + 1, in_image
                )
                text = "”" if double else "’"
            elif isinstance(element, INLINE_HOLDERS):
                image = isinstance(element, pf.Image)
                if image and self.in_captioned_figure:
                    continue  # a captioned figure's image: its alt text is the caption's copy
                position = self._flatten(
                    element.content, pieces, cites, notes, position, in_image or image
                )
                continue
            else:
                continue  # raw output, or a leaf with no text
            pieces.append(text)
            position += len(text)
        return position

    def cite(
        self,
        cite: pf.Cite,
        container: pf.ListContainer,
        context: _Context,
        claim: str,
        paragraph: str,
        outer: CiteGroup | None,
        in_image: bool,
    ) -> None:
        citations = list(cite.citations)
        keys = tuple(c.id for c in citations if not self.is_crossref(c.id))
        records = []
        for citation in citations:
            key = citation.id
            if self.is_crossref(key):
                continue
            location = self._location_for(key, context)
            prefix = inline_text(citation.prefix)
            suffix = inline_text(citation.suffix)
            record = Citation(
                key=key,
                mode=_MODES.get(citation.mode, CitationMode.NORMAL),
                location=location or SourceLocation(self.file),
                ident=CitationId(self.file, self.ordinal),
                prefix=prefix,
                suffix=suffix,
                locator=locator_of(suffix),
                signal=signal_of(prefix),
                claim=claim,
                paragraph=paragraph,
                note_number=context.note_number,
                cited_with=tuple(k for k in keys if k != key),
                context=context.kind,
            )
            self.ordinal += 1
            if location is None and self.matcher is not None:
                self.unmapped.append(record)
            records.append(record)
        group = CiteGroup(cite, container, tuple(records), outer, in_image)
        self.groups.append(group)
        for citation in citations:
            for inlines in (citation.prefix, citation.suffix):
                if inlines:  # most citations have neither
                    self._nested(citation.id, inlines, group, context, claim, paragraph)

    def _nested(
        self,
        key: str,
        inlines: pf.ListContainer,
        outer: CiteGroup,
        context: _Context,
        claim: str,
        paragraph: str,
        in_image: bool = False,
    ) -> None:
        """Citations pandoc read inside a prefix or suffix (`[@a,@b]`, `[see @a, p. 3, @b]`):
        read like any other, and remembered when a comma joined them to the one before."""
        after_comma = False  # the inlines so far end with a comma (spaces aside)
        for element in inlines:
            if isinstance(element, pf.Cite):
                before = len(self.groups)
                self.cite(element, inlines, context, claim, paragraph, outer, in_image)
                if after_comma:
                    self.comma_joined.extend((key, c) for c in self.groups[before].citations)
            elif isinstance(element, INLINE_HOLDERS):
                image = in_image or isinstance(element, pf.Image)
                self._nested(key, element.content, outer, context, claim, paragraph, image)
            if not isinstance(element, (pf.Space, pf.SoftBreak)):
                after_comma = isinstance(element, pf.Str) and element.text.endswith(",")

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


_METADATA_SKIPPED = frozenset(
    {"references", "bibliography", "nocite", "citecheck", "header-includes"}
)


def extract_citations(
    doc: pf.Doc, sources: Sequence[SourceFile] = (), crossref_kinds: Iterable[str] = ()
) -> MarkdownExtraction:
    """Every citation in `doc` in reading order, each with its claim sentence and source line.

    `sources` are the Markdown files the document was read from; without them places are
    unknown. Metadata fields such as `abstract` are read too; `nocite`, `references` and the
    bibliography settings are not (they name keys but cite nothing in the text). Quarto's
    cross-references are no citations: its own kinds, the custom kinds of the document's
    `crossref:` metadata and `crossref_kinds` (its project's).
    """
    matcher = LineMatcher(SourceIndex.build(sources)) if sources else None
    kinds = custom_crossref_kinds(metadata_value(doc, "crossref")) | frozenset(crossref_kinds)
    walker = _Walker(sources[0].name if sources else "<stdin>", matcher, kinds)
    for name, value in metadata_fields(doc).items():
        if name not in _METADATA_SKIPPED:
            walker.meta(value, _Context(CitationContext.METADATA))
    walker.blocks(doc.content, _Context())
    return MarkdownExtraction(
        tuple(walker.groups), tuple(walker.unmapped), tuple(walker.comma_joined)
    )


def nocite_keys(doc: pf.Doc) -> tuple[list[str], bool]:
    """Keys named in the `nocite` metadata, and whether it includes everything (`@*`)."""
    nocite = metadata_fields(doc).get("nocite")
    if nocite is None:
        return [], False
    keys: list[str] = []
    star = False
    walker = _Walker("<nocite>", None)
    walker.meta(nocite, _Context(CitationContext.METADATA))
    for group in walker.groups:
        for citation in group.element.citations:
            if citation.id == "*":
                star = True
            else:
                keys.append(citation.id)
    star = star or "@*" in pf.stringify(nocite)
    return keys, star
