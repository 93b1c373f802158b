"""Benchmark: citecheck's rule-based reader of one printed reference against a CRF trained on
human-labelled reference strings (issue 46, item 3), side by side on held-out data.

Data: AnyStyle's parser data in ../shared/corpus/reference-strings/anystyle/parser/ (BSD;
`core.xml`, `good.xml`, `gold.xml`, `bad.xml`, one `<sequence>` of labelled segments per
reference). Split by file, never by line: the CRF trains on `core.xml` + `good.xml` and both
readers are measured on `gold.xml` (1,669 references nobody here labelled or tuned on).

The CRF (python-crfsuite, `pip install python-crfsuite`) labels whitespace tokens with the
segment's label from word, shape, affix, punctuation and position features of the token and its
neighbours; it is trained in this run (seconds), never stored. Printed per field — title, year,
first author's family name, container (journal / container-title) — the share of references
whose field each reader reads as the label says (folded: case, accents and punctuation aside),
of those whose label has the field.

Run with `python bench/reflist_crf.py`.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.reflist.refparse import parse_reference_text
from citecore.model import SourceLocation
from citecore.normalize import fold
from tests.paths import CORPUS

DATA = CORPUS / "reference-strings" / "anystyle" / "parser"
Segments = list[tuple[str, str]]  # (label, text) in printed order
Fields = dict[str, str]


def sequences(name: str) -> list[Segments]:
    """The labelled references of one AnyStyle file."""
    root = ElementTree.parse(DATA / name).getroot()
    return [[(e.tag, " ".join((e.text or "").split())) for e in seq] for seq in root]


def tokens_and_labels(segments: Segments) -> tuple[list[str], list[str]]:
    tokens: list[str] = []
    labels: list[str] = []
    for label, text in segments:
        words = text.split()
        tokens += words
        labels += [label] * len(words)
    return tokens, labels


def _shape(word: str) -> str:
    shape = re.sub(r"[A-Z]", "X", re.sub(r"[a-z]", "x", re.sub(r"\d", "d", word)))
    return re.sub(r"(.)\1+", r"\1\1", shape)


_YEAR = re.compile(r"(1[5-9]|20)\d\d")
_INITIAL = re.compile(r"[A-Z]\.(-?[A-Z]\.)*,?")


def _token_features(word: str, prefix: str) -> list[str]:
    lower = word.lower()
    stripped = lower.strip(".,;:()[]\"'“”")
    year = bool(_YEAR.search(word))
    initial = bool(_INITIAL.fullmatch(word))
    quoted = word[:1] in '“"‘' or word[-1:] in '”"’'
    return [
        f"{prefix}w={stripped}",
        f"{prefix}shape={_shape(word)}",
        f"{prefix}suf3={stripped[-3:]}",
        f"{prefix}pre3={stripped[:3]}",
        f"{prefix}last={word[-1:]}",
        f"{prefix}first={word[:1]}",
        f"{prefix}year={year}",
        f"{prefix}initial={initial}",
        f"{prefix}quote={quoted}",
    ]


def features(tokens: list[str]) -> list[list[str]]:
    """Each token's features, its neighbours' too, and where in the reference it stands."""
    result = []
    for i, word in enumerate(tokens):
        found = _token_features(word, "")
        found.append(f"pos={min(10, i * 10 // max(len(tokens), 1))}")
        for offset in (-2, -1, 1, 2):
            j = i + offset
            found += (
                _token_features(tokens[j], f"{offset}:")[:3]
                if 0 <= j < len(tokens)
                else [f"{offset}:edge"]
            )
        result.append(found)
    return result


def train(train_sets: list[Segments], model: Path) -> float:
    """Train the CRF into `model`; the seconds it took."""
    import pycrfsuite  # the bench's own dependency: `pip install python-crfsuite`

    trainer = pycrfsuite.Trainer(verbose=False)
    for segments in train_sets:
        tokens, labels = tokens_and_labels(segments)
        if tokens:
            trainer.append(features(tokens), labels)
    trainer.set_params({"c1": 0.1, "c2": 0.01, "max_iterations": 150})
    started = time.perf_counter()
    trainer.train(str(model))
    return time.perf_counter() - started


def _fields(pairs: list[tuple[str, str]]) -> Fields:
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


def _family(authors: str) -> str:
    words = re.findall(r"[^\W\d_][\w'’-]+", authors)
    return fold(words[0]) if words else ""


COMPARED: dict[str, Callable[[Fields], str]] = {
    "title": lambda f: fold(f.get("title", "")),
    "year": lambda f: _year(f.get("date", "")),
    "first author": lambda f: _family(f.get("author", "")),
    "container": lambda f: fold(f.get("journal", "") or f.get("container-title", "")),
}


def rules_fields(text: str) -> Fields:
    """What citecheck's reader of one printed reference reads, in AnyStyle's labels."""
    reference = parse_reference_text(text, "r", SourceLocation("bench", 1))
    authors = reference.authors[0].family if reference.authors else ""
    return {
        "title": reference.title,
        "date": str(reference.year or ""),
        "author": authors,
        "journal": reference.venue,
    }


def main() -> None:
    """Train, read the held-out references both ways, print the agreement per field."""
    # start-up: the CRF's library is the bench's own dependency, asked for here only
    import pycrfsuite

    training = sequences("core.xml") + sequences("good.xml")
    held_out = sequences("gold.xml")
    with tempfile.TemporaryDirectory() as folder:
        model = Path(folder) / "references.crfsuite"
        seconds = train(training, model)
        tagger = pycrfsuite.Tagger()
        tagger.open(str(model))
        right = {name: {"rules": 0, "crf": 0, "labelled": 0} for name in COMPARED}
        started = time.perf_counter()
        for segments in held_out:
            truth = _fields(segments)
            tokens, _ = tokens_and_labels(segments)
            if not tokens:
                continue
            predicted = _fields(list(zip(tagger.tag(features(tokens)), tokens, strict=True)))
            read = rules_fields(" ".join(tokens))
            for name, value in COMPARED.items():
                expected = value(truth)
                if not expected:
                    continue
                right[name]["labelled"] += 1
                right[name]["crf"] += value(predicted) == expected
                right[name]["rules"] += value(read) == expected
        reading = time.perf_counter() - started
    print(
        f"CRF trained on {len(training):,} references (core + good) in {seconds:.1f} s; "
        f"{len(held_out):,} held-out references (gold) read both ways in {reading:.1f} s"
    )
    print(f"{'field':14s} {'labelled':>8s} {'rules':>8s} {'CRF':>8s}")
    for name, counts in right.items():
        labelled = max(counts["labelled"], 1)
        print(
            f"{name:14s} {counts['labelled']:8,d} {counts['rules'] / labelled:8.1%} "
            f"{counts['crf'] / labelled:8.1%}"
        )


if __name__ == "__main__":
    main()
