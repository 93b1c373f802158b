"""What the editor is offered, computed from an analysis: the DOI a verified entry lacks, the
registry's record for a mismatched one (key kept, the whole entry replaced), and where the
entry ends however its braces nest."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from citecore.bib.bibtex import parse_bibtex
from citecore.lsp.analysis import Analysis
from citecore.lsp.features import code_actions, diagnostics, entry_lines
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


def _finding_analysis(tmp_path: Path, findings: tuple[object, ...]) -> tuple[Analysis, Path]:
    from citecore.lsp.scan import markdown_citations

    paper = tmp_path / "paper.md"
    text = "Intro.\n\nA claim [see @first, p. 2] and @first again.\nLater [@ghost].\n"
    paper.write_text(text)
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    result = CheckResult((str(paper),), Bibliography(), (), {}, findings)  # type: ignore[arg-type]
    return Analysis(paper, markdown_citations(text), result), bib


def test_each_finding_is_shown_where_it_belongs(tmp_path: Path) -> None:
    from citecore.model import Finding, FindingKind, Severity, SourceLocation

    paper = tmp_path / "paper.md"
    bib = tmp_path / "refs.bib"
    findings = (
        Finding(FindingKind.UNDEFINED, Severity.ERROR, "no entry", "ghost",
                SourceLocation(str(paper), 4)),
        Finding(FindingKind.FUTURE_YEAR, Severity.WARNING, "2999", "first",
                SourceLocation(str(bib), 7)),
        Finding(FindingKind.MISMATCH, Severity.ERROR, "year differs", "first",
                SourceLocation(str(paper), 3)),
        Finding(FindingKind.UNVERIFIABLE, Severity.INFO, "offline", "first",
                SourceLocation(str(bib), 1)),
        Finding(FindingKind.OUTAGE, Severity.WARNING, "Crossref did not answer"),
    )  # fmt: skip
    analysis, bib = _finding_analysis(tmp_path, findings)
    shown = diagnostics(analysis, {})
    on_paper = [(d.code, d.range.start.line, d.range.start.character, d.range.end.character)
                for d in shown[paper]]  # fmt: skip
    assert ("undefined", 3, 6, 14) in on_paper  # the group `[@ghost]`
    # Both citations of `first` on line 3: the group and the bare key.
    assert ("mismatch", 2, 8, 26) in on_paper and ("mismatch", 2, 31, 37) in on_paper
    assert ("outage", 0, 0, 6) in on_paper  # no place: the first line of the document
    assert [(d.code, d.range.start.line) for d in shown[bib]] == [("future_year", 6)]
    assert shown[bib][0].range.end.character == len(BIB.splitlines()[6])  # read from disk
    assert all(d.source == "citecheck" for ds in shown.values() for d in ds)
    severities = {d.code: d.severity for ds in shown.values() for d in ds}
    assert severities["undefined"] == types.DiagnosticSeverity.Error
    assert severities["future_year"] == types.DiagnosticSeverity.Warning


def test_a_problem_reading_the_project_is_said_on_the_first_line(tmp_path: Path) -> None:
    analysis, _ = _finding_analysis(tmp_path, ())
    analysis.problems.append("bibliography 'missing.bib' not found")
    [said] = diagnostics(analysis, {})[analysis.path]
    assert said.range.start.line == 0 and "missing.bib" in said.message


def test_hover_shows_verdict_record_and_differences(tmp_path: Path) -> None:
    from citecore.lsp.features import hover_text
    from citecore.lsp.scan import markdown_citations

    verdict = ReferenceResult(
        "first",
        ReferenceVerdict.MISMATCH,
        mismatches=(FieldMismatch("year", "2019", "2020"),),
        match=RECORD,
        notes=("the preprint is arXiv:1234.56789",),
    )
    bib = tmp_path / "refs.bib"
    parsed = parse_bibtex(BIB, str(bib))
    bibliography = Bibliography((str(bib),), {r.key: r for r in parsed.references})
    text = "A claim [@first] and [@nowhere].\n"
    result = CheckResult((), bibliography, (), {"first": verdict}, ())
    analysis = Analysis(tmp_path / "p.md", markdown_citations(text), result)
    found = hover_text(analysis, 0, 11)
    assert found is not None
    shown, span = found
    assert "`@first`: **mismatch**" in shown and "- year: cited *2019*, registry *2020*" in shown
    assert "[doi:10.5555/first](https://doi.org/10.5555/first)" in shown
    assert "the preprint is arXiv:1234.56789" in shown
    assert (span.start_character, span.end_character) == (9, 15)
    missing = hover_text(analysis, 0, 25)
    assert missing is not None and "not in any bibliography" in missing[0]
    assert hover_text(analysis, 0, 2) is None


def test_entry_ends_whatever_parentheses_its_values_hold() -> None:
    text = (
        "@article{a,\n  title = {Part 1) of a (long) story},\n  year = 2001\n}\n"
        "@book(b,\n  title = {A ) in braces},\n  year = 2002\n)\n@misc{c, year = 3}\n"
    )
    assert entry_lines(text, 1) == (0, 3)
    assert entry_lines(text, 5) == (4, 7)
    assert entry_lines(text, 9) == (8, 8)


@pytest.mark.parametrize(
    ("written", "fixed"),
    [
        ("See @doe2001.", "See @Doe2001."),
        ("See [@doe2001, p. 2].", "See [@Doe2001, p. 2]."),
        ("See @{doe2001}.", "See @{Doe2001}."),
        ("See \\citep{doe2001}.", "See \\citep{Doe2001}."),
    ],
)
def test_a_key_in_another_case_is_fixed_in_place(tmp_path: Path, written: str, fixed: str) -> None:
    from citecore.lsp.scan import citations_of

    bib = tmp_path / "refs.bib"
    bib.write_text("@book{Doe2001, title = {A Book}, author = {Doe, Jane}, year = 2001}\n")
    parsed = parse_bibtex(bib.read_text(), str(bib))
    result = CheckResult((), Bibliography((str(bib),), {r.key: r for r in parsed.references}),
                         (), {}, ())  # fmt: skip
    name = "paper.tex" if "\\" in written else "paper.md"
    analysis = Analysis(tmp_path / name, citations_of(name, written), result)
    [action] = [a for a in code_actions(analysis, 0, {}) if a.title.startswith("Cite")]
    assert action.edit is not None and action.edit.changes is not None
    [edit] = next(iter(action.edit.changes.values()))
    start, end = edit.range.start.character, edit.range.end.character
    assert written[:start] + edit.new_text + written[end:] == fixed
