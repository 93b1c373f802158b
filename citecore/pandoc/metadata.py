"""A document's citecheck options, as its pandoc metadata gives them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import panflute as pf
from panflute.tools import meta2builtin

from citecore.pandoc.document import metadata_fields, metadata_value


def metadata_options(doc: pf.Doc) -> dict[str, Any]:
    """The document's citecheck options as plain values (an options layer): the `citecheck:`
    map, then top-level `citecheck.<option>` / `citecheck-<option>` keys, which is what
    `pandoc -M citecheck.strict=true` makes."""
    value = metadata_value(doc, "citecheck", {})
    layer = dict(value) if isinstance(value, Mapping) else {}
    for name, meta in metadata_fields(doc).items():
        if name.startswith(("citecheck.", "citecheck-")):
            # A dotted name from `-M`: the dot is part of the name, not a path into a map.
            layer[name[len("citecheck.") :]] = meta2builtin(meta)
    return layer
