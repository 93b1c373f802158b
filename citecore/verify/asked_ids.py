"""Which of a reference's identifiers are put to the registries.

A malformed identifier or a placeholder is reported by the local checks (`malformed_id`); asking
a registry about it would only add a second accusation ("this DOI does not exist") for the same
fault, so it is left out of the lookup, with a note, and the entry is verified by its title.
"""

from __future__ import annotations

from dataclasses import replace

from citecore.identifiers import (
    is_placeholder,
    is_valid_arxiv,
    is_valid_doi,
    is_valid_pmcid,
    is_valid_pmid,
)
from citecore.model import Reference

_CHECKS = (
    ("doi", "DOI", is_valid_doi),
    ("arxiv_id", "arXiv id", is_valid_arxiv),
    ("pmid", "PMID", is_valid_pmid),
    ("pmcid", "PMCID", is_valid_pmcid),
)


def identifiers_to_ask(reference: Reference) -> tuple[Reference, tuple[str, ...]]:
    """The reference without the identifiers that cannot be looked up, and a note for each
    one left out."""
    notes: list[str] = []
    for name, label, valid in _CHECKS:
        value = str(getattr(reference, name))
        if value and not valid(value):
            reference = replace(reference, **{name: ""})  # type: ignore[arg-type]
            what = "a placeholder" if is_placeholder(value) else "malformed"
            notes.append(f"{label} '{value}' is {what}: not looked up")
    return reference, tuple(notes)
