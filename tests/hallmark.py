"""The HALLMARK dev split (../shared/corpus/hallucination/hallmark) as BibTeX: labelled real and
fabricated references that the fault, kill and shared-cache runs send through the registries."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from citecore.bib.bibtex import parse_bibtex
from citecore.model import Reference
from tests.paths import CORPUS


def dev_entries() -> Iterator[dict[str, Any]]:
    """The HALLMARK dev split's entries as its JSON lines give them, canaries skipped."""
    path = CORPUS / "hallucination" / "hallmark" / "data" / "dev_public.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry.get("generation_method") != "canary":
            yield entry


def as_bibtex(entry: dict[str, Any]) -> str:
    """One HALLMARK entry written as BibTeX."""
    fields = entry.get("fields") or {}
    body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields.items())
    return f"@{entry.get('bibtex_type', 'misc')}{{{entry['bibtex_key']},\n{body}\n}}\n"


def _entries(limit: int) -> list[str]:
    """The first `limit` HALLMARK dev entries, each as BibTeX."""
    entries = []
    for entry in dev_entries():
        entries.append(as_bibtex(entry))
        if len(entries) >= limit:
            break
    return entries


def hallmark_bibtex(limit: int) -> str:
    """The first `limit` HALLMARK dev entries as one .bib text."""
    return "\n".join(_entries(limit))


def hallmark_references(limit: int) -> list[Reference]:
    """The parseable references among the first `limit` HALLMARK dev entries (each parsed on
    its own: a broken entry must not take its neighbour with it)."""
    return [r for text in _entries(limit) for r in parse_bibtex(text, "hallmark.bib").references]
