"""Small edits of pandoc's JSON AST that every format's annotation makes."""

from __future__ import annotations

from typing import Any

from citecore.pandoc.ast import Node

Attributes = list[tuple[str, str]]


def attr(classes: list[str] | None = None, attributes: Attributes | None = None) -> list[Any]:
    """Pandoc's `Attr`: no identifier, the classes, the key-value pairs."""
    return ["", classes or [], [list(pair) for pair in attributes or []]]


def span(inlines: list[Node], classes: list[str], attributes: Attributes) -> Node:
    """A Span around `inlines`."""
    return {"t": "Span", "c": [attr(classes, attributes), inlines]}


def raw_inline(text: str, fmt: str) -> Node:
    """Raw output for one format, inline."""
    return {"t": "RawInline", "c": [fmt, text]}


def raw_block(text: str, fmt: str) -> Node:
    """Raw output for one format, as a block."""
    return {"t": "RawBlock", "c": [fmt, text]}


def append_header_include(doc: Node, block: Node) -> None:
    """Add `block` to `header-includes`, keeping whatever the writer put there."""
    meta = doc.setdefault("meta", {})
    existing = meta.get("header-includes")
    items: list[Node] = []
    if isinstance(existing, dict) and existing.get("t") == "MetaList":
        items.extend(existing["c"])
    elif existing is not None:
        items.append(existing)
    items.append({"t": "MetaBlocks", "c": [block]})
    meta["header-includes"] = {"t": "MetaList", "c": items}


def place_of(element: Node, container: list[Node]) -> int:
    """The index of `element` itself in `container` (by identity: an equal copy earlier in the
    paragraph must not answer for it)."""
    for index, item in enumerate(container):
        if item is element:
            return index
    raise ValueError(f"{element.get('t')} is not in its container")


def insert_around(
    element: Node, container: list[Node], before: Node | None, after: Node | None
) -> None:
    """Put inlines directly before and after `element` in `container`."""
    index = place_of(element, container)
    if after is not None:
        container.insert(index + 1, after)
    if before is not None:
        container.insert(index, before)
