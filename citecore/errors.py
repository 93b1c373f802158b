"""citecheck's one exception tree; lower-level errors are translated here with `raise … from`.

Failures of the things citecheck checks (a malformed entry, an unreachable registry) are values in
the report, not exceptions. These exceptions are for input citecheck cannot work with at all, and
each carries the exit code the command line maps it to (docs/design.md, "Exit codes").
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """Every exit status citecheck gives, the same for the command line, the pandoc filter and
    the latexmk hook (docs/design.md, "Exit codes")."""

    OK = 0
    FINDINGS = 1  # findings that fail the run (strict mode or `fail-on`)
    BAD_INPUT = 2  # an input file or option citecheck cannot use
    RATE_LIMITED = 4  # `fail-on: outage`, and a registry kept rate-limiting
    UNREACHABLE = 6  # `fail-on: outage`, and a registry could not be reached or did not answer
    UNPARSEABLE = 7  # the document could not be parsed
    INTERNAL_ERROR = 70  # a bug in citecheck (sysexits' EX_SOFTWARE)
    INTERRUPTED = 130


class CitecheckError(Exception):
    """Base of every error citecheck raises on purpose."""

    exit_code = ExitCode.BAD_INPUT


class InputError(CitecheckError):
    """An input file or option is missing or unusable (exit 2)."""

    exit_code = ExitCode.BAD_INPUT


class OptionsError(InputError):
    """An option has a value citecheck does not accept (exit 2)."""


class BibliographyNotFoundError(InputError):
    """A bibliography named by the document or the command line does not exist."""


class DocumentParseError(CitecheckError):
    """The document could not be parsed, e.g. pandoc's reader failed (exit 7)."""

    exit_code = ExitCode.UNPARSEABLE


class PandocNotFoundError(InputError):
    """Neither `pandoc` on PATH nor the pypandoc-binary wheel provides a pandoc executable."""
