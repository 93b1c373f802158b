"""Where panflute's time goes on a citing document, and what two small changes to panflute
itself would save: measured side by side in one run (for docs/panflute.md and upstream).

For a generated paper of `--citations` citations (`tests/citing_paper.py`, as
bench/filter_overhead.py's), prints the best of
`--runs` timings of: reading pandoc's JSON as plain values (`json.loads`) and as panflute's
document (`panflute.load`); writing it back (`json.dumps` of the plain values, `panflute.dump`);
citecheck's extraction walk over the document; and the same three panflute steps with

- **A**: `ListContainer.__iter__` as a generator over its list (today `MutableSequence`'s
  default, which calls `__getitem__` for every index and stops on `IndexError`), and
- **B**: `ListContainer.__init__` checking its items in one list comprehension (today
  `MutableSequence.extend`, one `append` → `insert` call per item).

Both keep what panflute promises: every element read from a container carries its parent,
location and index. Run with `python bench/panflute_costs.py [--citations N] [--runs N]`.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import panflute as pf
from panflute.containers import ListContainer, attach
from panflute.utils import check_type

from citecore.extract.markdown import extract_citations
from citecore.pandoc.reader import pandoc_path
from tests.citing_paper import write_citing_paper


def _best(action: Callable[[], Any], runs: int) -> float:
    """The fastest of `runs` timings of `action`, in milliseconds."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def _iterate(self: ListContainer) -> Iterator[Any]:
    """Proposal A: each item attached as `__getitem__` attaches it, without the index lookups."""
    parent, location = self.parent, self.location
    for index, item in enumerate(self.list):
        yield attach(item, parent, location, index)


def _construct(self: ListContainer, *args: Any, oktypes: Any = object, parent: Any = None) -> None:
    """Proposal B: the items type-checked in one pass, as `insert` checks each."""
    self.oktypes = oktypes
    self.parent = parent
    self.location = None
    self.list = [check_type(item, oktypes) for item in args]


def _steps(text: str, runs: int) -> dict[str, float]:
    doc = pf.load(io.StringIO(text))
    return {
        "panflute.load": _best(lambda: pf.load(io.StringIO(text)), runs),
        "panflute.dump": _best(lambda: pf.dump(doc, io.StringIO()), runs),
        "extraction walk": _best(lambda: extract_citations(doc), runs),
    }


def main() -> None:
    """Print each step's time today and with proposals A and B."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--citations", type=int, default=1500)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        paper = write_citing_paper(Path(folder), args.citations, max(1, args.citations // 2))
        text = subprocess.run(
            [pandoc_path(), str(paper), "-t", "json"], capture_output=True, check=True, text=True
        ).stdout
    plain = json.loads(text)
    print(f"{args.citations} citations, {len(text):,} bytes of JSON, best of {args.runs}")
    print(f"{'json.loads':24s} {_best(lambda: json.loads(text), args.runs):7.1f} ms")
    dumps = _best(lambda: json.dumps(plain, ensure_ascii=False, separators=(",", ":")), args.runs)
    print(f"{'json.dumps':24s} {dumps:7.1f} ms")
    today = _steps(text, args.runs)
    iterate, construct = ListContainer.__iter__, ListContainer.__init__
    ListContainer.__iter__ = _iterate
    with_a = _steps(text, args.runs)
    ListContainer.__init__ = _construct
    with_ab = _steps(text, args.runs)
    ListContainer.__iter__, ListContainer.__init__ = iterate, construct
    print(f"{'':24s} {'today':>10s} {'with A':>10s} {'with A+B':>10s}")
    for step, ms in today.items():
        print(f"{step:24s} {ms:7.1f} ms {with_a[step]:7.1f} ms {with_ab[step]:7.1f} ms")


if __name__ == "__main__":
    main()
