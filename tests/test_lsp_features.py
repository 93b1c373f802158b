"""What the editor is offered, computed from an analysis: the DOI a verified entry lacks, the
registry's record for a mismatched one (key kept, the whole entry replaced), and where the
entry ends however its braces nest."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from citecore.bib.bibtex import parse_bibtex
from citecore.lsp.analysis import Analysis
from citecore.lsp.features import code_actions, entry_lines
from citecore.model import (
    Bibliography,
    CheckResult,
    FieldMismatch,
    Match,
    ReferenceResult,
    ReferenceVerdict,
    Source,
)

BIB = (
    "@article{first,\n  title = {A {Nested {Brace}} Title},\n  author = {Doe, Jane},\n"
    "  year = {2019}\n}\n\n@book{second, title = {Another}, author = {Roe, Rita}, year = 2001}\n"
)
RECORD = Match(Source.CROSSREF, doi="10.5555/first", title="A Nested Brace Title",
               authors=("Jane Doe",), year=2019, venue="Journal of Tests")  # fmt: skip


def _analysis(tmp_path: Path, verdict: ReferenceResult) -> tuple[Analysis, Path]:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    parsed = parse_bibtex(BIB, str(bib))
    bibliography = Bibliography((str(bib),), {r.key: r for r in parsed.references})
    result = CheckResult((), bibliography, (), {verdict.key: verdict}, ())
    return Analysis(bib, [], result), bib


def test_an_entry_ends_at_its_closing_brace() -> None:
    assert entry_lines(BIB, 1) == (0, 4)
    assert entry_lines(BIB, 7) == (6, 6)


def test_a_verified_entry_without_doi_is_offered_the_registrys(tmp_path: Path) -> None:
    verdict = ReferenceResult("first", ReferenceVerdict.VERIFIED, match=RECORD)
    analysis, bib = _analysis(tmp_path, verdict)
    [action] = code_actions(analysis, 2, {bib: BIB})
    assert action.title == "Add the DOI 10.5555/first to @first"
    assert action.edit is not None and action.edit.changes is not None
    [edit] = action.edit.changes[bib.as_uri()]
    assert edit.range == types.Range(types.Position(1, 0), types.Position(1, 0))
    assert edit.new_text == "  doi = {10.5555/first},\n"
    assert code_actions(analysis, 6, {bib: BIB}) == []  # the other entry has no verdict


def test_a_mismatched_entry_is_offered_the_record_under_its_own_key(tmp_path: Path) -> None:
    verdict = ReferenceResult(
        "first",
        ReferenceVerdict.MISMATCH,
        mismatches=(FieldMismatch("year", "2019", "2020"),),
        match=RECORD,
    )
    analysis, bib = _analysis(tmp_path, verdict)
    [action] = code_actions(analysis, 0, {bib: BIB})
    assert action.title == "Replace @first with the registry's record (key kept)"
    [edit] = action.edit.changes[bib.as_uri()]  # type: ignore[union-attr,index]
    assert (edit.range.start.line, edit.range.end.line) == (0, 4)
    assert edit.new_text.startswith("@article{first,") and "doi = {10.5555/first}" in edit.new_text
