"""What parsing one BibTeX file gives, apart from the parser: a rebuild that finds the parse in
the cache reads this record and never loads the parser (bibtexparser, the LaTeX decoder)."""

from __future__ import annotations

from dataclasses import dataclass

from citecore.model import Reference, UnparsedEntry

# Bump when parsing or decoding changes what a Reference holds: cached parses are then ignored.
PARSER_VERSION = "3"


@dataclass(frozen=True, slots=True)
class BibtexFile:
    """What one .bib file holds: its entries in order, its duplicates, its unparsed blocks."""

    references: tuple[Reference, ...]
    duplicates: tuple[Reference, ...]
    unparsed: tuple[UnparsedEntry, ...]
