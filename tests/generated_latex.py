"""Generated LaTeX projects that mix the constructs a citation lives among, and the oracle they
are judged by: the `\\citation` lines of the `.aux` (natbib, for BibTeX) or the `<bcf:citekey>`
elements of the `.bcf` (biblatex, for biber) that one pdflatex run writes.

Shared by the differential test (a bounded number of examples in CI) and
bench/latex_differential.py (hundreds).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ElementTree
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st

from citecore.extract.latex import extract_latex

KEYS = st.sampled_from(["smith2020", "doe_2019", "lee:2021", "garcia-lopez2018", "wu.2023", "k1"])
WORDS = st.sampled_from(["results", "show", "that", "the", "method", "works", "as", "shown"])

NATBIB = {
    "plain": [
        "\\cite{{{k}}}",
        "\\citep{{{k}}}",
        "\\citet{{{k}}}",
        "\\citep*{{{k}}}",
        "\\citet*{{{k}}}",
        "\\citealp{{{k}}}",
        "\\citealt{{{k}}}",
        "\\citeauthor{{{k}}}",
        "\\citeyear{{{k}}}",
        "\\citeyearpar{{{k}}}",
        "\\Citet{{{k}}}",
        "\\citep[p.~3]{{{k}}}",
        "\\citep[see][chap.~2]{{{k},{o}}}",
        "\\citet[][]{{{k}}}",
        "\\citep{{{k}, {o}}}",
        "\\cite{{{k},\n{o}}}",
        "\\nocite{{{k}}}",
    ],
    "preamble": "\\usepackage{natbib}",
    "end": "\\bibliographystyle{plainnat}\n\\bibliography{refs}",
}
BIBLATEX = {
    "plain": [
        "\\cite{{{k}}}",
        "\\parencite{{{k}}}",
        "\\Parencite{{{k}}}",
        "\\textcite{{{k}}}",
        "\\Textcite{{{k}}}",
        "\\autocite{{{k}}}",
        "\\footcite{{{k}}}",
        "\\smartcite{{{k}}}",
        "\\supercite{{{k}}}",
        "\\parencite*{{{k}}}",
        "\\citeauthor{{{k}}}",
        "\\citeyear{{{k}}}",
        "\\citetitle{{{k}}}",
        "\\fullcite{{{k}}}",
        "\\parencite[see][12]{{{k},{o}}}",
        "\\textcite[p.~3]{{{k}}}",
        "\\cites(Pre)(post)[1]{{{k}}}[see][2]{{{o}}}",
        "\\parencites{{{k}}}{{{o}}}",
        "\\textcites[3]{{{k}}}{{{o}}}",
        "\\autocites{{{k}}}[4]{{{o}}}",
        "\\nocite{{{k}}}",
        "\\citename{{{k}}}{{author}}",
        "\\citelist{{{k}}}[]{{publisher}}",
        "\\citefield[see][]{{{k}}}{{title}}",
        "\\citeurl{{{k}}}",
        "\\citedate{{{k}}}",
        "\\volcite{{2}}{{{k}}}",
        "\\pvolcite[see]{{3}}[45]{{{k}}}",
        "\\tvolcite{{1}}{{{k}}}",
        "\\ftvolcite{{4}}[12]{{{k}}}",
        "\\avolcites{{1}}{{{k}}}{{2}}[7]{{{o}}}",
        "\\notecite[12]{{{k}}}",
        "\\footcitetexts{{{k}}}{{{o}}}",
    ],
    "preamble": "\\usepackage[backend=biber]{biblatex}\n\\addbibresource{refs.bib}",
    "end": "\\printbibliography",
}
FAMILIES = {"natbib": NATBIB, "biblatex": BIBLATEX}
PREAMBLE = (
    "\\documentclass{article}\n{family}\n\\usepackage{hyperref}\n\\usepackage{verbatim}\n"
    # Captions typeset once: article measures a caption by typesetting it, citing twice.
    "\\usepackage[singlelinecheck=false]{caption}\n"
    "\\newcommand{\\see}[1]{(see #1)}\n"
    "\\newcommand{\\mycite}[1]{\\cite{#1}}\n"
    "\\def\\othercite#1{\\cite{#1}}\n"
    "\\newcommand{\\wrapped}[2][see]{\\cite[#1][]{#2}}\n"
    "\\input{macros}\n"
    "\\newcommand{\\shown}[1]{\\texttt{\\detokenize{#1}}}\n"
    # Text put aside by a macro that drops its argument, as writers do.
    "\\newcommand{\\ignore}[1]{}\n"
    "\\def\\hide#1{}\n"
)

# Macros a preamble inputs from a file of their own: one cites, one prints its argument as code.
MACROS = (
    "\\newcommand{\\fromfile}[1]{\\cite{#1}}\n"
    "\\newcommand{\\shownfromfile}[1]{\\texttt{\\detokenize{#1}}}\n"
    # Switches declared and set in a file of their own, used and flipped in the others: TeX
    # reads every file with the switches as the files read before it left them.
    "\\newif\\ifcarried\\carriedtrue\n"
    "\\newif\\ifhidden\n"
)


@dataclass
class Project:
    """A generated LaTeX project: the main file, its included files, and its family."""

    family: str
    main: str
    parts: dict[str, str] = field(default_factory=dict)

    def write(self, folder: Path) -> Path:
        """Write the project under `folder`; return the main file."""
        for name, text in self.parts.items():
            (folder / name).write_text(text, encoding="utf-8")
        (folder / "refs.bib").write_text("", encoding="utf-8")
        (folder / "macros.tex").write_text(MACROS, encoding="utf-8")
        main = folder / "main.tex"
        main.write_text(self.main, encoding="utf-8")
        return main


@st.composite
def citation(draw: st.DrawFn, family: str) -> str:
    """One citation command of `family`, in any of its forms."""
    form = draw(st.sampled_from(FAMILIES[family]["plain"]))
    return str(form).format(k=draw(KEYS), o=draw(KEYS))


@st.composite
def construct(draw: st.DrawFn, family: str) -> str:
    """A sentence with a citation among things that are or are not citations."""
    words = " ".join(draw(st.lists(WORDS, min_size=1, max_size=5))).capitalize()
    cite = draw(citation(family))
    key = draw(KEYS)
    forms = [
        "{w} {c}.",
        "{w} \\emph{{as {c} shows}}.",
        "{w} \\see{{{c}}}.",
        "{w}\\footnote{{{w} {c}.}} and more.",
        "{w} % {c} is a comment\nand on.",
        "{w} 50\\% of cases {c}.",
        "{w} \\\\% {c}\n",
        "\\begin{{verbatim}}\n{c}\n\\end{{verbatim}}\n{w}.",
        "\\begin{{comment}}\n{c}\n\\end{{comment}}\n{w}.",
        "{w} \\verb|{c}| and {c}.",
        "\\iffalse {c} \\fi {w}.",
        # TeX skips to the matching \fi, counting the conditionals it passes.
        "\\iffalse {c} \\iffalse {c} \\fi {c} \\fi {w}.",
        "\\iftrue {c} \\else {c} \\fi {w}.",
        "\\iffalse {w} \\else {c} \\fi {w}.",
        "\\newif\\ifdrafting\\draftingtrue\\ifdrafting {c}\\else {w} {c}\\fi.",
        "\\newif\\ifdrafting\\ifdrafting {c}\\else {w}\\fi.",
        "\\iffalse \\ifthenelse{{1=1}}{{{c}}}{{}} {c} \\fi {w}.",
        "\\ifcarried {c}\\else {w} {c}\\fi {w}.",
        "\\ifhidden {c}\\else {w}\\fi {w}.",
        "{w}. \\carriedfalse\\hiddentrue",
        "{w}. \\carriedtrue\\hiddenfalse",
        "{w} \\href{{https://example.org/a_b%20c}}{{the site}} {c}.",
        "{w} \\href{{https://example.org}}{{{c}}}.",
        "{w} \\url{{https://example.org/%7Ex}} {c}.",
        "{w} $x^{{2}}_{{i}}$ {c} and \\(y\\).",
        "{w} \\shown{{\\cite{{{k}}}}} {c}.",
        "\\def\\unused#1{{\\citep{{#1}} {c}}}{w}.",
        "\\renewcommand{{\\see}}[1]{{(cf. #1)}}{w} \\see{{{c}}}.",
        "\\section{{{w}}} {w} {c}.",
        "\\section[{w}]{{{w} {c}}}",
        "\\begin{{itemize}}\\item {w} {c}\\end{{itemize}}",
        "\\begin{{figure}}\\caption{{{w} {c}}}\\end{{figure}}",
        "\\begin{{table}}\\begin{{tabular}}{{ll}} {w} & {c} \\\\ \\end{{tabular}}\\end{{table}}",
        "{w} \\textbf{{{c}}}\\textit{{{w}}}.",
        "{w} \\mycite{{{k}}} and \\othercite{{{k}}}.",
        "{w} \\wrapped{{{k}}} and \\wrapped[cf.]{{{k}}}.",
        "{w} \\fromfile{{{k}}} and \\shownfromfile{{\\cite{{{k}}}}}.",
        "{w} \\ignore{{{w} {c}.}} and {c}.",
        "\\hide{{{c}}}{w} {c}.",
    ]
    form = draw(st.sampled_from(forms))
    if ("caption" in form or "section" in form) and cite.startswith("\\nocite"):
        cite = "\\cite" + cite[len("\\nocite") :]  # \nocite is fragile in a moving argument
    if "%" in form or "verb|" in form:  # both end at the line: a split citation would leak
        cite = cite.replace("\n", " ")
    return form.format(w=words, c=cite, k=key)


@st.composite
def project(draw: st.DrawFn) -> Project:
    """A project of one family: a main file and up to two \\input files."""
    family = draw(st.sampled_from(sorted(FAMILIES)))
    spec = FAMILIES[family]
    parts: dict[str, str] = {}
    body: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.integers(0, 5)) == 0 and len(parts) < 2:
            name = f"part{len(parts) + 1}"
            parts[f"{name}.tex"] = "\n\n".join(
                draw(st.lists(construct(family), min_size=1, max_size=3))
            )
            body.append(
                draw(st.sampled_from(["\\input{{{n}}}", "\\input{{{n}.tex}}"])).format(n=name)
            )
        else:
            body.append(draw(construct(family)))
    main = (
        PREAMBLE.replace("{family}", str(spec["preamble"]))
        + "\\begin{document}\n"
        + "\n\n".join(body)
        + "\n\n"
        + str(spec["end"])
        + "\n\\end{document}\n"
    )
    return Project(family, main, parts)


_BCF = "{https://sourceforge.net/projects/biblatex}"


def recorded_keys(main: Path, family: str) -> Counter[str]:
    """Every key LaTeX recorded, with how often: the oracle."""
    if family == "natbib":
        text = main.with_suffix(".aux").read_text(encoding="utf-8", errors="replace")
        return Counter(
            key.strip()
            for keys in re.findall(r"\\citation\{([^}]*)\}", text)
            for key in keys.split(",")
            if key.strip()
        )
    root = ElementTree.parse(main.with_suffix(".bcf")).getroot()
    return Counter((element.text or "").strip() for element in root.iter(f"{_BCF}citekey"))


def compile_project(main: Path) -> str | None:
    """Run pdflatex once (it writes the .aux and .bcf); the log's error, if it stopped."""
    completed = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", main.name],
        cwd=main.parent,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
    )
    if completed.returncode != 0:
        errors = [line for line in completed.stdout.splitlines() if line.startswith("!")]
        return errors[0] if errors else f"pdflatex exited {completed.returncode}"
    return None


def disagreements(generated: Project) -> list[str]:
    """How citecheck's reading of the project differs from what LaTeX recorded: keys and counts,
    and citations whose mapped line does not hold their key."""
    folder = Path(tempfile.mkdtemp(prefix="citecheck-latex-"))
    try:
        main = generated.write(folder)
        failure = compile_project(main)
        if failure is not None:
            return [f"uncompilable {failure}"]
        expected = recorded_keys(main, generated.family)
        extraction = extract_latex(main)
        found = Counter(c.key for c in extraction.citations) + Counter(extraction.nocite)
        problems = [f"missed {key} ×{count}" for key, count in (expected - found).items()] + [
            f"extra {key} ×{count}" for key, count in (found - expected).items()
        ]
        for citation in extraction.citations:
            location = citation.location
            lines = Path(location.file).read_text(encoding="utf-8").splitlines()
            line = lines[location.line - 1] if location.line else ""
            following = lines[location.line] if location.line and location.line < len(lines) else ""
            if citation.key not in line + following:
                problems.append(f"misplaced {citation.key} at {location.file}:{location.line}")
        return problems
    finally:
        shutil.rmtree(folder, ignore_errors=True)
