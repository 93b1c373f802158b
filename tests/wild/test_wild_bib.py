"""Every real bibliography of ../shared/corpus/wild/bib read as BibTeX reads it: each entry
BibTeX reads is an entry citecheck reads, or one it reports as unparsed where BibTeX itself
stops with an error; nothing else."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.wild.sweep import WILD, bib_row


@pytest.mark.skipif(shutil.which("bibtex") is None, reason="make test installs TeX Live")
@pytest.mark.parametrize("path", sorted((WILD / "bib").glob("*.bib")), ids=lambda p: p.name)
def test_entries_are_those_bibtex_reads(path: Path) -> None:
    row = bib_row(path)
    assert row.read | row.unparsed == row.bibtex
    assert not row.read & row.unparsed
