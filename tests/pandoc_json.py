"""pandoc's JSON AST in tests: a Markdown text read by the real pandoc, and an AST written out in
any format by it (what a build does on either side of the filter)."""

from __future__ import annotations

import json
import subprocess

from citecore.pandoc.ast import Node, dump_ast, load_ast
from citecore.pandoc.reader import pandoc_path


def read_ast(markdown: str) -> Node:
    """pandoc's JSON AST of a Markdown text."""
    completed = subprocess.run(
        [pandoc_path(), "-f", "markdown", "-t", "json"],
        input=markdown.encode("utf-8"),
        capture_output=True,
        check=True,
    )
    return load_ast(completed.stdout)


def render_ast(doc: Node, output_format: str, *extra: str, standalone: bool = False) -> str:
    """What pandoc writes of `doc` in `output_format` (`-s` with `standalone`)."""
    args = [pandoc_path(), "-f", "json", "-t", output_format, *extra]
    if standalone:
        args.append("-s")
    completed = subprocess.run(
        args, input=dump_ast(doc).encode("utf-8"), capture_output=True, check=True
    )
    return completed.stdout.decode("utf-8")


def copy_ast(doc: Node) -> Node:
    """A deep copy of `doc` (annotation changes a document in place)."""
    copied: Node = json.loads(json.dumps(doc))
    return copied
