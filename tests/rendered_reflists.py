"""An oracle for reading reference lists out of PDFs: a corpus paper rendered by pandoc and
citeproc in a CSL style, with the bibliography it rendered as the ground truth.

`render(paper, style, folder)` writes the PDF (figures replaced by a word, since the corpus keeps
no image files); `expected_references(paper)` lists, in the order citeproc printed them, the
title, first author and year of each entry, read from pandoc's own CSL JSON of the .bib file.
`score(expected, found)` pairs them one to one and counts what was read exactly. The bench
(bench/reflist_styles.py) runs every paper in every style; the tests run a few.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from citecore.model import Reference
from citecore.pandoc.reader import pandoc_path
from tests.paths import SHARED


@dataclass(frozen=True)
class Style:
    """A rendering: a CSL style, optionally on two-column pages."""

    name: str
    csl: str
    two_column: bool = False


STYLES = (
    Style("apa", "apa.csl"),
    Style("chicago", "chicago-author-date.csl"),
    Style("harvard", "harvard-cite-them-right.csl"),
    Style("elsevier-harvard", "elsevier-harvard.csl"),
    Style("ieee", "ieee.csl"),
    Style("vancouver", "nlm-citation-sequence.csl"),
    Style("plos", "plos.csl"),
    Style("acs", "american-chemical-society.csl"),
    Style("nature", "nature.csl"),
    Style("ieee-2col", "ieee.csl", two_column=True),
    Style("apa-2col", "apa.csl", two_column=True),
)

_NO_IMAGES = "function Image(el) return pandoc.Str('[figure]') end\n"
# Code and tables too wide for a column would run over the other column's text: a rendering
# artefact, not a layout real two-column papers have.
_NARROW = _NO_IMAGES + "function CodeBlock(el) return {} end\nfunction Table(el) return {} end\n"


@dataclass(frozen=True)
class Expected:
    """One entry of the rendered bibliography, as its .bib file states it."""

    key: str
    title: str
    first_author: str
    year: int | None
    venue: str = ""


def _document(paper: Path) -> Path:
    return next(p for p in sorted(paper.iterdir()) if p.suffix in {".md", ".qmd", ".Rmd"})


def _pandoc(*args: str, cwd: Path) -> str:
    run = subprocess.run(
        [pandoc_path(), *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    if run.returncode != 0:
        raise RuntimeError(f"pandoc {' '.join(args)}: {run.stderr.strip()[-400:]}")
    return run.stdout


def render(paper: Path, style: Style, folder: Path) -> Path:
    """The PDF of `paper` in `style`, rendered once per paper, style and pandoc input (cached
    by their digest in `folder`)."""
    document = _document(paper)
    lua_text = _NARROW if style.two_column else _NO_IMAGES
    lua = folder / ("narrow.lua" if style.two_column else "no-images.lua")
    args = [
        document.name,
        "--from=markdown-raw_tex",  # R Markdown and Quarto text has "\\n" in prose
        "--citeproc",
        "--bibliography=paper.bib",
        f"--csl={SHARED / 'csl' / style.csl}",
        # The papers' own LaTeX classes and preambles (apa6, JOSS) are not what is measured.
        "-M",
        "documentclass=article",
        "-M",
        "header-includes=",
        f"--lua-filter={lua}",
        "--pdf-engine=xelatex",
        "-V",
        "geometry:margin=2.5cm",
    ]
    if style.two_column:
        args += ["-V", "classoption=twocolumn", "-V", "geometry:margin=1.8cm"]
    digest = hashlib.sha256(
        document.read_bytes()
        + (paper / "paper.bib").read_bytes()
        + "\0".join([*args, lua_text]).encode()
    ).hexdigest()[:12]
    pdf = folder / f"{paper.name}-{style.name}-{digest}.pdf"
    if pdf.exists():
        return pdf
    folder.mkdir(parents=True, exist_ok=True)
    lua.write_text(lua_text, encoding="utf-8")
    _pandoc(*args, "-o", str(pdf), cwd=paper)
    return pdf


def _plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def _year(item: dict[str, Any]) -> int | None:
    issued = item.get("issued") or {}
    parts = issued.get("date-parts") or [[]]
    if parts and parts[0] and str(parts[0][0]).lstrip("-").isdigit():
        return int(parts[0][0])
    literal = re.search(r"\d{4}", str(issued.get("literal", "")))
    return int(literal.group(0)) if literal else None


def _first_author(item: dict[str, Any]) -> str:
    names = item.get("author") or item.get("editor") or []
    if not names:
        return ""
    first = names[0]
    family = str(first.get("family") or first.get("literal") or "")
    return _plain(f"{first.get('non-dropping-particle', '')} {family}".strip())


def expected_references(paper: Path) -> list[Expected]:
    """The entries citeproc prints in `paper`'s bibliography, in printed order (the order of the
    default style; callers that care about order compare as sets)."""
    document = _document(paper)
    ast = json.loads(
        _pandoc(
            document.name,
            "--from=markdown",
            "--citeproc",
            "--bibliography=paper.bib",
            f"--csl={SHARED / 'csl' / 'apa.csl'}",
            "-t",
            "json",
            cwd=paper,
        )
    )
    keys = re.findall(r'"ref-([^"]+)"', json.dumps(ast))
    items = {
        item["id"]: item for item in json.loads(_pandoc("paper.bib", "-t", "csljson", cwd=paper))
    }
    return [expected_entry(key, items[key]) for key in keys if key in items]


def expected_entry(key: str, item: dict[str, Any]) -> Expected:
    """One bibliography entry (as pandoc's CSL JSON gives it) as the oracle holds it."""
    return Expected(
        key,
        _plain(str(item.get("title", ""))),
        _first_author(item),
        _year(item),
        _plain(str(item.get("container-title", ""))),
    )


def normalized(text: str) -> str:
    """Letters and digits only, case-folded, accents dropped: what "the same title" means across
    styles that change case, quote marks, dashes and punctuation (and a line-end hyphen that
    may or may not have been a compound's)."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(re.findall(r"[^\W_]+", stripped.casefold()))


@dataclass
class Score:
    """How a reading of one rendered list compares with its bibliography."""

    expected: int = 0
    found: int = 0
    extra: int = 0
    title: int = 0
    author: int = 0
    year: int = 0
    # Venues read, and of them those equal to the bibliography's (a wrong venue accuses).
    venues_read: int = 0
    venues_right: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        """Add another list's counts to these."""
        self.expected += other.expected
        self.found += other.found
        self.extra += other.extra
        self.title += other.title
        self.author += other.author
        self.year += other.year
        self.venues_read += other.venues_read
        self.venues_right += other.venues_right
        self.misses += other.misses


def score(expected: Sequence[Expected], found: Sequence[Reference]) -> Score:
    """Pair each expected entry with the unpaired found reference whose printed text holds its
    title best, and count the fields read exactly."""
    result = Score(expected=len(expected))
    unpaired = list(found)
    # A reference whose title was read exactly is its entry's pair before any fuzzy pairing.
    exact = {}
    for entry in expected:
        twins = [c for c in unpaired if normalized(c.title) == normalized(entry.title)]
        # Titles equal up to punctuation: the one of the same year is the pair.
        twin = next((c for c in twins if c.year == entry.year), twins[0] if twins else None)
        if twin is not None and entry.title:
            exact[entry.key] = twin
            unpaired.remove(twin)
    for entry in expected:
        target = normalized(entry.title)
        best = exact.get(entry.key)
        best_score = 100.0 if best is not None else 0.0
        for candidate in unpaired if best is None else ():
            if target:
                similarity = fuzz.partial_ratio(target, normalized(candidate.text))
            else:  # an entry without a title: its first author and year in the printed text
                printed = normalized(candidate.text)
                author_there = normalized(entry.first_author) in printed[:80]
                similarity = 100.0 if author_there and str(entry.year) in candidate.text else 0
            if similarity > best_score:
                best, best_score = candidate, similarity
        if best is None or best_score < 90:
            result.misses.append(f"missing: {entry.key} {entry.title[:60]!r}")
            continue
        if best in unpaired:
            unpaired.remove(best)
        result.found += 1
        if normalized(best.title) == target:
            result.title += 1
        else:
            result.misses.append(f"title {entry.key}: {best.title!r} ≠ {entry.title!r}")
        # The family name with its particle as citeproc printed it, or without: a bibliography
        # that writes "Walt, Stéfan van der" makes "van der" part of the given name.
        person = best.authors[0] if best.authors else None
        family = person.display().split(",")[0] if person else ""
        bare = person.family if person else ""
        # An organisation that a .bib wrote without braces ("Open Science Collaboration") has
        # its last word as its family name there: the whole name read is the same author.
        whole = person is not None and person.is_organization
        ends = whole and normalized(family).endswith(normalized(entry.first_author))
        if ends or normalized(entry.first_author) in (normalized(family), normalized(bare)):
            result.author += 1
        else:
            result.misses.append(f"author {entry.key}: {family!r} ≠ {entry.first_author!r}")
        if best.venue:
            result.venues_read += 1
            if normalized(best.venue) == normalized(entry.venue):
                result.venues_right += 1
            else:
                result.misses.append(f"venue {entry.key}: {best.venue!r} ≠ {entry.venue!r}")
        if best.year == entry.year:
            result.year += 1
        else:
            result.misses.append(f"year {entry.key}: {best.year} ≠ {entry.year}")
    result.extra = len(unpaired)
    return result
