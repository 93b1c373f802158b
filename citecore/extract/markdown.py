"""Citations from pandoc's JSON AST, with claim sentences, footnotes and source lines.

The walk keeps document order: a paragraph's citations come in reading order, and a footnote's
citations come where the note is referenced, numbered as pandoc numbers notes. Each Cite element
is kept beside its citations, with the inline list holding it, so that annotation can later
decorate exactly that element.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from citecore.extract.locate import LineMatcher, Region, SourceFile, SourceIndex
from citecore.extract.markdown_text import (
    CITE_MARK,
    citation_mode,
    citations_of,
    claim_for,
    inline_text,
    render_cite,
    substitute_marks,
)
from citecore.extract.sentences import sentence_spans
from citecore.extract.signals import locator_of, signal_of
from citecore.model import Citation, CitationContext, CitationMode, SourceLocation
from citecore.pandoc.ast import Node, inline_content, is_space, metadata, stringify, text_of

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


@dataclass(frozen=True, slots=True, eq=False)
class CiteGroup:
    """One Cite element, the inline list holding it, and the citation records made from it
    (same order as its keys)."""

    element: Node
    container: list[Node]
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

    def blocks(self, blocks: Iterable[Node], context: _Context) -> None:
        for block in blocks:
            self.block(block, context)

    def block(self, block: Node, context: _Context) -> None:
        tag: str = block.get("t", "")
        content: Any = block.get("c")
        in_list = _Context(CitationContext.LIST, context.note_number)
        if tag in ("Para", "Plain"):
            self.inline_container(content, context)
        elif tag == "Header":
            self.inline_container(
                content[2], _Context(CitationContext.HEADING, context.note_number)
            )
        elif tag == "LineBlock":
            for line in content:
                self.inline_container(line, context)
        elif tag == "Table":
            self.table(content, context)
        elif tag == "Figure":
            caption = content[1]
            self.caption(caption, context)
            outer, self.in_captioned_figure = self.in_captioned_figure, bool(caption[1])
            try:
                self.blocks(content[2], context)
            finally:
                self.in_captioned_figure = outer
        elif tag == "BlockQuote":
            self.blocks(content, _Context(CitationContext.QUOTE, context.note_number))
        elif tag == "BulletList":
            for item in content:
                self.blocks(item, in_list)
        elif tag == "OrderedList":
            for item in content[1]:
                self.blocks(item, in_list)
        elif tag == "DefinitionList":
            for term, definitions in content:
                self.inline_container(term, in_list)
                for definition in definitions:
                    self.blocks(definition, in_list)
        elif tag == "Div":
            self.blocks(content[1], context)

    def caption(self, caption: list[Any], context: _Context) -> None:
        """A table's or figure's caption: `[short caption, blocks]`."""
        self.blocks(caption[1], _Context(CitationContext.CAPTION, context.note_number))

    def table(self, table: list[Any], context: _Context) -> None:
        """`[attr, caption, column specs, head, bodies, foot]`; a body's rows are its head
        rows, then its own."""
        self.caption(table[1], context)
        inner = _Context(CitationContext.TABLE, context.note_number)
        head, bodies, foot = table[3], table[4], table[5]
        rows = [*head[1]]
        for body in bodies:
            rows += [*body[2], *body[3]]
        rows += foot[1]
        for row in rows:
            for cell in row[1]:
                self.blocks(cell[4], inner)

    def inline_container(self, inlines: list[Node], context: _Context) -> None:
        """Text of one paragraph-like element; each Cite in it gets its claim sentence."""
        pieces: list[str] = []
        cites: list[tuple[int, Node, list[Node], bool]] = []
        notes: list[tuple[int, Node]] = []
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

    def note(self, note: Node, context: _Context) -> None:
        self.note_count += 1
        self.blocks(note["c"], _Context(CitationContext.NOTE, self.note_count))

    def _flatten(
        self,
        inlines: list[Node],
        pieces: list[str],
        cites: list[tuple[int, Node, list[Node], bool]],
        notes: list[tuple[int, Node]],
        position: int,
        in_image: bool,
    ) -> int:
        """Append the plain text of `inlines` to `pieces`, with a mark character where each
        (non-cross-ref) Cite sits; `position` is the text length so far; returns the new one."""
        for element in inlines:
            tag = element.get("t")
            if tag == "Cite":
                citations = citations_of(element)
                if all(is_crossref(c["citationId"]) for c in citations):
                    text = " ".join(f"@{c['citationId']}" for c in citations)
                else:
                    cites.append((position, element, inlines, in_image))
                    text = CITE_MARK
            elif tag == "Note":
                notes.append((position, element))
                continue
            elif is_space(element):
                text = " "
            elif tag == "Quoted":
                double = element["c"][0].get("t") == "DoubleQuote"
                pieces.append("“" if double else "‘")
                position = self._flatten(
                    element["c"][1], pieces, cites, notes, position + 1, in_image
                )
                text = "”" if double else "’"
            elif tag == "RawInline":
                continue
            else:
                leaf = text_of(element)
                if leaf is not None:
                    text = leaf
                else:
                    inner = inline_content(element)
                    if inner is None or (tag == "Image" and self.in_captioned_figure):
                        continue  # a leaf; or a captioned figure's image, a caption's copy
                    position = self._flatten(
                        inner, pieces, cites, notes, position, in_image or tag == "Image"
                    )
                    continue
            pieces.append(text)
            position += len(text)
        return position

    def cite(
        self,
        cite: Node,
        container: list[Node],
        context: _Context,
        claim: str,
        paragraph: str,
        outer: CiteGroup | None,
        in_image: bool,
    ) -> None:
        citations = citations_of(cite)
        keys = tuple(c["citationId"] for c in citations if not is_crossref(c["citationId"]))
        records = []
        for citation in citations:
            key = citation["citationId"]
            if is_crossref(key):
                continue
            location = self._location_for(key, context)
            prefix = inline_text(citation.get("citationPrefix", []))
            suffix = inline_text(citation.get("citationSuffix", []))
            record = Citation(
                key=key,
                mode=_MODES.get(citation_mode(citation), CitationMode.NORMAL),
                location=location or SourceLocation(self.file),
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
            if location is None and self.matcher is not None:
                self.unmapped.append(record)
            records.append(record)
        group = CiteGroup(cite, container, tuple(records), outer, in_image)
        self.groups.append(group)
        for citation in citations:
            for field in ("citationPrefix", "citationSuffix"):
                inlines = citation.get(field)
                if inlines:  # most citations have neither
                    self._nested(citation["citationId"], inlines, group, context, claim, paragraph)

    def _nested(
        self,
        key: str,
        inlines: list[Node],
        outer: CiteGroup,
        context: _Context,
        claim: str,
        paragraph: str,
        in_image: bool = False,
    ) -> None:
        """Citations pandoc read inside a prefix or suffix (`[@a,@b]`, `[see @a, p. 3, @b]`):
        read like any other, and remembered when a comma joined them to the one before."""
        for index, element in enumerate(inlines):
            if element.get("t") == "Cite":
                before = len(self.groups)
                self.cite(element, inlines, context, claim, paragraph, outer, in_image)
                if _after_comma(inlines[:index]):
                    self.comma_joined.extend((key, c) for c in self.groups[before].citations)
                continue
            inner = inline_content(element)
            if inner is not None:
                image = in_image or element.get("t") == "Image"
                self._nested(key, inner, outer, context, claim, paragraph, image)

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


def _after_comma(inlines: list[Node]) -> bool:
    """True when the inlines end with a comma (spaces aside): `@a,@b` or `@a, p. 3, @b`."""
    for element in reversed(inlines):
        tag = element.get("t")
        if tag in ("Space", "SoftBreak"):
            continue
        return tag == "Str" and str(element["c"]).endswith(",")
    return False


def _metadata_blocks(value: Node) -> Iterator[Node]:
    """Block-level containers inside a metadata value that may hold citations (e.g. `abstract`)."""
    tag: str = value.get("t", "")
    content: Any = value.get("c")
    if tag == "MetaInlines":
        yield {"t": "Plain", "c": content}
    elif tag == "MetaBlocks":
        yield from content
    elif tag == "MetaList":
        for item in content:
            yield from _metadata_blocks(item)
    elif tag == "MetaMap":
        for item in content.values():
            yield from _metadata_blocks(item)


_METADATA_SKIPPED = frozenset(
    {"references", "bibliography", "nocite", "citecheck", "header-includes"}
)


def extract_citations(doc: Node, sources: Sequence[SourceFile] = ()) -> MarkdownExtraction:
    """Every citation in `doc` (pandoc's JSON AST) in reading order, each with its claim
    sentence and source line.

    `sources` are the Markdown files the AST was read from; without them places are unknown.
    Metadata fields such as `abstract` are read too; `nocite`, `references` and the bibliography
    settings are not (they name keys but cite nothing in the text).
    """
    matcher = LineMatcher(SourceIndex.build(sources)) if sources else None
    walker = _Walker(sources[0].name if sources else "<stdin>", matcher)
    for name, value in metadata(doc).items():
        if name not in _METADATA_SKIPPED:
            walker.blocks(_metadata_blocks(value), _Context(CitationContext.METADATA))
    walker.blocks(doc["blocks"], _Context())
    return MarkdownExtraction(
        tuple(walker.groups), tuple(walker.unmapped), tuple(walker.comma_joined)
    )


def nocite_keys(doc: Node) -> tuple[list[str], bool]:
    """Keys named in the `nocite` metadata, and whether it includes everything (`@*`)."""
    nocite = metadata(doc).get("nocite")
    if nocite is None:
        return [], False
    keys: list[str] = []
    star = False
    walker = _Walker("<nocite>", None)
    walker.blocks(_metadata_blocks(nocite), _Context(CitationContext.METADATA))
    for group in walker.groups:
        for citation in citations_of(group.element):
            if citation["citationId"] == "*":
                star = True
            else:
                keys.append(citation["citationId"])
    text = stringify(_metadata_blocks(nocite))
    star = star or "@*" in text
    return keys, star
