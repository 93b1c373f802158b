"""citecheck's one exception tree; lower-level errors are translated here with `raise … from`.

Failures of the things citecheck checks (a malformed entry, an unreachable registry) are values in
the report, not exceptions. These exceptions are for input citecheck cannot work with at all, and
each carries the exit code the command line maps it to (DESIGN.md, "Exit codes").
"""

from __future__ import annotations


class CitecheckError(Exception):
    """Base of every error citecheck raises on purpose."""

    exit_code = 2


class InputError(CitecheckError):
    """An input file or option is missing or unusable (exit 2)."""

    exit_code = 2


class OptionsError(InputError):
    """An option has a value citecheck does not accept (exit 2)."""


class BibliographyNotFoundError(InputError):
    """A bibliography named by the document or the command line does not exist."""


class DocumentParseError(CitecheckError):
    """The document could not be parsed, e.g. pandoc's reader failed (exit 7)."""

    exit_code = 7


class PandocNotFoundError(InputError):
    """Neither `pandoc` on PATH nor the pypandoc-binary wheel provides a pandoc executable."""


# Exit code of a run stopped by a bug in citecheck itself (sysexits' EX_SOFTWARE).
INTERNAL_ERROR = 70
