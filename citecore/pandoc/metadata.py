"""A document's citecheck options, as its pandoc metadata gives them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from citecore.pandoc.ast import Node, get_metadata, meta_value, metadata


def metadata_options(doc: Node) -> dict[str, Any]:
    """The document's citecheck options as plain values (an options layer): the `citecheck:`
    map, then top-level `citecheck.<option>` / `citecheck-<option>` keys, which is what
    `pandoc -M citecheck.strict=true` makes."""
    value = get_metadata(doc, "citecheck", {})
    layer = dict(value) if isinstance(value, Mapping) else {}
    for name, meta in metadata(doc).items():
        if name.startswith(("citecheck.", "citecheck-")):
            # A dotted name from `-M`: the dot is part of the name, not a path into a map.
            layer[name[len("citecheck.") :]] = meta_value(meta)
    return layer
