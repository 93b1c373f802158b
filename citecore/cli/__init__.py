"""The `citecheck` command: subcommands over the same pipeline, and pandoc filter mode.

When pandoc runs `citecheck` as a filter it passes the output format as the only argument and the
AST on stdin; `main` recognizes that and behaves as the filter. Everything else is a subcommand,
one module per command family (document: check, latex, audit; verify; snapshot; ask; latex:
latexmk-hook, install-latex; filter; pool), each registering its
parser with the function that runs it.
"""

from citecore.cli.app import main

__all__ = ["main"]
