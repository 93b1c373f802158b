"""The toolchain as the oracle, with its figures on every set: the 628 test documents of pandoc and
Quarto (../shared/corpus/toolchains) and the 33 wild Markdown-family documents, each read by
`citecheck check` and by knitr + Quarto's merged metadata + pandoc's citeproc
(tests/toolchain_oracle.py). Prints, per set, the documents the oracle could judge, those whose
keys equal pandoc's AST, those whose `undefined` equals citeproc's "not found", those with no
report or a traceback, and every disagreement. `python bench/toolchain_oracle.py` (needs
`make install-r`; `CITECHECK_PANDOC` picks the pandoc both sides run)."""

from __future__ import annotations

import contextlib
import io
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.pandoc.reader import pandoc_path
from tests.paths import CORPUS
from tests.toolchain_oracle import Layout, oracle, ours, toolchain_layouts, wild_layouts


def _figures(name: str, layouts: list[tuple[Layout, Path]]) -> None:
    started = time.perf_counter()
    judged = keys = undefined = failed = 0
    unjudged: list[str] = []
    wrong: list[str] = []
    for layout, root in layouts:
        expected = oracle(layout, root)
        if expected.failure is not None:
            unjudged.append(f"{layout.ident}: {expected.failure[:120]}")
            continue
        judged += 1
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            found = ours(layout)  # the check's own warnings are not the figure
        if found.failure is not None:
            failed += 1
            wrong.append(f"{layout.ident}: {found.failure[:200]}")
            continue
        keys += found.keys == expected.keys
        undefined += found.undefined == expected.undefined
        if found.keys != expected.keys or found.undefined != expected.undefined:
            extra = sorted(found.undefined - expected.undefined)[:5]
            missed = sorted(expected.undefined - found.undefined)[:5]
            wrong.append(f"{layout.ident}: undefined only here {extra}, only citeproc's {missed}")
    seconds = time.perf_counter() - started
    print(
        f"{name}: {len(layouts)} documents, {judged} judged; keys = AST {keys}/{judged}; "
        f"undefined = citeproc {undefined}/{judged}; no report or traceback {failed} "
        f"({seconds:.0f} s)"
    )
    for line in unjudged:
        print(f"  not judged (pandoc could not read it): {line}")
    for line in wrong:
        print(f"  disagrees: {line}")


def main() -> None:
    """Print the figures of both sets."""
    logging.disable(logging.CRITICAL)  # citecheck's build log is not the figure
    print(f"pandoc: {pandoc_path()}")
    with tempfile.TemporaryDirectory() as folder:
        _figures("toolchains", list(toolchain_layouts(Path(folder))))
    wild = CORPUS / "wild" / "markdown"
    _figures("wild markdown", [(layout, wild) for layout in wild_layouts()])


if __name__ == "__main__":
    main()
