"""Replaying an unchanged filter run from the cache, without loading the pipeline.

Rebuilds are the common case (Quarto preview and latexmk re-run pandoc on every save). When pandoc
hands the filter the same AST, with the same options, and every file the last run read (the
bibliographies, the Markdown sources, `citecheck.toml`) still has the same SHA-256, the last run's
output AST, warnings and report are replayed as they were. This module is imported on that path
alone, so it stays light: no JSON parse of the document, no bibliography parsers.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple, TextIO

from citecore.cache import Cache, content_key
from citecore.version import __version__

NAMESPACE = "filter-run"
# Bump when the filter's output for the same inputs changes in a way the version does not show.
MEMO_VERSION = "1"
# Where a run is checked, not what it checks: a build server's answer is the build's own.
_NOT_OPTIONS = frozenset({"CITECHECK_SERVER", "CITECHECK_SERVER_IDLE"})
# Registry verdicts age; a replayed run must not outlive them for long.
TTL_SECONDS = 7 * 24 * 3600


def file_digest(path: str) -> str | None:
    """SHA-256 of a file's bytes, or None when it cannot be read (absent counts as a state)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def run_key(
    ast: bytes, argv: Sequence[str], inputs: Sequence[str], environ: Mapping[str, str]
) -> str:
    """The key of one filter run: everything it depends on besides the files it reads."""
    options = sorted(
        (k, v) for k, v in environ.items() if k.startswith("CITECHECK_") and k not in _NOT_OPTIONS
    )
    return content_key(
        MEMO_VERSION,
        __version__,
        dt.date.today().isoformat(),  # "future year" depends on the day
        str(Path.cwd()),
        json.dumps([list(argv), list(inputs), options]),
        hashlib.sha256(ast).hexdigest(),
    )


class RecordedRun(NamedTuple):
    """What a filter run produced, and the files whose content it depended on (a named tuple:
    the replay path does without the dataclass machinery, ~4 ms to import)."""

    exit_code: int
    stdout: str
    stderr: str
    reports: dict[str, str]
    dependencies: dict[str, str | None]


def record(cache: Cache, key: str, run: RecordedRun) -> None:
    """Store a finished run for replay."""
    data = {
        "exit_code": run.exit_code,
        "stdout": run.stdout,
        "stderr": run.stderr,
        "reports": run.reports,
        "dependencies": run.dependencies,
    }
    cache.put(NAMESPACE, key, json.dumps(data), ttl=TTL_SECONDS)


def dependencies_of(paths: Iterable[str]) -> dict[str, str | None]:
    """The digests of the files a run read, by absolute path."""
    return {str(Path(p).resolve()): file_digest(p) for p in paths}


def replay(
    cache: Cache, key: str, out: TextIO | None = None, err: TextIO | None = None
) -> int | None:
    """Replay a recorded run whose files are unchanged: its warnings to `err` (stderr), its
    reports to their paths, its AST to `out` (stdout). Returns its exit code, or None when
    there is nothing valid to replay."""
    stored = cache.get(NAMESPACE, key)
    if stored is None:
        return None
    try:
        data = json.loads(stored)
        dependencies: dict[str, str | None] = data["dependencies"]
        if any(file_digest(path) != digest for path, digest in dependencies.items()):
            return None
        for path, text in data["reports"].items():
            report = Path(path)
            if not report.is_file() or report.read_text(encoding="utf-8") != text:
                report.parent.mkdir(parents=True, exist_ok=True)
                report.write_text(text, encoding="utf-8")
        (err or sys.stderr).write(data["stderr"])
        (out or sys.stdout).write(data["stdout"])
        (out or sys.stdout).flush()
        return int(data["exit_code"])
    except (ValueError, KeyError, TypeError, OSError):
        return None
