"""The HALLMARK dev split (../shared/corpus/hallucination/hallmark) as BibTeX: labelled real and
fabricated references that the fault, kill and shared-cache runs send through the registries."""

from __future__ import annotations

import json

from citecore.bib.bibtex import parse_bibtex
from citecore.model import Reference
from tests.paths import CORPUS


def _entries(limit: int) -> list[str]:
    """The first `limit` HALLMARK dev entries (canaries skipped), each as BibTeX."""
    path = CORPUS / "hallucination" / "hallmark" / "data" / "dev_public.jsonl"
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        if entry.get("generation_method") == "canary":
            continue
        fields = entry.get("fields") or {}
        body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields.items())
        entries.append(f"@{entry.get('bibtex_type', 'misc')}{{{entry['bibtex_key']},\n{body}\n}}\n")
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
