"""The README's fenced code blocks, for the tests that run them (so that README, help and
behaviour cannot drift apart)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.paths import REPO

_FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Block:
    """One fenced block: its language, its text, and the README line it starts on."""

    language: str
    text: str
    line: int

    @property
    def title(self) -> str:
        """The first line (the editor set-ups name their editor and version there)."""
        return self.text.splitlines()[0] if self.text else ""


def readme_blocks() -> list[Block]:
    """Every fenced block of the README, in order."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return [
        Block(m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1)
        for m in _FENCE.finditer(text)
    ]


def block_titled(prefix: str) -> Block:
    """The one block whose first line starts with `prefix` (an editor set-up)."""
    found = [b for b in readme_blocks() if b.title.startswith(prefix)]
    assert len(found) == 1, f"README: {len(found)} blocks titled {prefix!r}"
    return found[0]
