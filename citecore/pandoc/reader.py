"""Finding and running pandoc: from PATH, or the binary that the pypandoc-binary wheel ships."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from pathlib import Path

import panflute as pf

from citecore.errors import DocumentParseError, PandocNotFoundError

# Extensions pandoc cannot guess but that are Markdown to it (Quarto, R Markdown).
MARKDOWN_SUFFIXES = {".md", ".markdown", ".qmd", ".rmd", ".txt", ".mdown", ".mkd", ".pandoc"}


def pandoc_path() -> str:
    """The pandoc executable: `$CITECHECK_PANDOC`, else `pandoc` on PATH, else the wheel's."""
    configured = os.environ.get("CITECHECK_PANDOC")
    if configured:
        return configured
    on_path = shutil.which("pandoc")
    if on_path:
        return on_path
    try:
        import pypandoc  # the fallback: only asked when pandoc is not on PATH

        bundled = str(pypandoc.get_pandoc_path())
    except (ImportError, OSError) as exc:
        raise PandocNotFoundError(
            "pandoc not found: install pandoc 3.x or `pip install pypandoc-binary`"
        ) from exc
    return bundled


def read_markdown(path: Path, extra_args: tuple[str, ...] = ()) -> pf.Doc:
    """Parse a Markdown/Quarto/R Markdown file with pandoc's reader into a panflute document."""
    args = [pandoc_path(), str(path), "-t", "json", *extra_args]
    if path.suffix.lower() in MARKDOWN_SUFFIXES:
        args[2:2] = ["-f", "markdown"]
    try:
        completed = subprocess.run(args, capture_output=True, check=False, timeout=600)
    except OSError as exc:
        raise PandocNotFoundError(f"cannot run pandoc at {args[0]}: {exc}") from exc
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        raise DocumentParseError(f"{path}: pandoc could not read it: {' '.join(message[-3:])}")
    return pf.load(io.StringIO(completed.stdout.decode("utf-8")))
