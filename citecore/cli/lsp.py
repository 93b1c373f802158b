"""`citecheck lsp`: the language server, over stdio."""

from __future__ import annotations

import argparse

from citecore.cli.flags import Commands


def register(commands: Commands) -> None:
    """Add `lsp`."""
    lsp = commands.add_parser(
        "lsp", help="run the language server over stdio (for editors: diagnostics, hover, fixes)"
    )
    lsp.set_defaults(run=run_lsp)


def run_lsp(args: argparse.Namespace) -> int:
    """Serve until the editor exits the server."""
    del args
    # start-up: pygls and lsprotocol (~120 ms) load for the server only, never for a build.
    from citecore.lsp.server import serve

    serve()
    return 0
