"""One row per item of the wild corpus, citecheck held to the writer's own toolchain: each LaTeX
project built (tests/wild/latex_build.py) and read, each bibliography read by BibTeX, each
Markdown document knitted and read by pandoc. Shared by tests/wild/ and bench/wild_sweep.py."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory

from citecore.api import check_latex_file
from citecore.bib.loader import load_bibliographies
from citecore.extract.latex import extract_latex
from citecore.extract.locate import SourceFile
from citecore.extract.markdown import extract_citations
from citecore.model import FindingKind
from citecore.options import Options
from citecore.pandoc.knitr import as_knitr_reads, is_knitr_source
from citecore.pandoc.reader import read_markdown
from tests.generated_markdown import ast_keys
from tests.knitr_oracle import knit
from tests.pandoc_json import read_json
from tests.paths import CORPUS
from tests.wild.latex_build import Project, build

WILD = CORPUS / "wild"

# What real projects ask for that neither their repository nor TeX Live has, and why: the build
# stands in for them (tests/wild/latex_build.py), so their keys are still held to LaTeX.
NOT_IN_TEX_LIVE = {
    "bioinfo.cls": "Oxford Bioinformatics' own class, never on CTAN",
    "psfig.sty": "removed from TeX Live long ago (graphicx replaces it)",
    "scrpage2.sty": "removed from KOMA-Script in 2019 (scrlayer-scrpage replaces it)",
    "slashbox.sty": "not in TeX Live (its licence; diagbox replaces it)",
    "thuthesis.cfg": "the repository keeps an old thuthesis.cls but not its .cfg",
    "sn-basic.bst": "Springer Nature's template ships it; TeX Live does not have it",
    "nicobib.bbx": "the writer's own biblatex style, not in the repository",
    "nicobib.cbx": "the writer's own biblatex style, not in the repository",
}
_UNDEFINED = re.compile(r"Citation [`']([^']+)' (?:on page \d+ )?undefined")
# A BibTeX style that writes every entry's key on a line: what BibTeX read of a .bib.
_KEYS_BST = "ENTRY { } { } { }\nREAD\nFUNCTION {key} { cite$ write$ newline$ }\nITERATE {key}\n"


@dataclass(frozen=True)
class LatexRow:
    """A LaTeX project: whether it built, what TeX Live lacked, the keys on both sides, the
    citations LaTeX and citecheck call undefined (LaTeX's only where the project built: with
    a class stood in, its BibTeX style may be missing too), and citecheck's cross-check
    findings."""

    name: str
    built: bool
    missing_tex: tuple[str, ...]
    latex_keys: frozenset[str]
    citecheck_keys: frozenset[str]
    latex_undefined: frozenset[str]
    citecheck_undefined: frozenset[str]
    cross_check: tuple[str, ...]

    @property
    def keys_equal(self) -> bool:
        """The keys citecheck reads are those LaTeX recorded."""
        return self.latex_keys == self.citecheck_keys


def latex_row(project: Project, work: Path) -> LatexRow:
    """Build one project in `work` and read it with citecheck (offline)."""
    done = build(project, work)
    extraction = extract_latex(done.main)
    keys = {c.key for c in extraction.citations} | set(extraction.nocite)
    keys |= {"*"} if extraction.nocite_all else set()
    log = done.main.with_suffix(".log").read_text(encoding="utf-8", errors="replace")
    result = check_latex_file(done.main, Options())
    undefined = {f.key or "" for f in result.findings if f.kind is FindingKind.UNDEFINED}
    return LatexRow(
        project.name,
        done.pdf and not done.missing_tex,
        done.missing_tex,
        done.recorded,
        frozenset(keys),
        frozenset(_UNDEFINED.findall(log)) if not done.missing_tex else frozenset(undefined),
        frozenset(undefined),
        tuple(
            f"{f.kind.value} {f.key}"
            for f in result.findings
            if f.kind in (FindingKind.MISSED_BY_EXTRACTION, FindingKind.NOT_IN_AUX)
        ),
    )


def bibtex_keys(path: Path) -> list[str]:
    """The keys of the entries BibTeX reads from a .bib, in order (`\\nocite{*}`)."""
    with TemporaryDirectory() as folder:
        shutil.copy(path, Path(folder) / "in.bib")
        Path(folder, "keys.bst").write_text(_KEYS_BST, encoding="ascii")
        Path(folder, "job.aux").write_text("\\citation{*}\n\\bibstyle{keys}\n\\bibdata{in}\n")
        subprocess.run(["bibtex", "-min-crossrefs=100000", "job"], cwd=folder, capture_output=True)
        printed = Path(folder, "job.bbl").read_bytes().decode("utf-8", errors="replace")
    return printed.split("\n")[:-1]


@dataclass(frozen=True)
class BibRow:
    """A bibliography: the keys BibTeX reads, those citecheck reads as entries, and those it
    reports as unparsed."""

    name: str
    bibtex: frozenset[str]
    read: frozenset[str]
    unparsed: frozenset[str]


def bib_row(path: Path) -> BibRow:
    """Read one .bib with BibTeX and with citecheck."""
    bibliography = load_bibliographies([path])
    return BibRow(
        path.name,
        frozenset(bibtex_keys(path)),
        frozenset(bibliography.references),
        frozenset(u.key for u in bibliography.unparsed if u.key),
    )


def markdown_documents() -> list[Path]:
    """The main file of every document, as the wild corpus's manifest names it."""
    rows = (WILD / "MANIFEST-markdown.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return [WILD / "markdown" / row.split("\t")[0] / row.split("\t")[1] for row in rows]


def markdown_keys(path: Path) -> tuple[list[str], list[str]]:
    """(the keys pandoc's AST holds after knitr, the keys citecheck reads), in order."""
    text = path.read_text(encoding="utf-8")
    oracle = ast_keys(read_json(knit(text, path.parent) if is_knitr_source(path) else text))
    source = SourceFile(str(path), as_knitr_reads(path, text))
    extraction = extract_citations(read_markdown(path), [source])
    return oracle, [c.key for c in extraction.citations]
