"""The journal classes' own citation commands, held to a real build: each class's document is
compiled with pdflatex and the keys citecheck reads must be the keys LaTeX wrote to the `.aux`
(with how often), as a writer's paper in that class would be."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from citecore.extract.aux import aux_keys, class_generated
from citecore.extract.latex import extract_latex
from tests.conftest import requires_latex
from tests.generated_latex import recorded_keys

_BIB = "".join(
    f"@article{{{key}, title = {{Work {key}}}, author = {{Author, A.}}, journal = {{J}}, "
    f"year = {{2020}}}}\n"
    for key in "a b c d e f g h i j".split()
)

# Each class with the citation commands it defines (read from the class TeX Live ships).
DOCUMENTS = {
    "revtex4-2": (
        "\\documentclass[aip,jcp]{revtex4-2}\n\\begin{document}\n"
        "As shown in Refs.~\\onlinecite{a,b}, and by \\textcite{c}, it holds \\cite{d}."
        "\\footnote{A footnote REVTeX turns into a bibliography note.}\n"
        "\\bibliography{refs}\n\\end{document}\n"
    ),
    "acmart": (
        "\\documentclass[sigconf,natbib=true]{acmart}\n"
        "\\settopmatter{printacmref=false}\n\\setcopyright{none}\n"
        "\\begin{document}\n\\title{T}\n\\maketitle\n"
        "\\citeN{a} showed it; \\citeANP{b} too (\\citeNN{c}), \\citeNP{d} and \\citeA{e}; "
        "\\citeyearNP{f}; \\shortcite{g}; \\cite{h}.\n"
        "\\bibliographystyle{ACM-Reference-Format}\n\\bibliography{refs}\n\\end{document}\n"
    ),
    "mnras": (
        "\\documentclass{mnras}\n\\begin{document}\n"
        "As \\cite{a} found, and \\shortcite{c}; see also \\cite{b,d}.\n"
        "\\bibliographystyle{mnras}\n\\bibliography{refs}\n\\end{document}\n"
    ),
    "natbib-aliases": (
        "\\documentclass{article}\n\\usepackage{natbib}\n"
        "\\defcitealias{a}{Paper~I}\n\\defcitealias{b}{Paper~II}\n\\begin{document}\n"
        "In \\citetalias{a} and \\citepalias{b}, as \\citet{c} and \\citealp{d} say.\n"
        "\\bibliographystyle{plainnat}\n\\bibliography{refs}\n\\end{document}\n"
    ),
    "IEEEtran": (
        "\\documentclass[conference]{IEEEtran}\n\\begin{document}\n"
        "It holds \\cite{a,b}; see also \\cite{c}.\n"
        "\\bibliographystyle{IEEEtran}\n\\bibliography{refs}\n\\end{document}\n"
    ),
}


@requires_latex
@pytest.mark.parametrize("name", sorted(DOCUMENTS))
def test_a_class_s_citations_are_latex_s(name: str, tmp_path: Path) -> None:
    main = tmp_path / "main.tex"
    main.write_text(DOCUMENTS[name], encoding="utf-8")
    (tmp_path / "refs.bib").write_text(_BIB, encoding="utf-8")
    cls = "revtex4-2.cls" if name == "revtex4-2" else f"{name}.cls"
    if name != "natbib-aliases" and shutil.which("kpsewhich"):
        where = subprocess.run(["kpsewhich", cls], capture_output=True, text=True, check=False)
        if not where.stdout.strip():
            pytest.skip(f"{cls} is not installed (texlive-publishers)")
    completed = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "main.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=300,
        check=False,
    )
    aux = tmp_path / "main.aux"
    assert aux.is_file(), completed.stdout[-2000:]
    # LaTeX's keys, less those the class writes for itself (REVTeX's control entries and the
    # notes it makes of footnotes), which citecheck's reading of the .aux leaves out too.
    expected = Counter(
        {k: n for k, n in recorded_keys(main, "natbib").items() if not class_generated(k)}
    )
    assert aux_keys(aux) == set(expected)
    extraction = extract_latex(main)
    found = Counter(c.key for c in extraction.citations) + Counter(extraction.nocite)
    assert found == expected, (found, expected)
