"""A document's citecheck options, as its pandoc metadata gives them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import panflute as pf
from panflute.tools import meta2builtin


def metadata_options(doc: pf.Doc) -> dict[str, Any]:
    """The document's citecheck options as plain values (an options layer): the `citecheck:`
    map, then top-level `citecheck.<option>` / `citecheck-<option>` keys, which is what
    `pandoc -M citecheck.strict=true` makes."""
    value = doc.get_metadata("citecheck", default={})
    layer = dict(value) if isinstance(value, Mapping) else {}
    for name, meta in doc.metadata.content.items():
        if name.startswith(("citecheck.", "citecheck-")):
            # Not get_metadata: it would read the dot as a path into a `citecheck` map.
            layer[name[len("citecheck.") :]] = meta2builtin(meta)
    return layer
