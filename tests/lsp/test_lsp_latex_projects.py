"""The editor on a LaTeX project, in-process: a chapter is checked as the project reads it —
against the bibliography its main file names, with the citing macros the preamble defines and
the `\\newif` switches the project has set where the chapter is input — from the text in the
editor, saved or not; and what the writer points at is what the hover speaks of."""

from __future__ import annotations

import os
from pathlib import Path

from lsprotocol import types

from citecore.lsp.analysis import Analysis, analyse_document
from citecore.lsp.features import cited_at, diagnostics, hover_text
from citecore.lsp.scan import latex_citations, latex_nocite

BIB = (
    "@article{known2020,\n  title = {A Known Work},\n  author = {Doe, Jane},\n"
    "  journal = {Journal of Tests},\n  year = {2020}\n}\n"
)
PREAMBLE = "\\newcommand{\\mycite}[1]{\\citep{#1}}\n\\newif\\ifdraft\n\\newif\\ifnotes\n"


def _project(root: Path, main_body: str, chapter: str) -> tuple[Path, Path]:
    (root / "refs.bib").write_text(BIB)
    (root / "preamble.tex").write_text(PREAMBLE)
    (root / "chapters").mkdir(exist_ok=True)
    chapter_file = root / "chapters" / "results.tex"
    chapter_file.write_text(chapter)
    main = root / "main.tex"
    main.write_text(
        "\\documentclass{article}\n\\usepackage{natbib}\n\\input{preamble}\n"
        f"\\begin{{document}}\n{main_body}\n\\input{{chapters/results}}\n"
        "\\bibliographystyle{plainnat}\n\\bibliography{refs}\n\\end{document}\n"
    )
    return main, chapter_file


def _analyse(path: Path, root: Path, text: str | None = None) -> Analysis:
    return analyse_document(
        path, path.read_text() if text is None else text, {"verify": False}, root
    )


def _undefined(analysis: Analysis) -> list[tuple[str, int]]:
    shown = diagnostics(analysis, {}).get(analysis.path, [])
    return [(d.message.split(":")[0], d.range.start.line) for d in shown if d.code == "undefined"]


def test_a_chapter_is_checked_against_the_bibliography_its_main_file_names(
    tmp_path: Path,
) -> None:
    _, chapter = _project(
        tmp_path, "Intro.", "We build on \\citep{known2020}.\nAnd \\cite{ghost}.\n"
    )
    analysis = _analyse(chapter, tmp_path)
    assert [c.key for c in analysis.citations] == ["known2020", "ghost"]
    assert _undefined(analysis) == [("ghost", 1)]
    assert analysis.problems == []


def test_a_chapter_reads_the_citing_macros_of_the_preamble(tmp_path: Path) -> None:
    _, chapter = _project(tmp_path, "Intro.", "As \\mycite{phantom} says.\n")
    analysis = _analyse(chapter, tmp_path)
    assert [c.key for c in analysis.citations] == ["phantom"]
    assert _undefined(analysis) == [("phantom", 0)]


def test_a_chapter_reads_the_switches_as_the_project_set_them(tmp_path: Path) -> None:
    chapter_text = (
        "\\ifdraft Draft numbers \\cite{draftonly}.\\else Final \\cite{finalonly}.\\fi\n"
        "\\ifnotes A note \\cite{noteonly}.\\fi\n"
    )
    main, chapter = _project(tmp_path, "\\drafttrue Intro.", chapter_text)
    analysis = _analyse(chapter, tmp_path)
    # The main file sets \drafttrue before inputting the chapter; \ifnotes stays false.
    assert [c.key for c in analysis.citations] == ["draftonly"]
    main.write_text(main.read_text().replace("\\drafttrue", "\\draftfalse\\notestrue"))
    os.utime(main, ns=(10**18, 10**18))  # saved later: the project is read again
    analysis = _analyse(chapter, tmp_path)
    assert [c.key for c in analysis.citations] == ["finalonly", "noteonly"]


def test_the_main_file_reads_the_switches_its_inputs_declare(tmp_path: Path) -> None:
    main, _ = _project(
        tmp_path,
        "\\notestrue \\ifnotes Noted \\cite{shown}.\\else Hidden \\cite{hidden}.\\fi",
        "Nothing cited here.\n",
    )
    analysis = _analyse(main, tmp_path)
    assert "shown" in [c.key for c in analysis.citations]
    assert "hidden" not in [c.key for c in analysis.citations]


def test_the_unsaved_text_in_the_editor_is_what_is_checked(tmp_path: Path) -> None:
    _, chapter = _project(tmp_path, "Intro.", "Saved \\cite{known2020}.\n")
    typed = "Saved \\cite{known2020}.\nTyped just now \\citet{fresh2024}.\n"
    analysis = _analyse(chapter, tmp_path, typed)
    assert [c.key for c in analysis.citations] == ["known2020", "fresh2024"]
    assert _undefined(analysis) == [("fresh2024", 1)]


def test_an_entry_added_to_the_bibliography_is_found_at_the_next_analysis(
    tmp_path: Path,
) -> None:
    _, chapter = _project(tmp_path, "Intro.", "See \\cite{later2021}.\n")
    assert _undefined(_analyse(chapter, tmp_path)) == [("later2021", 0)]
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB + "@book{later2021, title = {Later}, author = {Roe, R.}, year = 2021}\n")
    os.utime(bib, ns=(10**18, 10**18))
    assert _undefined(_analyse(chapter, tmp_path)) == []


def test_nocite_keys_are_listed_not_shown_as_citations(tmp_path: Path) -> None:
    _, chapter = _project(
        tmp_path, "Intro.", "\\nocite{known2020,extra}\nText \\cite{known2020}.\n"
    )
    analysis = _analyse(chapter, tmp_path)
    assert [(c.key, c.key_span.start_line) for c in analysis.citations] == [("known2020", 1)]
    assert latex_nocite(chapter.read_text()) == (["known2020", "extra"], False)
    assert latex_nocite("\\nocite{*}") == ([], True)


def test_the_hover_speaks_of_the_key_under_the_cursor(tmp_path: Path) -> None:
    _, chapter = _project(tmp_path, "Intro.", "Both \\citep[see][p.~4]{known2020,ghost}.\n")
    analysis = _analyse(chapter, tmp_path)
    line = chapter.read_text().splitlines()[0]
    on_ghost = line.index("ghost") + 2
    cited = cited_at(analysis, 0, on_ghost)
    assert cited is not None and cited.key == "ghost"
    hovered = hover_text(analysis, 0, on_ghost)
    assert hovered is not None
    assert hovered[0] == "`@ghost`: not in any bibliography"
    on_known = hover_text(analysis, 0, line.index("known2020"))
    assert on_known is not None and on_known[0].startswith("`@known2020`: **")
    # On the command's name: the first key of the command.
    on_command = cited_at(analysis, 0, line.index("\\citep") + 2)
    assert on_command is not None and on_command.key == "known2020"
    assert hover_text(analysis, 0, 1) is None  # on no citation


def test_an_undefined_key_is_marked_on_its_whole_command(tmp_path: Path) -> None:
    _, chapter = _project(tmp_path, "Intro.", "Results \\citet*{ghost} hold.\n")
    analysis = _analyse(chapter, tmp_path)
    [shown] = [d for d in diagnostics(analysis, {})[chapter] if d.code == "undefined"]
    line = chapter.read_text().splitlines()[0]
    assert shown.range == types.Range(
        types.Position(0, line.index("\\citet")), types.Position(0, line.index("} hold") + 1)
    )
    assert shown.severity == types.DiagnosticSeverity.Error
    assert shown.message == "ghost: cited key is not in any bibliography"


def test_key_spans_are_each_keys_own_and_count_utf16_units() -> None:
    text = "Émile 𝓐 \\cite{a, b}\n\\citeauthor{c}\n"
    found = latex_citations(text)
    assert [c.key for c in found] == ["a", "b", "c"]
    first = text.splitlines()[0]
    # 𝓐 is two UTF-16 code units: every position after it is one further than its index.
    assert found[0].key_span.start_character == first.index("{a") + 1 + 1
    assert found[1].key_span.start_character == first.index(" b}") + 1 + 1
    assert found[0].citation_span == found[1].citation_span
    assert found[0].group_text == "\\cite{a, b}"
    assert found[2].key_span.start_line == 1


def test_a_comment_or_a_skipped_branch_in_the_editor_cites_nothing() -> None:
    text = (
        "% \\cite{commented}\n\\iffalse \\cite{skipped} \\fi\n"
        "\\begin{comment}\n\\cite{x}\n\\end{comment}\nKept \\cite{kept}.\n"
    )
    assert [c.key for c in latex_citations(text)] == ["kept"]
