"""How citecheck's own log messages reach the writer: one line each on stderr, named."""

from __future__ import annotations

import logging
from typing import TextIO


def configure_logging(
    stream: TextIO | None = None, program: str = "citecheck", replace: bool = False
) -> None:
    """Warnings and worse, one line each (`program: message`), on `stream` (stderr by default);
    `replace` drops handlers set up before (a build server's child serving another build).
    bibtexparser stays quiet: its failures are citecheck's findings."""
    logging.basicConfig(
        level=logging.WARNING, format=f"{program}: %(message)s", stream=stream, force=replace
    )
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
