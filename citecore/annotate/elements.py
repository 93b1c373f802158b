"""Small edits of pandoc's document that every format's annotation makes."""

from __future__ import annotations

import panflute as pf


def append_header_include(doc: pf.Doc, block: pf.Block) -> None:
    """Add `block` to `header-includes`, keeping whatever the writer put there."""
    fields = doc.metadata.content
    existing = fields.get("header-includes")
    items: list[pf.MetaValue] = []
    if isinstance(existing, pf.MetaList):
        items.extend(existing.content)
    elif existing is not None:
        items.append(existing)
    items.append(pf.MetaBlocks(block))
    doc.metadata["header-includes"] = pf.MetaList(*items)


def place_of(element: pf.Element, container: pf.ListContainer) -> int:
    """The index of `element` itself in `container`. panflute sets an element's `index` when
    it is read from its container, as extraction read it: that place is taken when it still
    holds the element, else the container is searched by identity (panflute compares elements
    by content, and an equal copy earlier in the paragraph must not answer for it)."""
    known = element.index
    if isinstance(known, int) and known < len(container) and container[known] is element:
        return known
    for index, item in enumerate(container):
        if item is element:
            return index
    raise ValueError(f"{element.tag} is not in its container")


def insert_around(
    element: pf.Element,
    container: pf.ListContainer,
    before: pf.Inline | None,
    after: pf.Inline | None,
) -> None:
    """Put inlines directly before and after `element` in `container`."""
    index = place_of(element, container)
    if after is not None:
        container.insert(index + 1, after)
    if before is not None:
        container.insert(index, before)
