"""The JSON-filter process: pandoc's AST in on stdin, the checked document out on stdout.

An unchanged rebuild is replayed from the cache (`citecore.filter.replay`) before anything heavy is
imported; otherwise the document is loaded with panflute, checked by `citecore.filter.run`, written
back, and the run recorded for the next rebuild. `main(doc)` runs on a document in memory, which is
how tests call the filter without pandoc.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from citecore.cache import Cache
from citecore.filter.replay import RecordedRun, dependencies_of, record, replay, run_key
from citecore.pandoc.inputs import pandoc_input_files

if TYPE_CHECKING:
    import panflute as pf


class _Tee(io.StringIO):
    """Writes to stderr and keeps a copy, so that a run's warnings can be replayed."""

    def write(self, text: str) -> int:
        sys.stderr.write(text)
        return super().write(text)


def _cache_path() -> Path | None:
    configured = os.environ.get("CITECHECK_CACHE")
    return Path(configured) if configured else None


def run_stdio(output_format: str) -> int:
    """Filter pandoc's JSON AST from stdin to stdout; return the exit status for pandoc."""
    ast = sys.stdin.buffer.read()
    inputs = pandoc_input_files()
    with Cache(_cache_path()) as cache:
        key = run_key(ast, [output_format], inputs, os.environ)
        replayed = replay(cache, key)
        if replayed is not None:
            return replayed
        # Only now the pipeline (panflute, the checks: ~150 ms): a replayed rebuild needs none.
        import panflute as pf

        from citecore.filter.run import run_filter

        doc = pf.load(io.StringIO(ast.decode("utf-8")))
        stderr = _Tee()
        outcome = run_filter(doc, output_format, inputs, stderr=stderr)
        output = io.StringIO()
        if outcome.exit_code == 0:
            pf.dump(doc, output)
        sys.stdout.write(output.getvalue())
        sys.stdout.flush()
        if outcome.check is not None:  # runs that failed before checking are not worth keeping
            run = RecordedRun(
                exit_code=outcome.exit_code,
                stdout=output.getvalue(),
                stderr=stderr.getvalue(),
                reports={str(path): text for path, text in outcome.reports},
                dependencies=dependencies_of(outcome.dependencies),
            )
            record(cache, key, run)
        return outcome.exit_code


def main(doc: pf.Doc | None = None, argv: Sequence[str] | None = None) -> pf.Doc | None:
    """Entry point of `pandoc --filter` (the format is the first argument).

    With `doc` given the document is checked in memory and returned (no stdin, no stdout, no
    replay); otherwise the process filters stdin to stdout and exits with the run's status."""
    args = list(sys.argv[1:] if argv is None else argv)
    output_format = args[0] if args else os.environ.get("PANDOC_WRITER", "html")
    if doc is not None:
        from citecore.filter.run import run_filter

        run_filter(doc, output_format, pandoc_input_files())
        return doc
    status = run_stdio(output_format)
    if status:
        sys.exit(status)
    return None
