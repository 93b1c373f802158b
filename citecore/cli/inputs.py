"""Which command reads which file: every input a document command is given is recognised, or
refused with the command that reads it (exit 2), never read as something it is not."""

from __future__ import annotations

from pathlib import Path

from citecore.errors import InputError
from citecore.pandoc.inputs import MARKDOWN_SUFFIXES

_LATEX = {".tex", ".ltx"}
_MARKDOWN = {*MARKDOWN_SUFFIXES, ".rmarkdown"}
_BIBLIOGRAPHY = {".bib", ".bibtex", ".biblatex", ".json", ".yaml", ".yml"}
# What a build makes from a document: citecheck reads the document's source instead.
_BUILT = {".docx", ".odt", ".doc", ".rtf", ".html", ".htm", ".epub", ".ps", ".dvi"}


def _kind(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix in _LATEX:
        return "latex"
    if suffix in _MARKDOWN:
        return "markdown"
    if suffix in _BIBLIOGRAPHY or suffix == ".pdf":
        return "references"
    if suffix in _BUILT:
        return "built"
    return "unknown"


def is_bibliography(path: Path) -> bool:
    """Whether a file's name says it is a bibliography (BibTeX, CSL JSON or YAML)."""
    return path.suffix.lower() in _BIBLIOGRAPHY


def _candidates(folder: Path, command: str) -> list[str]:
    """The documents in `folder` the command could check (its top level only)."""
    wanted = _LATEX if command == "latex" else _MARKDOWN - {".txt"}
    return sorted(p.name for p in folder.iterdir() if p.is_file() and p.suffix.lower() in wanted)


def document_for(path: Path, command: str) -> Path:
    """`path` when it is a document `citecheck COMMAND` reads (`check`: Markdown, Quarto,
    R Markdown; `latex`: a main .tex file); else an InputError naming what to run instead."""
    if path.is_dir():
        found = _candidates(path, command)
        suggestion = (
            f": give one of its documents, e.g. citecheck {command} {path / found[0]}"
            if found
            else f" with no {'.tex' if command == 'latex' else 'Markdown'} document in it"
        )
        raise InputError(f"{path}: a folder{suggestion}")
    if not path.is_file():
        raise InputError(f"{path}: no such document")
    kind = _kind(path)
    if command == "latex" and kind == "latex":
        return path
    if command != "latex" and kind == "markdown":
        return path
    if kind == "latex":
        raise InputError(f"{path}: a LaTeX file: check it with citecheck latex {path}")
    if kind == "markdown":
        raise InputError(f"{path}: a Markdown document: check it with citecheck check {path}")
    if kind == "references":
        raise InputError(
            f"{path}: a bibliography or reference list, not a document: check its entries "
            f"with citecheck verify {path}"
        )
    if kind == "built":
        raise InputError(
            f"{path}: a built document; citecheck reads its source: citecheck check the "
            ".md/.qmd/.Rmd it was made from, or citecheck latex its main .tex"
        )
    raise InputError(
        f"{path}: not a document citecheck reads (Markdown, Quarto or R Markdown for "
        "citecheck check, a .tex main file for citecheck latex, a bibliography or PDF for "
        "citecheck verify)"
    )


# What `citecheck verify` reads: bibliographies, plain-text reference lists, a paper's PDF.
_REFERENCES = {*_BIBLIOGRAPHY, ".pdf", ".txt", ".text", ".md", ".markdown"}


def references_for(path: Path) -> Path:
    """`path` when `citecheck verify` reads it (a bibliography, a reference list, a PDF); else
    an InputError naming what to run instead."""
    if path.is_dir():
        raise InputError(f"{path}: a folder: give its bibliography or PDF, or screen it with "
                         f"citecheck screen {path} -o screening/")  # fmt: skip
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    if path.suffix.lower() in _REFERENCES:
        return path
    kind = _kind(path)
    if kind == "latex":
        raise InputError(f"{path}: a LaTeX document: check it with citecheck latex {path}")
    if kind == "markdown":
        raise InputError(f"{path}: a document: check it with citecheck check {path}")
    if kind == "built":
        raise InputError(
            f"{path}: a built document: verify its PDF, or check the source it was made from"
        )
    raise InputError(
        f"{path}: not a bibliography citecheck reads (.bib, CSL .json/.yaml, a .txt/.md "
        "reference list, or a paper's .pdf)"
    )
