"""Words shared by every report: what a finding is called and how it is located."""

from __future__ import annotations

from citecore.model import Finding


def where(item: Finding) -> str:
    """`file:line` of a finding, or "" when it has no place."""
    return str(item.location) if item.location else ""


def one_line(text: str, limit: int = 0) -> str:
    """`text` on one line, white space collapsed, cut to `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if not limit or len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
