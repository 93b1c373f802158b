"""Words shared by every report: what a finding is called and how it is located."""

from __future__ import annotations

from citecore.model import Finding

# C0 and C1 control characters other than white space (which one_line collapses to a space).
_CONTROLS = dict.fromkeys(
    c for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)] if not chr(c).isspace()
)


def where(item: Finding) -> str:
    """`file:line` of a finding, or "" when it has no place."""
    return str(item.location) if item.location else ""


def one_line(text: str, limit: int = 0) -> str:
    """`text` on one line, white space collapsed, control characters dropped (an escape
    sequence in a registry's title must not reach a terminal), cut to `limit` characters with
    an ellipsis."""
    flat = " ".join(text.translate(_CONTROLS).split())
    return flat if not limit or len(flat) <= limit else flat[: limit - 1].rstrip() + "…"
