"""Real LaTeX projects of ../shared/corpus/wild/latex built with latexmk, as a writer builds
them, and read by citecheck: the project builds with the TeX Live `make install-tex` installs
(or lacks only what TeX Live cannot have, named in tests/wild/sweep.py); citecheck's keys are
the keys of its .aux/.bcf, its undefined citations those LaTeX's log calls undefined, and its
own cross-check against the .aux finds nothing. CI runs a fixed share across the classes of
project (thebibliography, natbib, biblatex/biber, plain BibTeX, XeLaTeX, languages, project
macros, files the repository lacks); `python bench/wild_sweep.py --only latex` runs all 28."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.wild.latex_build import Project, projects
from tests.wild.sweep import NOT_IN_TEX_LIVE, latex_row

_SHARE = {
    "aastex-nzmodes-thebibliography",  # inline thebibliography, in-repo class
    "acl-best-words-report",  # the style's own citation macros
    "avmf-camera-ready-thebibliography",  # an \input the repository lacks
    "bioinfo-cor-allenday",  # a journal class TeX Live does not have
    "de-bachelorarbeit-dynamic-flows",  # German, \nocite*
    "de-bachelorarbeit-scrbook-biblatex",  # biblatex + biber
    "de-bachelorarbeit-sebibliography-macro",  # bibliography named through a macro, glossaries
    "es-higgs-boletin-thebibliography",  # Spanish, thebibliography
    "llncs-tophat-dblp-crossref",  # \cite redefined by a macro file the repository lacks
    "mnras-hybrid-neutrino",  # natbib, a publisher's class
    "niuthesis-vortex-thebibliography",  # \includeonly{\files}
    "sigchi-autograding",  # \ignore{...} drops its citations
    "svjour3-monet2008",  # Springer's svjour3
    "zh-thuthesis-bachelor",  # XeLaTeX, Chinese
}
_PROJECTS = [p for p in projects() if os.environ.get("CITECHECK_WILD_ALL") or p.name in _SHARE]


@pytest.mark.skipif(shutil.which("latexmk") is None, reason="make test installs TeX Live")
@pytest.mark.parametrize("project", _PROJECTS, ids=lambda p: p.name)
def test_project_reads_as_latex_reads_it(project: Project, tmp_path: Path) -> None:
    row = latex_row(project, tmp_path)
    assert set(row.missing_tex) <= set(NOT_IN_TEX_LIVE), "run `make install-tex`"
    assert row.built or row.missing_tex
    assert row.citecheck_keys == row.latex_keys
    assert row.citecheck_undefined == row.latex_undefined
    assert row.cross_check == ()


def test_the_share_names_real_projects() -> None:
    assert {p.name for p in projects()} >= _SHARE
