"""The oracle for the wild corpus's publishers' PDFs: the entries each PDF's own source printed,
with their title, first author and year as its bibliography file states them.

Which entries were printed is asked of the tool that printed them:

- a LaTeX source whose reference list citeproc already wrote into it (papaja, apaquarto and
  pandoc templates: `\\hypertarget{ref-KEY}` or `\\bibitem[…]{ref-KEY}`): those keys, in order;
- a LaTeX source with `\\cite` commands: the keys a real build's `.aux`/`.bcf` record
  (tests/wild/latex_build.py);
- R Markdown, Quarto or Markdown: knitr (where the source is knitr's), then pandoc with
  citeproc and the document's bibliography files: the `ref-KEY` entries citeproc wrote;
- where the corpus keeps the bibliography but not the files that cite (a main file whose
  `\\input`s were not copied): the bibliography's entries whose title the PDF prints, a weaker
  oracle that the table names ("titles").

The fields come from pandoc's CSL JSON of the bibliography files (BibTeX or CSL JSON), as
citeproc reads them. Each oracle is computed once per source (cached by the digest of its files
in the system's temporary folder): the LaTeX builds take a minute together.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import subprocess
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pymupdf
from bibtexparser.entrypoint import parse_string

from citecore.pandoc.knitr import is_knitr_source
from citecore.pandoc.reader import pandoc_path
from tests.knitr_oracle import knit
from tests.paths import CORPUS, SHARED
from tests.rendered_reflists import Expected, expected_entry, normalized
from tests.wild import latex_build
from tests.wild.latex_build import Project, build

PDFS = CORPUS / "wild" / "pdfs"
_CACHE = Path(tempfile.gettempdir()) / "citecheck-wild-pdf-oracle"
_CITEPROC_KEYS = re.compile(r"\\(?:hypertarget|bibitem(?:\[[^\]]*\])?)\{ref-([^}]+)\}")
_CITE = re.compile(r"\\(?:no)?cite\w*\*?\s*[\[{]")
# A title this short could be printed by chance (a heading, a word of the text).
_MIN_TITLE = 24
# How far after its title an entry's year is printed (venue, pages and publisher between).
_YEAR_REACH = 160
# How far before its title an entry's first author is printed (a long author list between).
_AUTHOR_REACH = 400


@dataclass(frozen=True)
class WildPdf:
    """One row of the corpus's PDF manifest: the PDF, its layout and style as the manifest
    describes them, its bibliography files, the main source that printed it and, where the
    manifest names one, the intermediate LaTeX file it was rendered through."""

    name: str
    pdf: Path
    layout: str
    style: str
    bibliographies: tuple[Path, ...]
    main: Path
    rendered: Path | None = None


@dataclass(frozen=True)
class Oracle:
    """What a PDF's source printed, and how that was learnt ("aux", "citeproc", "titles")."""

    how: str
    expected: tuple[Expected, ...]


def wild_pdfs() -> list[WildPdf]:
    """Every PDF the manifest lists, in its order."""
    rows = (CORPUS / "wild" / "MANIFEST-pdfs.tsv").read_text(encoding="utf-8").splitlines()
    header = rows[0].split("\t")
    found = []
    for row in rows[1:]:
        cells = dict(zip(header, row.split("\t"), strict=False))
        folder = PDFS / cells["name"]
        # "tool.bib (174 KB, mostly uncited)", "biblio.bib (+ IEEEabrv, not copied)"
        files = re.sub(r"\([^)]*\)", "", cells["bib_source_files"]).split(";")
        bibliographies = tuple(
            folder / f.strip() for f in files if f.strip().endswith((".bib", ".json"))
        )
        main = re.sub(r"\([^)]*\)", "", cells["main_source"]).strip()
        # "manuscript.Rmd (rendered via output/manuscript.tex)": the file that printed it
        via = re.search(r"rendered via ([^)\s]+)", cells["main_source"])
        found.append(
            WildPdf(
                cells["name"],
                folder / cells["pdf"],
                cells["layout_guess"],
                cells["citation_style"],
                bibliographies,
                folder / main,
                folder / via.group(1) if via else None,
            )
        )
    return found


def oracle(item: WildPdf) -> Oracle:
    """The entries `item`'s source printed (cached by the digest of its files)."""
    # The oracle's own code is part of the key: a fix to it is not hidden by the cache.
    digest = hashlib.sha256(Path(__file__).read_bytes() + Path(latex_build.__file__).read_bytes())
    for path in sorted(item.pdf.parent.rglob("*")):
        if path.is_file():
            digest.update(str(path.relative_to(item.pdf.parent)).encode() + path.read_bytes())
    cached = _CACHE / f"{item.name}-{digest.hexdigest()[:16]}.json"
    if cached.is_file():
        stored = json.loads(cached.read_text(encoding="utf-8"))
        return Oracle(stored["how"], tuple(Expected(**e) for e in stored["expected"]))
    how, keys = _printed_keys(item)
    items = _csl_items(item.bibliographies)
    expected = [expected_entry(key, items[key]) for key in keys if key in items]
    # Entries printed from citations made when the code ran (papaja's and apaquarto's R
    # package references) or in inputs the corpus does not keep: their titles are printed.
    # (A second key for a title already expected is a duplicate in the .bib, not an entry.)
    titles = {normalized(e.title) for e in expected}
    expected += [e for e in _printed_titles(item, items) if normalized(e.title) not in titles]
    _CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(
        json.dumps({"how": how, "expected": [asdict(e) for e in expected]}), encoding="utf-8"
    )
    return Oracle(how, tuple(expected))


def _printed_keys(item: WildPdf) -> tuple[str, list[str]]:
    """How the printed keys were learnt, and the keys in order (none for "titles": the source
    cites nothing the corpus keeps)."""
    # The LaTeX that pandoc wrote from a Markdown source holds what citeproc printed then; the
    # source and its bibliography may have changed since (keys cited there but never printed).
    if item.rendered is not None and item.rendered.is_file():
        rendered = item.rendered.read_text(encoding="utf-8", errors="replace")
        printed = list(dict.fromkeys(_CITEPROC_KEYS.findall(rendered)))
        if printed:
            return "citeproc", printed
    text = item.main.read_text(encoding="utf-8", errors="replace")
    if item.main.suffix == ".tex":
        printed = list(dict.fromkeys(_CITEPROC_KEYS.findall(text)))
        if printed:
            return "citeproc", printed
        if not _CITE.search(text):
            return "titles", []
        with tempfile.TemporaryDirectory() as work:
            project = Project(item.name, str(item.main.relative_to(item.pdf.parent)), PDFS)
            recorded = build(project, Path(work)).recorded
        return "aux", sorted(recorded)
    if is_knitr_source(item.main):
        # A chunk option that calls the document's own functions (pargent's `printnum(...)`
        # in a caption) stops knitr without the code run; chunks are code blocks to pandoc,
        # so the prose and its citations read the same.
        with contextlib.suppress(RuntimeError):
            text = knit(text, item.main.parent)
    return "citeproc", _citeproc_keys(text, item)


def _citeproc_keys(markdown: str, item: WildPdf) -> list[str]:
    """The keys of the entries citeproc prints for a Markdown text and its bibliographies."""
    args = [pandoc_path(), "-f", "markdown", "--citeproc", "-t", "json"]
    args += [f"--bibliography={b}" for b in item.bibliographies]
    args += [f"--csl={SHARED / 'csl' / 'apa.csl'}"]
    run = subprocess.run(
        args, input=markdown, capture_output=True, text=True, cwd=item.main.parent, check=True
    )
    return list(dict.fromkeys(re.findall(r'"ref-([^"]+)"', run.stdout)))


def _csl_items(bibliographies: tuple[Path, ...]) -> dict[str, dict[str, Any]]:
    """Every entry of the bibliography files as pandoc's CSL JSON, by key, each title without
    the biblatex `titleaddon` that pandoc appends to it ("Science Isn’t Broken.
    FiveThirtyEight"): an annex printed after the title, not the work's title."""
    items: dict[str, dict[str, Any]] = {}
    for path in bibliographies:
        addons = _title_addons(path) if path.suffix == ".bib" else {}
        for entry in _csl_json(path):
            title = str(entry.get("title", ""))
            head, _, tail = title.rpartition(". ")
            if entry["id"] in addons and normalized(tail) == normalized(addons[entry["id"]]):
                entry["title"] = head
            items.setdefault(entry["id"], entry)
    return items


def _title_addons(path: Path) -> dict[str, str]:
    """The `titleaddon` of each entry of a BibTeX file that has one, braces dropped."""
    library = parse_string(path.read_text(encoding="utf-8", errors="replace"))
    return {
        entry.key: str(entry.fields_dict["titleaddon"].value).replace("{", "").replace("}", "")
        for entry in library.entries
        if "titleaddon" in entry.fields_dict
    }


def _csl_json(path: Path) -> list[dict[str, Any]]:
    """pandoc's CSL JSON of one bibliography file. An entry pandoc cannot read (BibTeX itself
    skips it with a warning) is left out and the rest read again."""
    text = path.read_text(encoding="utf-8", errors="replace")
    source = "csljson" if path.suffix == ".json" else "bibtex"
    for _ in range(50):
        run = subprocess.run(
            [pandoc_path(), "-f", source, "-t", "csljson"],
            input=text,
            capture_output=True,
            text=True,
            check=False,
        )
        failed = re.search(r"line (\d+), column", run.stderr)
        if run.returncode == 0 or source == "csljson" or failed is None:
            break
        lines = text.splitlines(keepends=True)
        at = int(failed.group(1)) - 1
        start = max(
            (i for i in range(min(at, len(lines) - 1) + 1) if lines[i].startswith("@")), default=0
        )
        end = next((i for i in range(at + 1, len(lines)) if lines[i].startswith("@")), len(lines))
        text = "".join(lines[:start] + lines[end:])
    if run.returncode != 0:
        raise RuntimeError(f"pandoc cannot read {path}: {run.stderr.strip()[-300:]}")
    entries: list[dict[str, Any]] = json.loads(run.stdout)
    return entries


def _printed_titles(item: WildPdf, items: dict[str, dict[str, Any]]) -> list[Expected]:
    """The bibliography's entries whose title the PDF prints after its last "References"."""
    with pymupdf.open(item.pdf) as document:
        pages = [normalized(page.get_text()) for page in document]
        text = "\n".join(page.get_text() for page in document)
    heading = max(
        (m.start() for m in re.finditer(r"(?im)^\s*(references|bibliography)\s*$", text)),
        default=0,
    )
    printed = normalized(text[heading:])
    entries = [expected_entry(key, entry) for key, entry in items.items()]
    found = [e for e in entries if len(normalized(e.title)) >= _MIN_TITLE]
    found = [e for e in found if normalized(e.title) in printed and _author_before(e, printed)]
    # A title on most pages is the document's own, in its running head, not a reference.
    found = [e for e in found if sum(normalized(e.title) in p for p in pages) <= 2]
    # A title printed only as part of a longer one ("Short Signatures Without Random Oracles"
    # of "… Random Oracles and the SDH Assumption") is that entry's, not its own.
    titles = {normalized(e.title) for e in found}
    found = [
        e
        for e in found
        if not any(t != normalized(e.title) and normalized(e.title) in t for t in titles)
    ]
    return sorted(_one_per_title(found, printed), key=lambda e: printed.index(normalized(e.title)))


def _author_before(entry: Expected, printed: str) -> bool:
    """Whether the entry's first author is printed shortly before its title (as every style
    with authors prints them): a series name inside another entry ("Lecture Notes in Computer
    Science") is not the entry whose title it also is."""
    if not entry.first_author:
        return True
    at = printed.index(normalized(entry.title))
    return normalized(entry.first_author) in printed[max(0, at - _AUTHOR_REACH) : at]


def _one_per_title(found: list[Expected], printed: str) -> list[Expected]:
    """One entry per printed title: of a .bib's several entries with one title (a paper and
    its preprint), the one whose year is printed after the title, else the first."""
    chosen: dict[str, Expected] = {}
    for entry in found:
        title = normalized(entry.title)
        after = printed[printed.index(title) + len(title) :][:_YEAR_REACH]
        if title not in chosen or (
            str(entry.year) in after and str(chosen[title].year) not in after
        ):
            chosen[title] = entry
    return list(chosen.values())
