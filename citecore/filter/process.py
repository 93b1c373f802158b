"""The JSON-filter process: pandoc's AST in on stdin, the checked document out on stdout.

An unchanged rebuild is replayed from the cache (`citecore.filter.replay`) before anything heavy is
imported; otherwise a warm build server checks it when one is running (`citecore.filter.client`),
or this process does: the JSON is read as panflute's document (`citecore.pandoc.document`),
checked by `citecore.filter.run`, written back, and the run recorded for the next rebuild.
`main(doc)` runs on a `panflute.Doc` in memory, which is how tests, and a writer's own panflute
filter, call the filter without pandoc.
"""

from __future__ import annotations

import gc
import io
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from citecore.pandoc.inputs import pandoc_input_files

if TYPE_CHECKING:
    import panflute as pf


class _Tee(io.StringIO):
    """Writes to a stream and keeps a copy, so that a run's warnings can be replayed."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(text)
        return super().write(text)


def _cache_path() -> Path | None:
    configured = os.environ.get("CITECHECK_CACHE")
    return Path(configured) if configured else None


def run_stdio(output_format: str) -> int:
    """Filter pandoc's AST from stdin to stdout; return the exit status for pandoc."""
    ast = sys.stdin.buffer.read()
    inputs = pandoc_input_files()
    from citecore.filter.client import served_run  # start-up: a build from pandoc only

    served = served_run(ast, output_format, inputs)
    if served is not None:
        sys.stderr.write(served.stderr)
        sys.stdout.write(served.stdout)
        sys.stdout.flush()
        return served.exit_code
    from citecore.logs import configure_logging  # start-up: a served build logs in the child

    configure_logging()
    # This process exits after this one build (see the server's child).
    gc.disable()
    return replay_or_check(ast, output_format, inputs, sys.stdout, sys.stderr)


def replay_or_check(
    ast: bytes, output_format: str, inputs: Sequence[str], out: TextIO, err: TextIO
) -> int:
    """Replay the recorded run of this very build when nothing it read has changed, else check
    it (`run_checked`); the exit status for pandoc. A build server runs this same function."""
    # start-up: SQLite and the replay, only once no build server answered
    from citecore.cache import Cache
    from citecore.filter.replay import replay, run_key

    with Cache(_cache_path()) as cache:
        key = run_key(ast, [output_format], inputs, os.environ)
        replayed = replay(cache, key, out, err)
        if replayed is not None:
            return replayed
    return run_checked(ast, output_format, inputs, key, out, err)


def run_checked(
    ast: bytes, output_format: str, inputs: Sequence[str], key: str, out: TextIO, err: TextIO
) -> int:
    """Check the document `ast`, write the checked AST to `out` and every warning to `err`, and
    record the run under `key` for the next rebuild; return the exit status for pandoc. The
    build server runs it through `replay_or_check`."""
    # start-up: only now the pipeline (the checks: ~100 ms to import): a replay needs none.
    from citecore.cache import Cache
    from citecore.errors import CitecheckError, ExitCode
    from citecore.filter.replay import RecordedRun, dependencies_of, record
    from citecore.filter.run import run_filter
    from citecore.pandoc.document import dump_document, load_document

    text = ast.decode("utf-8", "replace")  # pandoc writes UTF-8; anything else is not its AST
    stderr = _Tee(err)
    try:
        doc = load_document(text, output_format)
    except CitecheckError as exc:
        print(f"[WARNING] citecheck: {exc}; the document goes on unchecked", file=stderr)
        out.write(text)
        out.flush()
        return ExitCode.OK
    outcome = run_filter(doc, output_format, inputs, stderr=stderr)
    output = io.StringIO()
    if outcome.exit_code == 0 and outcome.annotated:
        output.write(dump_document(doc))
    elif outcome.exit_code == 0:
        # Nothing was decorated: pandoc's own JSON goes back as it came (no dump to pay for).
        output.write(text)
    out.write(output.getvalue())
    out.flush()
    if outcome.check is not None:  # runs that failed before checking are not worth keeping
        run = RecordedRun(
            exit_code=outcome.exit_code,
            stdout=output.getvalue(),
            stderr=stderr.getvalue(),
            reports={str(path): text for path, text in outcome.reports},
            dependencies=dependencies_of(outcome.dependencies),
        )
        with Cache(_cache_path()) as cache:
            record(cache, key, run)
    return outcome.exit_code


def main(doc: pf.Doc | None = None, argv: Sequence[str] | None = None) -> pf.Doc | None:
    """Entry point of `pandoc --filter` (the format is the first argument).

    With `doc` (a `panflute.Doc`) given the document is checked and annotated in memory and
    returned (no stdin, no stdout, no replay); otherwise the process filters stdin to stdout
    and exits with the run's status."""
    args = list(sys.argv[1:] if argv is None else argv)
    output_format = args[0] if args else os.environ.get("PANDOC_WRITER", "html")
    if doc is not None:
        from citecore.filter.run import run_filter  # start-up: as in run_checked

        run_filter(doc, output_format, pandoc_input_files())
        return doc
    status = run_stdio(output_format)
    if status:
        sys.exit(status)
    return None
