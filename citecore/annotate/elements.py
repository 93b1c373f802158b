"""Small edits of a pandoc AST that every format's annotation makes."""

from __future__ import annotations

import panflute as pf


def append_header_include(doc: pf.Doc, block: pf.Block) -> None:
    """Add `block` to `header-includes`, keeping whatever the writer put there."""
    existing = doc.metadata.content.get("header-includes")
    items: list[pf.MetaValue] = []
    if isinstance(existing, pf.MetaList):
        items.extend(existing.content)
    elif existing is not None:
        items.append(existing)
    items.append(pf.MetaBlocks(block))
    doc.metadata["header-includes"] = pf.MetaList(*items)


def place_of(element: pf.Element) -> tuple[pf.ListContainer, int]:
    """The container holding `element` itself and its index there. panflute's own `index`
    compares elements by value, field by field: slow, and an equal copy earlier in the
    paragraph would answer for this one."""
    container = element.container
    for index, item in enumerate(container.list):
        if item is element:
            return container, index
    raise ValueError(f"{element.tag} is not in its container")


def insert_around(element: pf.Element, before: pf.Element | None, after: pf.Element | None) -> None:
    """Put inlines directly before and after `element` in its container."""
    container, index = place_of(element)
    if after is not None:
        container.insert(index + 1, after)
    if before is not None:
        container.insert(index, before)
