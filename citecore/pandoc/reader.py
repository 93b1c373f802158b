"""Finding and running pandoc: from PATH, or the binary that the pypandoc-binary wheel ships."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import panflute as pf

from citecore.errors import DocumentParseError, PandocNotFoundError
from citecore.pandoc.document import load_document
from citecore.pandoc.inputs import MARKDOWN_SUFFIXES
from citecore.pandoc.knitr import as_knitr_reads, is_knitr_source

# Extensions pandoc cannot guess but that are Markdown to it (Quarto, R Markdown).


def pandoc_path() -> str:
    """The pandoc executable: `$CITECHECK_PANDOC`, else `pandoc` on PATH, else the wheel's."""
    configured = os.environ.get("CITECHECK_PANDOC")
    if configured:
        return configured
    on_path = shutil.which("pandoc")
    if on_path:
        return on_path
    try:
        import pypandoc  # start-up: the fallback, when pandoc is not on PATH

        bundled = str(pypandoc.get_pandoc_path())
    except (ImportError, OSError) as exc:
        raise PandocNotFoundError(
            "pandoc not found: install pandoc 3.x or `pip install pypandoc-binary`"
        ) from exc
    return bundled


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise DocumentParseError(f"{path}: cannot read it: {exc}") from exc


def book_text(chapters: Sequence[Path]) -> str:
    """A bookdown book as bookdown merges it for knitr and pandoc (`merge_chapters`): each
    chapter as knitr reads it, then a blank line, `<!--chapter:end:NAME-->` and a blank line."""
    return "".join(
        as_knitr_reads(c, _read_text(c)).rstrip("\n") + f"\n\n<!--chapter:end:{c.name}-->\n\n"
        for c in chapters
    )


def read_markdown(path: Path, extra_args: tuple[str, ...] = ()) -> pf.Doc:
    """Parse a Markdown/Quarto/R Markdown file with pandoc's reader into its document;
    an R Markdown or Quarto file as knitr leaves it for pandoc (`extract.knitr`)."""
    return _run_reader(path, None, extra_args)


def read_markdown_book(chapters: Sequence[Path]) -> pf.Doc:
    """Parse a bookdown book (its chapters in bookdown's order) as one document, as
    `bookdown::render_book` hands it to pandoc (`book_text`)."""
    return _run_reader(chapters[0], book_text(chapters), ())


def _run_reader(path: Path, text: str | None, extra_args: tuple[str, ...]) -> pf.Doc:
    """pandoc's document of `path`, or of `text` read as if it were that file."""
    args = [pandoc_path(), str(path), "-t", "json", *extra_args]
    if path.suffix.lower() in MARKDOWN_SUFFIXES:
        args[2:2] = ["-f", "markdown"]
    stdin: bytes | None = None
    if text is None and is_knitr_source(path):
        text = as_knitr_reads(path, _read_text(path))
    if text is not None:
        stdin = text.encode("utf-8")
        args[1] = "-"  # pandoc reads the knitted text from standard input
    try:
        completed = subprocess.run(args, input=stdin, capture_output=True, check=False, timeout=600)
    except OSError as exc:
        raise PandocNotFoundError(f"cannot run pandoc at {args[0]}: {exc}") from exc
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        raise DocumentParseError(f"{path}: pandoc could not read it: {' '.join(message[-3:])}")
    return load_document(completed.stdout.decode("utf-8", "replace"))
