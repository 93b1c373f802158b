"""pandoc's document in tests: a Markdown text read by the real pandoc into panflute's model, and
a document written out in any format by it (what a build does on either side of the filter)."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import panflute as pf

from citecore.pandoc.document import dump_document, load_document
from citecore.pandoc.reader import pandoc_path


def pandoc_json(markdown: str) -> str:
    """The JSON pandoc writes of a Markdown text."""
    completed = subprocess.run(
        [pandoc_path(), "-f", "markdown", "-t", "json"],
        input=markdown.encode("utf-8"),
        capture_output=True,
        check=True,
    )
    return completed.stdout.decode("utf-8")


def read_json(markdown: str) -> dict[str, Any]:
    """pandoc's JSON AST of a Markdown text as plain values: the oracle extraction is held to,
    read without citecheck's or panflute's model."""
    ast: dict[str, Any] = json.loads(pandoc_json(markdown))
    return ast


def read_ast(markdown: str) -> pf.Doc:
    """pandoc's document of a Markdown text, as the filter reads it."""
    return load_document(pandoc_json(markdown))


def render_ast(doc: pf.Doc, output_format: str, *extra: str, standalone: bool = False) -> str:
    """What pandoc writes of `doc` in `output_format` (`-s` with `standalone`)."""
    args = [pandoc_path(), "-f", "json", "-t", output_format, *extra]
    if standalone:
        args.append("-s")
    completed = subprocess.run(
        args, input=dump_document(doc).encode("utf-8"), capture_output=True, check=True
    )
    return completed.stdout.decode("utf-8")


def copy_ast(doc: pf.Doc) -> pf.Doc:
    """A copy of `doc` (annotation changes a document in place)."""
    return load_document(dump_document(doc))
