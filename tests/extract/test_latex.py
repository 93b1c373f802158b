"""LaTeX extraction: macro forms, ignored regions, real projects, LaTeX's own records."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.extract.aux import aux_keys, bcf_keys
from citecore.extract.latex import extract_latex
from citecore.extract.latex_cites import find_cite_commands
from citecore.extract.latex_syntax import mask_ignored
from citecore.model import CitationId, CitationMode, Signal
from tests.conftest import requires_latex
from tests.paths import CASES, CORPUS

K = tuple[tuple[str, str, str], ...]
N, T, S = CitationMode.NORMAL, CitationMode.AUTHOR_IN_TEXT, CitationMode.SUPPRESS_AUTHOR


@pytest.mark.parametrize(
    ("latex", "name", "keys"),
    [
        (r"\cite{a}", "cite", (("a", "", ""),)),
        (r"\cite{a, b ,c}", "cite", (("a", "", ""), ("b", "", ""), ("c", "", ""))),
        (r"\citep[p.~3]{a}", "citep", (("a", "", "p.~3"),)),
        (r"\citep[see][p.~3]{a,b}", "citep", (("a", "see", "p.~3"), ("b", "see", "p.~3"))),
        (r"\citep[e.g.][]{a}", "citep", (("a", "e.g.", ""),)),
        (r"\citet*{a}", "citet*", (("a", "", ""),)),
        (r"\Citet{a}", "Citet", (("a", "", ""),)),
        (r"\citealt{a}", "citealt", (("a", "", ""),)),
        (r"\citealp{a}", "citealp", (("a", "", ""),)),
        (r"\citeauthor{a}", "citeauthor", (("a", "", ""),)),
        (r"\citeyear{a}", "citeyear", (("a", "", ""),)),
        (r"\citeyearpar{a}", "citeyearpar", (("a", "", ""),)),
        (r"\parencite[see][12]{a}", "parencite", (("a", "see", "12"),)),
        (r"\Parencite{a}", "Parencite", (("a", "", ""),)),
        (r"\textcite{a}", "textcite", (("a", "", ""),)),
        (r"\autocite*{a}", "autocite*", (("a", "", ""),)),
        (r"\footcite[cf.][]{a}", "footcite", (("a", "cf.", ""),)),
        (r"\smartcite{a}", "smartcite", (("a", "", ""),)),
        (r"\supercite{a}", "supercite", (("a", "", ""),)),
        (r"\fullcite{a}", "fullcite", (("a", "", ""),)),
        (r"\cites[see][1]{a}[2]{b}", "cites", (("a", "see", "1"), ("b", "", "2"))),
        (
            r"\parencites(global)(post)[see][1]{a}{b,c}",
            "parencites",
            (("a", "see", "1"), ("b", "", ""), ("c", "", "")),
        ),
        (r"\textcites{a}[p.~4]{b}", "textcites", (("a", "", ""), ("b", "", "p.~4"))),
        (r"\nocite{*}", "nocite", (("*", "", ""),)),
        (r"\cite [a note] {spaced}", "cite", (("spaced", "", "a note"),)),
        (r"\citep[{see [x]}][]{a}", "citep", (("a", "{see [x]}", ""),)),
    ],
)
def test_macro_forms(latex: str, name: str, keys: K) -> None:
    (command,) = find_cite_commands(latex)
    assert (command.name, command.keys) == (name, keys)


@pytest.mark.parametrize(
    "latex",
    [
        r"% \cite{a}",
        "\\iffalse \\cite{a} \\fi",
        "\\begin{comment}\n\\cite{a}\n\\end{comment}",
        "\\begin{verbatim}\n\\cite{a}\n\\end{verbatim}",
        r"\verb|\cite{a}|",
        r"\citation{a} \citeA",  # not citation commands
    ],
)
def test_ignored_regions_yield_no_citations(latex: str) -> None:
    assert list(find_cite_commands(mask_ignored(latex))) == []


def test_escaped_percent_is_not_a_comment() -> None:
    (command,) = find_cite_commands(mask_ignored(r"50\% of cases \cite{a}"))
    assert command.keys == (("a", "", ""),)


def test_multi_file_scenario_fields() -> None:
    extraction = extract_latex(CASES / "latex-natbib" / "main.tex")
    rows = [
        (
            c.key,
            c.mode,
            Path(c.location.file).name,
            c.location.line,
            c.signal,
            c.locator,
            c.note_number,
        )
        for c in extraction.citations
    ]
    assert rows == [
        ("lecun2015deep", N, "main.tex", 6, None, "", None),
        ("he2016deep", T, "main.tex", 6, None, "", None),
        ("lecun2015deep", N, "main.tex", 8, Signal.SEE, "p. 436", None),
        ("he2016deep", N, "main.tex", 8, Signal.SEE, "p. 436", None),
        ("goodfellow2016book", T, "main.tex", 13, None, "chap. 3", 1),
        ("vaswani2017attention", N, "intro.tex", 2, Signal.CF, "", None),
        ("he2016deep", T, "intro.tex", 3, None, "", None),
        ("he2016deep", S, "intro.tex", 3, None, "", None),
        ("ghost2020", N, "intro.tex", 4, None, "", None),
        ("lecun2015deep", N, "results.tex", 2, None, "", None),
        ("he2016deep", N, "results.tex", 2, None, "", None),
    ]
    claims = [c.claim for c in extraction.citations]
    assert claims[0] == "Deep networks learn layered representations […]."
    assert claims[4] == "Compare […]."  # the footnote's own sentence
    assert claims[5] == "Attention replaced recurrence […]."  # the heading is not in it
    assert extraction.nocite == ["vaswani2017attention"]
    assert [p.name for p in extraction.bibliographies] == ["refs.bib"]


def test_includeonly_is_honoured(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    shutil.copytree(CASES / "latex-natbib", folder)
    main_tex = folder / "main.tex"
    main_tex.write_text(main_tex.read_text().replace("% \\includeonly", "\\includeonly"))
    files = {Path(f).name for f in (str(p) for p in extract_latex(main_tex).files)}
    assert files == {"main.tex", "intro.tex"}  # \input is not subject to \includeonly


TEX_FILES = sorted((CORPUS / "latex").rglob("*.tex"))


@pytest.mark.parametrize("tex", TEX_FILES, ids=lambda p: str(p.relative_to(CORPUS / "latex")))
def test_every_corpus_file_is_read(tex: Path) -> None:
    """Every file reads without error, and each citation points at a line of a file it read."""
    extraction = extract_latex(tex)
    assert extraction.files[0] == tex
    # Each citation's identity: the main file, and its place in reading order.
    assert [c.ident for c in extraction.citations] == [
        CitationId(str(tex), n) for n in range(len(extraction.citations))
    ]
    read = {str(f) for f in extraction.files}
    for citation in extraction.citations:
        assert citation.key.strip() == citation.key != ""
        assert citation.location is not None
        assert citation.location.file in read
        assert citation.location.line is not None
        lines = Path(citation.location.file).read_text(errors="replace").count("\n") + 1
        assert 1 <= citation.location.line <= lines


def _compile(folder: Path, name: str) -> bool:
    # fontspec documents need XeLaTeX; `make test` installs both engines.
    engine = (
        "xelatex" if "{fontspec}" in (folder / name).read_text(errors="replace") else "pdflatex"
    )
    completed = subprocess.run(
        [
            engine,
            "-interaction=nonstopmode",
            "-draftmode" if engine == "pdflatex" else "-no-pdf",
            name,
        ],
        cwd=folder,
        capture_output=True,
        timeout=300,
        check=False,
    )
    return completed.returncode == 0


def _recorded(main_tex: Path) -> set[str]:
    keys = aux_keys(main_tex.with_suffix(".aux"))
    if main_tex.with_suffix(".bcf").exists():
        keys |= bcf_keys(main_tex.with_suffix(".bcf"))
    return keys


@requires_latex
def test_scenario_keys_equal_latex_aux(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    shutil.copytree(CASES / "latex-natbib", folder)
    assert _compile(folder, "main.tex")
    extraction = extract_latex(folder / "main.tex")
    ours = {c.key for c in extraction.citations} | set(extraction.nocite)
    assert ours == _recorded(folder / "main.tex")


@requires_latex
def test_switches_set_in_one_file_hold_in_the_files_read_after_it(tmp_path: Path) -> None:
    """A `\\newif` declared in a local package, set in the preamble, flipped between two
    chapters and set inside a chapter: each file reads the switches as TeX left them."""
    (tmp_path / "mystyle.sty").write_text("\\newif\\ifnotes\n")
    (tmp_path / "refs.bib").write_text("")
    (tmp_path / "ch1.tex").write_text(
        "\\ifdraft Draft \\cite{draftone}\\else Final \\cite{finalone}\\fi\n\\notestrue\n"
    )
    (tmp_path / "ch2.tex").write_text(
        "\\ifdraft Draft \\cite{drafttwo}\\else Final \\cite{finaltwo}\\fi\n"
    )
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\\usepackage{mystyle}\\newif\\ifdraft\\drafttrue\n"
        "\\begin{document}\n\\input{ch1}\n\\ifnotes \\cite{notesonly}\\fi\n"
        "\\draftfalse\n\\input{ch2}\n\\bibliographystyle{plain}\\bibliography{refs}\n"
        "\\end{document}\n"
    )
    assert _compile(tmp_path, "main.tex")
    keys = [c.key for c in extract_latex(tmp_path / "main.tex").citations]
    assert keys == ["draftone", "notesonly", "finaltwo"]
    assert set(keys) == _recorded(tmp_path / "main.tex")


BIBLATEX_EXAMPLES = sorted((CORPUS / "latex" / "biblatex-official-examples").glob("*.tex"))


@requires_latex
@pytest.mark.parametrize("tex", BIBLATEX_EXAMPLES, ids=lambda p: p.stem)
def test_biblatex_examples_equal_their_bcf(tex: Path, tmp_path: Path) -> None:
    folder = tmp_path / "ex"
    shutil.copytree(tex.parent, folder)
    assert _compile(folder, tex.name), f"{tex.name} does not compile: run `make install-tex`"
    extraction = extract_latex(folder / tex.name)
    ours = {c.key for c in extraction.citations} | set(extraction.nocite)
    ours |= {"*"} if extraction.nocite_all else set()
    assert ours == bcf_keys((folder / tex.name).with_suffix(".bcf"))


def test_latex_command_reports_and_cross_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "p"
    shutil.copytree(CASES / "latex-natbib", folder)
    (folder / "main.aux").write_text("\\citation{lecun2015deep}\n\\citation{onlyinaux}\n")
    out = folder / "report.json"
    assert main(["latex", str(folder / "main.tex"), "-o", str(out)]) == 1  # ghost2020
    report = json.loads(out.read_text())
    kinds = {(f["kind"], f["key"]) for f in report["findings"]}
    assert ("undefined", "ghost2020") in kinds
    assert ("missed_by_extraction", "onlyinaux") in kinds
    assert ("not_in_aux", "he2016deep") in kinds
    assert report["summary"]["citations"] == 11


def test_user_macros_that_cite_are_read_as_their_citation(tmp_path: Path) -> None:
    (tmp_path / "macros.tex").write_text(
        "\\newcommand{\\seecite}[2][see]{\\citep[#1][]{#2}}\n\\def\\always#1{\\citet{#1,base}}\n",
        encoding="utf-8",
    )
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\\input{macros}\n"
        "\\newcommand{\\mine}[1]{\\cite{#1}}\n"
        "\\begin{document}\n"
        "First \\mine{a,b}. Then \\seecite{c} and \\seecite[cf.]{d}.\n\n"
        "Always \\always{e}. Missing \\mine and \\renewcommand{\\mine}[1]{\\cite{#1}}.\n"
        "\\end{document}\n",
        encoding="utf-8",
    )
    citations = extract_latex(tmp_path / "main.tex").citations
    assert [(c.key, c.mode, c.location.line) for c in citations] == [
        ("a", N, 4),
        ("b", N, 4),
        ("c", N, 4),
        ("d", N, 4),
        ("e", T, 6),
        ("base", T, 6),
    ]
    assert citations[0].claim == "First […]."


def test_the_preamble_is_not_part_of_a_claim(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\\newcommand{\\x}[1]{#1}\n\\begin{document}\n"
        "Body text \\cite{a}.\n\\end{document}\n",
        encoding="utf-8",
    )
    (citation,) = extract_latex(tmp_path / "main.tex").citations
    assert citation.claim == "Body text […]."


def test_one_files_citations_as_the_project_reader_reads_them(tmp_path: Path) -> None:
    from citecore.extract.latex import citation_commands, extract_latex, project_macros

    (tmp_path / "macros.tex").write_text("\\newcommand{\\seecite}[1]{(see \\cite{#1})}\n")
    main = tmp_path / "main.tex"
    main.write_text(
        "\\documentclass{article}\n\\input{macros}\n"
        "\\newcommand{\\code}[1]{\\texttt{\\detokenize{#1}}}\n\\begin{document}\n"
        "\\input{body}\n\\end{document}\n"
    )
    body = tmp_path / "body.tex"
    body.write_text(
        "A \\cite{a1}, \\seecite{a2}, \\code{\\cite{shown}} and % \\cite{commented}\n"
        "\\nocite{listed}\n"
    )
    macros = project_macros(main)
    keys = [k for c in citation_commands(body.read_text(), macros) for k, _, _ in c.keys]
    assert keys == ["a1", "a2", "listed"]
    extracted = extract_latex(main)
    assert [c.key for c in extracted.citations] == ["a1", "a2"]
    assert extracted.nocite == ["listed"]
    # Without the project's macros a chapter's own text says less: what its macros make.
    assert [k for c in citation_commands(body.read_text()) for k, _, _ in c.keys] == [
        "a1",
        "shown",
        "listed",
    ]


def test_a_long_file_without_blank_lines_gives_each_citation_its_own_sentence(
    tmp_path: Path,
) -> None:
    body = "\n".join(
        f"Sentence {n} reports finding number {n} \\citep[p.~{n % 9 + 1}]{{key{n}}}."
        for n in range(400)
    )
    main = tmp_path / "main.tex"
    main.write_text(f"\\documentclass{{article}}\n\\begin{{document}}\n{body}\n\\end{{document}}\n")
    citations = extract_latex(main).citations
    assert len(citations) == 400
    for n in (0, 199, 399):
        assert citations[n].claim == f"Sentence {n} reports finding number {n} […]."
        # The paragraph is a stretch around the citation, not the whole file.
        assert f"Sentence {n} " in citations[n].paragraph
        assert len(citations[n].paragraph) < 6000
