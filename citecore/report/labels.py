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


def finding_line(item: Finding) -> str:
    """A finding as one line of a note: its kind, then its message — once, where the message
    starts with the kind already ("unsupported, p. 1: …", not "unsupported: unsupported…")."""
    if item.message.startswith(item.kind.value):
        return item.message
    return f"{item.kind.value}: {item.message}"
