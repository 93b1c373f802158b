"""Benchmark: citecheck's reader of one printed reference — its rules alone, the CRF alone, and
the two together as citecheck reads (issue 46, item 3) — side by side on held-out data.

Data: AnyStyle's parser data in ../shared/corpus/reference-strings/anystyle/parser/ (BSD;
`core.xml`, `good.xml`, `gold.xml`, one `<sequence>` of labelled segments per reference). Split
by file, never by line: the CRF trains on `core.xml` + `good.xml` (as `citecheck reference-model
build` trains it) and every reader is measured on `gold.xml` (1,669 references nobody here
labelled or tuned on).

The CRF (citecore/bib/reflist/crf.py) labels whitespace tokens from word, shape, affix,
punctuation and position features of the token and its neighbours; it is trained in this run.
Printed per field — title, year, first author's family name, container (journal /
container-title) — the share of references whose field each reader reads as the label says
(folded: case, accents and punctuation aside), of those whose label has the field. The first
author is read right when the family name read is one of the first two words (initials aside)
of the labelled author run: AnyStyle labels the whole run, not which word is the family name.
The CRF alone reads the first author from its `author` run with the rules' name readers.

Run with `python bench/reflist_crf.py`.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.reflist.crf import (
    MODEL_VARIABLE,
    FieldLabeller,
    LabelledReference,
    first_author_by_labels,
)
from citecore.bib.reflist.crf_training import (
    Segments,
    labelled_references,
    tokens_and_labels,
    train_model,
)
from citecore.bib.reflist.refparse import parse_reference_text
from citecore.model import Reference, SourceLocation
from citecore.normalize import fold
from tests.paths import CORPUS

DATA = CORPUS / "reference-strings" / "anystyle" / "parser"
Fields = dict[str, str]
_YEAR = re.compile(r"(1[5-9]|20)\d\d")


def _first_runs(pairs: list[tuple[str, str]]) -> Fields:
    """The fields of labelled (label, text) runs: the first run of each label."""
    joined: dict[str, list[str]] = {}
    finished: set[str] = set()
    previous = ""
    for label, text in pairs:
        if label != previous:
            finished.add(previous)
            previous = label
        if label not in finished:
            joined.setdefault(label, []).append(text)
    return {label: " ".join(texts) for label, texts in joined.items()}


def _year(text: str) -> str:
    match = _YEAR.search(text)
    return match.group(0) if match else ""


def _first_author_right(labelled_run: str, family: str) -> bool:
    words = [fold(w) for w in re.findall(r"[^\W\d_][\w'’-]+", labelled_run) if len(w) > 1][:2]
    read = fold(family)
    return bool(read) and any(read == w or read.endswith(w) for w in words)


COMPARED: dict[str, Callable[[Fields], str]] = {
    "title": lambda f: fold(f.get("title", "")),
    "year": lambda f: _year(f.get("date", "")),
    "container": lambda f: fold(f.get("journal", "") or f.get("container-title", "")),
}


def _as_fields(reference: Reference) -> Fields:
    return {
        "title": reference.title,
        "date": str(reference.year or ""),
        "family": reference.authors[0].family if reference.authors else "",
        "journal": reference.venue,
    }


def _crf_fields(labelled: LabelledReference) -> Fields:
    fields = _first_runs(list(zip(labelled.labels, labelled.tokens, strict=True)))
    first = first_author_by_labels(labelled)
    return {**fields, "family": first.family if first else ""}


def _read(text: str, model: str) -> Fields:
    """What citecheck's reader reads of `text` with the model at `model` (none: rules)."""
    os.environ[MODEL_VARIABLE] = model
    return _as_fields(parse_reference_text(text, "r", SourceLocation("bench", 1)))


def main() -> None:
    """Train, read the held-out references every way, print the agreement per field."""
    training = labelled_references(DATA / "core.xml") + labelled_references(DATA / "good.xml")
    held_out: list[Segments] = labelled_references(DATA / "gold.xml")
    readers = ("rules", "CRF", "citecheck")
    with tempfile.TemporaryDirectory() as folder:
        model = Path(folder) / "references.crfsuite"
        seconds = train_model(training, model)
        labeller = FieldLabeller(model)
        names = [*COMPARED, "first author"]
        right = {name: dict.fromkeys((*readers, "labelled"), 0) for name in names}
        started = time.perf_counter()
        for segments in held_out:
            truth = _first_runs(segments)
            tokens, _ = tokens_and_labels(segments)
            if not tokens:
                continue
            text = " ".join(tokens)
            read = {
                "rules": _read(text, str(Path(folder) / "none.crfsuite")),
                "CRF": _crf_fields(labeller.label(text)),
                "citecheck": _read(text, str(model)),
            }
            for name, value in COMPARED.items():
                if expected := value(truth):
                    right[name]["labelled"] += 1
                    for reader in readers:
                        right[name][reader] += value(read[reader]) == expected
            if author := truth.get("author", ""):
                right["first author"]["labelled"] += 1
                for reader in readers:
                    right["first author"][reader] += _first_author_right(
                        author, read[reader]["family"]
                    )
        reading = time.perf_counter() - started
    print(
        f"CRF trained on {len(training):,} references (core + good) in {seconds:.1f} s; "
        f"{len(held_out):,} held-out references (gold) read every way in {reading:.1f} s"
    )
    print(f"{'field':14s} {'labelled':>8s} " + " ".join(f"{r:>9s}" for r in readers))
    for name, counts in right.items():
        labelled = max(counts["labelled"], 1)
        shares = " ".join(f"{counts[r] / labelled:9.1%}" for r in readers)
        print(f"{name:14s} {counts['labelled']:8,d} {shares}")


if __name__ == "__main__":
    main()
