"""The oracle for the wild LaTeX projects: a real latexmk build (pdfLaTeX, or XeLaTeX where the
project loads fontspec or ctex) in a copy of the project, and the keys its `.aux`/`.bcf` record.

The corpus keeps each project's sources but not always its figures or generated inputs; the
build is given an empty stand-in for each such file (a blank page for a figure, an empty file
for an `\\input`, a folder to write into), as a writer's build would have the real ones. A
class, package or style that neither the project nor TeX Live has is recorded as missing (the
project does not build), then stood in for too (an empty package, `article` for a class,
biblatex's standard styles) so that LaTeX still records the citations it reads: an oracle for
the keys, not a build."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from citecore.extract.aux import aux_keys, bcf_keys
from tests.paths import CORPUS

WILD = CORPUS / "wild" / "latex"

_NOT_FOUND = re.compile(
    r"(?:LaTeX Error: File|Package [\w.]+ Error: File) `([^']+)' not found"
    r"|Package pdfpages Error: Cannot find file `([^']+)'"
)
# TeX's own words for an `\input` without a suffix that is not there: a source, not a figure.
_NO_INPUT = re.compile(r"! I can't find file `([^']+)'")
_NO_BST = re.compile(r"I couldn't open style file (\S+\.bst)")
_NO_FOLDER = re.compile(r"! I can't write on file `([^']+)'")
_NO_BIBLATEX_STYLE = re.compile(r"Package biblatex Error: Style '([^']+)' not found")
# The rules a writer's latexmkrc adds for glossaries: a citation in a glossary entry is read by
# LaTeX only once makeglossaries has written the glossary.
_GLOSSARIES = (
    'add_cus_dep("glo", "gls", 0, "glossaries"); add_cus_dep("acn", "acr", 0, "glossaries");'
    ' sub glossaries { return system("makeglossaries \\"$_[0]\\""); }'
)
_TEX_STAND_IN = {
    ".cls": "\\LoadClass{article}\n",
    ".bbx": "\\RequireBibliographyStyle{standard}\n",
    ".cbx": "\\RequireCitationStyle{numeric}\n",
}
_TEX_SUPPORT = {".sty", ".cls", ".clo", ".bst", ".bbx", ".cbx", ".lbx", ".def", ".fd", ".cfg"}
_TEX_SUPPORT |= {".ldf", ".tfm", ".enc", ".map", ".otf", ".ttf", ".pfb"}
# The last pass writes no PDF (latexmk's is kept): xelatex's own PDF driver may stop the run.
_ENGINES = {"-pdf": ("pdflatex", "-draftmode"), "-xelatex": ("xelatex", "-no-pdf")}
_FIGURES = {".pdf", ".png", ".jpg", ".jpeg", ".eps"}
_XETEX = re.compile(
    r"\\usepackage(?:\[[^]]*\])?\{[^}]*\b(?:fontspec|unicode-math|xeCJK|kotex|ctex)\b|\{ctex\w*\}"
)


@dataclass(frozen=True)
class Project:
    """One row of the wild corpus's LaTeX manifest (or a folder of another part of the corpus:
    `root`)."""

    name: str
    main: str
    root: Path = WILD

    @property
    def folder(self) -> Path:
        """The project in the corpus (read only)."""
        return self.root / self.name


@dataclass(frozen=True)
class Build:
    """What a real build of a copy of a project left: its main file, whether a PDF came out,
    the TeX files neither the project nor TeX Live has, the files stood in for (those among
    them), and the keys LaTeX recorded."""

    main: Path
    pdf: bool
    missing_tex: tuple[str, ...]
    stand_ins: tuple[str, ...]
    recorded: frozenset[str]


def projects() -> list[Project]:
    """Every project the manifest lists, in its order."""
    rows = (WILD.parent / "MANIFEST-latex.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [Project(row.split("\t")[0], row.split("\t")[1]) for row in rows]


def engine(folder: Path) -> str:
    """latexmk's switch for the engine the project needs: XeLaTeX where a source or class of
    it loads fontspec, unicode-math, xeCJK, kotex or ctex (they stop under pdfLaTeX), else
    pdfLaTeX."""
    for path in [*folder.rglob("*.tex"), *folder.rglob("*.cls")]:
        if _XETEX.search(path.read_text(encoding="utf-8", errors="replace")):
            return "-xelatex"
    return "-pdf"


def _stand_in(path: Path, natbib: bool) -> None:
    """An empty stand-in for a file the corpus does not carry: a blank page for a figure,
    nothing for a source; a package that must have loaded natbib (`natbib`: the project uses
    natbib's commands and loads no citation package itself, as with ACL's `acl.sty`) loads it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    suffix = path.suffix.lower()
    if suffix == ".sty" and natbib:
        path.write_text("\\RequirePackage{natbib}\n", encoding="utf-8")
    elif suffix in _TEX_SUPPORT:
        path.write_text(_TEX_STAND_IN.get(suffix, ""), encoding="utf-8")
    elif suffix in _FIGURES or not suffix:
        page = pymupdf.open()
        page.new_page(width=72, height=72)
        pixmap = page[0].get_pixmap()
        target = path if suffix else path.with_suffix(".pdf")
        if target.suffix.lower() in (".png", ".jpg", ".jpeg"):
            pixmap.save(str(target))
        elif target.suffix.lower() == ".eps":
            target.write_text("%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 72 72\nshowpage\n")
        else:
            page.save(str(target))
        page.close()
    else:
        path.write_text("", encoding="utf-8")


def _needs_natbib(folder: Path) -> bool:
    """Whether the project uses natbib's commands without loading natbib or biblatex itself
    (a class or package it names but does not carry would have)."""
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in folder.rglob("*.tex")]
    uses = any(re.search(r"\\cite[tp]\*?[\[{]", t) for t in texts)
    loads = any(
        re.search(r"\\usepackage(?:\[[^]]*\])?\{[^}]*\b(?:natbib|biblatex)\b", t) for t in texts
    )
    return uses and not loads


def build(project: Project, work: Path, rounds: int = 40) -> Build:
    """Build a copy of `project` in `work` with latexmk (nonstop, forced through errors, so
    that the .aux/.bcf hold every citation LaTeX met), adding stand-ins for absent figures and
    inputs until none is missing."""
    folder = work / project.name
    shutil.copytree(project.folder, folder)
    main = folder / project.main
    stand_ins: list[str] = []
    missing_tex: list[str] = []
    for round_ in range(rounds):
        again = ["-g"] if round_ else []  # latexmk does not know the stand-ins are new inputs
        subprocess.run(
            [
                *("latexmk", engine(folder), "-interaction=nonstopmode", "-f", *again),
                *("-e", _GLOSSARIES, main.name),
            ],
            cwd=main.parent,
            env={**os.environ, "max_print_line": "100000"},  # one log line a message
            capture_output=True,
            timeout=900,
            check=False,
        )
        log = main.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
        for written in _NO_FOLDER.findall(log):
            (main.parent / written).parent.mkdir(parents=True, exist_ok=True)
        styles = _NO_BIBLATEX_STYLE.findall(log)
        absent = sorted(
            {a or b for a, b in _NOT_FOUND.findall(log)}
            | {n if Path(n).suffix else f"{n}.tex" for n in _NO_INPUT.findall(log)}
            | {f"{style}{suffix}" for style in styles for suffix in (".bbx", ".cbx")}
        )
        new = [a for a in absent if a not in stand_ins]
        missing_tex += [a for a in new if Path(a).suffix.lower() in _TEX_SUPPORT]
        if not new and not _NO_FOLDER.search(log):
            break
        for name in new:
            _stand_in(main.parent / name, _needs_natbib(folder))
        stand_ins += new
    # latexmk stops rerunning on some errors (even forced); one more pass over the settled .aux
    # leaves a log whose undefined citations are LaTeX's last word.
    subprocess.run(
        [*_ENGINES[engine(folder)], "-interaction=nonstopmode", main.name],
        cwd=main.parent,
        capture_output=True,
        timeout=900,
        check=False,
    )
    blg = main.with_suffix(".blg")
    if blg.is_file():  # BibTeX's own word for a style neither the project nor TeX Live has
        log = blg.read_text(encoding="utf-8", errors="replace")
        missing_tex += _NO_BST.findall(log)
    recorded = aux_keys(main.with_suffix(".aux"))
    if main.with_suffix(".bcf").is_file():
        recorded |= bcf_keys(main.with_suffix(".bcf"))
    return Build(
        main,
        main.with_suffix(".pdf").is_file(),
        tuple(missing_tex),
        tuple(stand_ins),
        frozenset(recorded),
    )
