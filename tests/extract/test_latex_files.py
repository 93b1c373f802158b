"""Which files a LaTeX project reads, as TeX finds them: every form of `\\input` and its
relatives, `\\includeonly` (with the thesis switch `\\def\\files{…}`), a package or class kept
beside the main file before TeX Live's, and a file's pieces masked with the switches the files
loaded before it set."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.extract.latex import extract_latex
from citecore.extract.latex_conditionals import Conditionals
from citecore.extract.latex_files import (
    INCLUDES,
    LOCAL_PACKAGE,
    conditional_pieces,
    expand_macro,
    include_target,
    loaded_files,
)


@pytest.mark.parametrize(
    ("written", "target"),
    [
        ("\\input{chapters/intro}", "chapters/intro"),
        ("\\input{ intro.tex }", "intro.tex"),
        ("\\input intro ", "intro"),  # TeX's own form, no braces
        ("\\include{results}", "results"),
        ("\\subfile{parts/a}", "parts/a"),
        ("\\import{sections/}{methods}", "sections/methods"),
        ("\\subimport{sections}{methods.tex}", "sections/methods.tex"),
        ("\\includefrom{appendix/}{proofs}", "appendix/proofs"),
    ],
)
def test_every_form_of_input_names_its_file(written: str, target: str) -> None:
    match = INCLUDES.search(written)
    assert match is not None
    found = include_target(written, match)
    assert found is not None and found[0] == target


@pytest.mark.parametrize("written", ["\\input", "\\import{only-one}", "\\input{unclosed"])
def test_an_input_without_its_file_names_none(written: str) -> None:
    match = INCLUDES.search(written)
    assert match is not None
    assert include_target(written, match) is None


def test_the_thesis_switch_of_includeonly_is_expanded_as_tex_would() -> None:
    text = "\\def\\files{intro}\n\\newcommand{\\files}{intro,results}\n\\includeonly{\\files}"
    assert expand_macro(text, "\\files", text.index("\\includeonly")) == "intro,results"
    assert expand_macro(text, "\\files", text.index("\\newcommand")) == "intro"
    assert expand_macro(text, "intro", len(text)) == "intro"  # no macro: as it stands
    assert expand_macro(text, "\\undefined", len(text)) == "\\undefined"


def _project(root: Path) -> Path:
    (root / "chapters").mkdir()
    for name in ("intro", "results", "appendix"):
        (root / "chapters" / f"{name}.tex").write_text(f"{name}\n")
    (root / "mystyle.sty").write_text("\\newif\\ifdraft\n")
    (root / "thesis.cls").write_text("\\LoadClass{report}\n")
    main = root / "main.tex"
    main.write_text("")
    return main


def _loaded(text: str, main: Path, only: set[str] | None = None) -> list[str]:
    found = []
    for match in sorted(
        [*INCLUDES.finditer(text), *LOCAL_PACKAGE.finditer(text)], key=lambda m: m.start()
    ):
        found += [
            p.relative_to(main.parent).as_posix()
            for p in loaded_files(text, match, main, main.parent, only)
        ]
    return found


def test_the_files_a_project_loads_are_found_where_tex_finds_them(tmp_path: Path) -> None:
    main = _project(tmp_path)
    text = (
        "\\documentclass{thesis}\\usepackage{amsmath,mystyle}\n\\input{chapters/intro}\n"
        "\\include{chapters/results}\n\\input{chapters/absent}\n\\include{chapters/appendix}\n"
    )
    assert _loaded(text, main) == [
        "thesis.cls",
        "mystyle.sty",  # amsmath is TeX Live's, not the project's
        "chapters/intro.tex",
        "chapters/results.tex",
        "chapters/appendix.tex",
    ]


def test_includeonly_leaves_out_the_includes_it_does_not_name(tmp_path: Path) -> None:
    main = _project(tmp_path)
    text = "\\input{chapters/intro}\n\\include{chapters/results}\n\\include{chapters/appendix}\n"
    assert _loaded(text, main, {"chapters/results"}) == [
        "chapters/intro.tex",
        "chapters/results.tex",
    ]


def test_a_file_is_cut_after_each_load_and_masked_piece_by_piece() -> None:
    text = "\\ifdraft A\\fi \\input{x} \\ifdraft B\\fi \\usepackage{y} C"
    flags = {"draft": False}
    reader = Conditionals(flags)
    pieces = []
    for match, start, piece in conditional_pieces(text, reader):
        pieces.append((match.group(0) if match else None, start, piece))
        if match is not None and match.group(0) == "\\input":
            flags["draft"] = True  # what the file read here sets
    assert [m for m, _, _ in pieces] == ["\\input", "\\usepackage{y}", None]
    masked = "".join(piece for _, _, piece in pieces)
    assert len(masked) == len(text)
    # Before the input the switch is false (A skipped); the input set it (B read).
    assert "A" not in masked and "B" in masked and masked.endswith(" C")
    assert pieces[1][1] == text.index("\\input") + len("\\input")


@pytest.mark.parametrize("loaded", ["mystyle", "style/mystyle"])
def test_a_bibliography_declared_in_the_projects_own_package_is_read(
    tmp_path: Path, loaded: str
) -> None:
    (tmp_path / f"{loaded}.sty").parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / f"{loaded}.sty").write_text(
        "\\ProvidesPackage{mystyle}\n\\RequirePackage[backend=biber]{biblatex}\n"
        "\\addbibresource{refs.bib}\n\\nocite{listed}\n",
        encoding="utf-8",
    )
    (tmp_path / "refs.bib").write_text("@misc{a, title = {A}}\n", encoding="utf-8")
    main = tmp_path / "main.tex"
    main.write_text(
        f"\\documentclass{{article}}\n\\usepackage{{{loaded}}}\n\\begin{{document}}\n"
        "Text \\cite{a}.\n\\printbibliography\n\\end{document}\n",
        encoding="utf-8",
    )
    extraction = extract_latex(main)
    assert extraction.bibliographies == [tmp_path / "refs.bib"]
    assert extraction.nocite == ["listed"]
    assert [c.key for c in extraction.citations] == ["a"]


def test_a_package_ends_at_its_own_endinput_line(tmp_path: Path) -> None:
    (tmp_path / "mystyle.sty").write_text(
        "\\ifx\\x\\undefined\\else\\endinput\\fi\n\\newcommand{\\y}{}\n  \\endinput\n"
        "\\endinput\n% the documentation follows\nEveryone agrees~\\cite{you,me}.\n",
        encoding="utf-8",
    )
    main = tmp_path / "main.tex"
    main.write_text(
        "\\documentclass{article}\n\\usepackage{mystyle}\n\\begin{document}\n"
        "Text \\cite{a}.\n\\end{document}\n",
        encoding="utf-8",
    )
    assert [c.key for c in extract_latex(main).citations] == ["a"]
