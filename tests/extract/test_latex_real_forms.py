"""Forms real LaTeX projects use, each held to what LaTeX and BibTeX do with it: an inline
`thebibliography` is the bibliography; a bibliography that is not there is one finding and the
report is still written; a key list LaTeX or BibTeX rejects is a warning at its line."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from citecore.api import check_latex_file
from citecore.cli import main
from citecore.extract.latex import extract_latex
from citecore.model import FindingKind
from citecore.options import Options
from tests.conftest import requires_latex

INLINE = r"""\documentclass{article}
\begin{document}
Deep nets work \cite{lecun2015deep} and so do residual ones~\cite{he2016deep}.
\begin{thebibliography}{9}
\bibitem{lecun2015deep} Y.~LeCun, Y.~Bengio, and G.~Hinton.
\newblock Deep learning.
\newblock {\em Nature}, 521(7553):436--444, 2015.
\bibitem[He et~al.(2016)]{he2016deep}
K.~He, X.~Zhang, S.~Ren, and J.~Sun.
\newblock Deep residual learning for image recognition.
\newblock In {\em CVPR}, pages 770--778, 2016.
\end{thebibliography}
\end{document}
"""


def _check(folder: Path, text: str, name: str = "main.tex") -> list[tuple[str, str, int | None]]:
    (folder / name).write_text(text, encoding="utf-8")
    result = check_latex_file(folder / name, Options())
    return [
        (f.kind.value, f.key or "", f.location.line if f.location else None)
        for f in result.findings
    ]


def test_an_inline_thebibliography_is_the_bibliography(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text(INLINE, encoding="utf-8")
    extraction = extract_latex(tmp_path / "main.tex")
    items = {r.key: r for r in extraction.bibitems}
    assert set(items) == {"lecun2015deep", "he2016deep"}
    assert items["lecun2015deep"].title == "Deep learning"
    assert items["lecun2015deep"].year == 2015
    assert items["lecun2015deep"].authors[0].family == "LeCun"
    assert items["he2016deep"].location.line == 8
    assert "Deep residual learning" in items["he2016deep"].title
    kinds = {k for k, _, _ in _check(tmp_path, INLINE)}
    assert FindingKind.UNDEFINED.value not in kinds


def test_a_missing_bibliography_is_one_finding_and_the_report_is_written(
    tmp_path: Path,
) -> None:
    text = (
        "\\documentclass{article}\\usepackage{natbib}\n\\begin{document}\n"
        "A \\citep{a1} and \\citet{b2}.\n\\bibliographystyle{plainnat}\n"
        "\\bibliography{gone}\n\\end{document}\n"
    )
    (tmp_path / "main.tex").write_text(text, encoding="utf-8")
    out = tmp_path / "report.json"
    # An error-level finding, as `strict` (the command line's default) decides.
    assert main(["latex", str(tmp_path / "main.tex"), "-o", str(out)]) == 1
    report = json.loads(out.read_text())
    kinds = [(f["kind"], f["key"]) for f in report["findings"] if f["severity"] == "error"]
    assert kinds.count(("missing_bibliography", "")) == 1
    assert {k for kind, k in kinds if kind == "undefined"} == {"a1", "b2"}
    assert report["summary"]["citations"] == 2


def test_a_bibliography_filecontents_writes_is_named_as_written_during_the_build(
    tmp_path: Path,
) -> None:
    text = (
        "\\begin{filecontents*}[overwrite]{refs.bib}\n@misc{a1, title={T}}\n"
        "\\end{filecontents*}\n\\documentclass{article}\n\\begin{document}\n\\cite{a1}\n"
        "\\bibliographystyle{plain}\\bibliography{refs}\n\\end{document}\n"
    )
    (tmp_path / "main.tex").write_text(text, encoding="utf-8")
    result = check_latex_file(tmp_path / "main.tex", Options())
    missing = [f for f in result.findings if f.kind is FindingKind.MISSING_BIBLIOGRAPHY]
    assert len(missing) == 1
    assert "written during the build (filecontents at" in missing[0].message
    assert f"{tmp_path / 'main.tex'}:1" in missing[0].message


def test_the_bbl_a_bibtex_run_left_is_read_when_the_bib_is_gone(tmp_path: Path) -> None:
    (tmp_path / "main.bbl").write_text(
        INLINE[INLINE.index("\\begin{thebibliography}") : INLINE.index("\\end{document}")]
    )
    text = (
        "\\documentclass{article}\n\\begin{document}\n\\cite{lecun2015deep}\n"
        "\\bibliographystyle{plain}\\bibliography{refs}\n\\end{document}\n"
    )
    kinds = {k for k, _, _ in _check(tmp_path, text)}
    assert FindingKind.MISSING_BIBLIOGRAPHY.value in kinds
    assert FindingKind.UNDEFINED.value not in kinds


@requires_latex
def test_a_key_with_a_space_latex_keeps_is_a_warning_where_bibtex_rejects_it(
    tmp_path: Path,
) -> None:
    (tmp_path / "refs.bib").write_text(
        "@misc{alpha, title={A}, author={X, Y}, year=2000}\n"
        "@misc{beta, title={B}, author={Z, W}, year=2001}\n"
    )
    text = (
        "\\documentclass{article}\\usepackage{natbib}\n\\begin{document}\n"
        "One \\citep{ alpha, beta}.\nTwo \\citep{alpha , beta}.\n"
        "\\bibliographystyle{plainnat}\\bibliography{refs}\n\\end{document}\n"
    )
    found = _check(tmp_path, text)
    assert [(k, line) for kind, k, line in found if kind == "invalid_key"] == [("alpha", 4)]
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "main"], cwd=tmp_path, check=False)
    bibtex = subprocess.run(["bibtex", "main"], cwd=tmp_path, capture_output=True, text=True)
    assert "White space in argument" in bibtex.stdout
    assert bibtex.stdout.count("White space in argument") == 1  # the leading space is fine


def test_a_key_list_never_closed_is_a_warning_at_its_line(tmp_path: Path) -> None:
    text = (
        "\\documentclass{article}\n\\begin{document}\nFine \\cite{a}.\n"
        "Broken \\cite{b, c\n\\end{document}\n"
    )
    found = _check(tmp_path, text)
    assert [(kind, line) for kind, _, line in found if kind == "invalid_key"] == [
        ("invalid_key", 4)
    ]


def test_project_macros_and_switches_are_read_as_latex_reads_them(tmp_path: Path) -> None:
    (tmp_path / "mine.sty").write_text(
        "\\newcommand{\\myBibliography}[2][]{\\bibliography{#2}#1}\n\\newcommand{\\ignore}[1]{}\n"
    )
    (tmp_path / "refs.bib").write_text("@misc{a, title={A}}\n@misc{b, title={B}}\n")
    (tmp_path / "one.tex").write_text("In one \\cite{a}.\n")
    (tmp_path / "two.tex").write_text("In two \\cite{b}.\n")
    text = (
        "\\documentclass{article}\\usepackage{mine}\n\\def\\files{one}\n\\includeonly{\\files}\n"
        "\\begin{document}\n\\include{one}\n\\include{two}\n\\ignore{Not \\cite{zzz}.}\n"
        "\\nocite*\n\\myBibliography{refs}\n\\end{document}\n"
    )
    (tmp_path / "main.tex").write_text(text)
    extraction = extract_latex(tmp_path / "main.tex")
    assert [c.key for c in extraction.citations] == ["a"]
    assert extraction.nocite_all
    assert [p.name for p in extraction.bibliographies] == ["refs.bib"]


@requires_latex
def test_a_key_bibtex_matches_whatever_its_case_cites_that_entry(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text("@misc{PIRL, title={P}, author={X, Y}, year=2020}\n")
    text = (
        "\\documentclass{article}\n\\begin{document}\nAs in \\cite{pirl}.\n"
        "\\bibliographystyle{plain}\\bibliography{refs}\n\\end{document}\n"
    )
    found = _check(tmp_path, text)
    assert ("undefined", "pirl", 3) not in found
    assert ("invalid_key", "pirl", 3) in found
    for run in (["pdflatex", "-interaction=nonstopmode"], ["bibtex"], ["pdflatex"], ["pdflatex"]):
        subprocess.run(
            [*run, "main"], cwd=tmp_path, capture_output=True, check=False, stdin=subprocess.DEVNULL
        )
    assert "undefined" not in (tmp_path / "main.log").read_text(errors="replace")


def test_a_key_bibtex_matches_whatever_its_case_is_reported_as_cited(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(
        "@article{Gonzalezdelgado2005, title={T}, author={G, A}, journal={J}, year=2005}\n"
    )
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\nAs shown \\cite{GonzalezDelgado2005}.\n"
        "\\bibliographystyle{plain}\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8",
    )
    out = tmp_path / "report.json"
    main(["latex", str(tmp_path / "main.tex"), "--no-verify", "-o", str(out)])
    report = json.loads(out.read_text())
    assert [c["key"] for c in report["citations"]] == ["GonzalezDelgado2005"]
    kinds = {(f["kind"], f["key"]) for f in report["findings"]}
    assert kinds == {("invalid_key", "GonzalezDelgado2005")}  # never unused, never undefined


@requires_latex
def test_a_second_spelling_of_a_key_is_undefined_as_bibtex_leaves_it(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text("@misc{dqn, title={D}, author={X, Y}, year=2015}\n")
    text = (
        "\\documentclass{article}\n\\begin{document}\nFirst \\cite{dqn}.\nThen \\cite{DQN}.\n"
        "\\bibliographystyle{plain}\\bibliography{refs}\n\\end{document}\n"
    )
    found = _check(tmp_path, text)
    assert ("undefined", "DQN", 4) in found and ("invalid_key", "DQN", 4) in found
    assert ("undefined", "dqn", 3) not in found
    subprocess.run(["pdflatex", "-interaction=nonstopmode", "main"], cwd=tmp_path, check=False)
    bibtex = subprocess.run(["bibtex", "main"], cwd=tmp_path, capture_output=True, text=True)
    assert "Case mismatch error between cite keys DQN and dqn" in bibtex.stdout
