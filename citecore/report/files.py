"""Which report format a file is written in: the one its suffix names. A report is never written
in one format into a file named for another."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from citecore.errors import InputError

REPORT_FORMATS = ("table", "markdown", "json", "sarif")  # what every report-writing command writes

# Suffix → format name (as `-f` spells it). `.txt` is the table as plain text.
SUFFIX_FORMATS = {
    ".json": "json",
    ".md": "markdown",
    ".markdown": "markdown",
    ".sarif": "sarif",
    ".txt": "table",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
}
# Formats citecheck writes no report in, by the suffixes that name them.
_OTHER_FORMATS = {
    ".html": "HTML",
    ".htm": "HTML",
    ".pdf": "PDF",
    ".docx": "Word",
    ".odt": "OpenDocument",
    ".tex": "LaTeX",
    ".csv": "CSV",
    ".xml": "XML",
    ".yaml": "YAML",
    ".yml": "YAML",
}
_SUFFIX_OF = {
    "json": ".json",
    "markdown": ".md",
    "sarif": ".sarif",
    "table": ".txt",
    "bibtex": ".bib",
}


def suffix_names(formats: Sequence[str]) -> str:
    """The file suffixes that name `formats`, for help texts: ".md, .json, .sarif"."""
    return ", ".join(_SUFFIX_OF[f] for f in formats if f in _SUFFIX_OF)


def _suffix(path: Path) -> str:
    """The suffix that names the format (`citecheck.sarif.json` is SARIF's own convention)."""
    name = path.name.lower()
    return ".sarif" if name.endswith(".sarif.json") else path.suffix.lower()


def format_for_file(
    path: Path | None,
    asked: str | None,
    writable: Sequence[str],
    default: str,
    fallback: str | None = None,
) -> str:
    """The format to write `path` in: the one its suffix names; where it names none, the one
    asked for (`-f`), else `fallback` (the `format` option of a file or the metadata, which a
    name outranks); for stdout (`path` None) the one asked for, else `fallback`, else
    `default`. Raises InputError, saying what to do, when the suffix names a format this
    command cannot write, disagrees with `asked`, or names none and nothing else does."""
    choices = suffix_names(writable)
    if path is None:
        return asked or fallback or default
    named = SUFFIX_FORMATS.get(_suffix(path))
    if _suffix(path) in _OTHER_FORMATS:
        raise InputError(
            f"{path}: citecheck writes no {_OTHER_FORMATS[_suffix(path)]} report: call it "
            f"{choices} (the HTML, PDF and Word documents pandoc builds carry the annotations)"
        )
    if named is None:
        if asked or fallback:
            return asked or fallback or default
        raise InputError(
            f"{path}: cannot tell a report format from this name: call it {choices}, "
            f"or give the format (-f {'|'.join(writable)})"
        )
    if named not in writable:
        hint = (
            "; `citecheck verify refs.bib -f bibtex -o checked.bib` writes the bibliography "
            "with its verdicts"
            if named == "bibtex"
            else ""
        )
        raise InputError(f"{path}: this command does not write {named} (it writes {choices}){hint}")
    if asked and asked != named:
        raise InputError(f"{path}: the name says {named} but the format asked for is {asked}")
    return named
