"""A printed reference's words labelled by a CRF trained on references people labelled
(AnyStyle's parser data: `author`, `date`, `title`, `container-title`, `journal`, …), and where
it decides a field the rules read (docs/reference-lists.md says why, with the measurements).

The model is built once by `citecheck reference-model build` (which `make install` runs) into
the per-user data folder, or named by `CITECHECK_REFERENCE_MODEL`. Without it the rules read
every field alone, and `model_problem()` says why in one line.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from citecore.bib.reflist.authors import corporate_author, formal_list, plain_list
from citecore.bib.reflist.titles import clean_title
from citecore.model import Person

# Bump when the features change: a model trained on other features is not used.
FEATURES_VERSION = 1
MODEL_VARIABLE = "CITECHECK_REFERENCE_MODEL"
MODEL_NAME = f"reference-fields-v{FEATURES_VERSION}.crfsuite"
# The rules' title stands unless the CRF calls fewer than this share of its words a title
# (measured on the publisher PDFs and AnyStyle's held-out gold: docs/reference-lists.md).
TITLE_SHARE = 0.5
# ...and only a title the model is sure of: every word of it a title with this probability.
TITLE_CONFIDENCE = 0.9

_YEAR = re.compile(r"(1[5-9]|20)\d\d")
_INITIAL = re.compile(r"[A-Z]\.(-?[A-Z]\.)*,?")
# What introduces the book or proceedings a chapter or paper is in: "In:", "In The …".
_CONTAINER_MARK = re.compile(r"(?:^|[\s.,;])In:?\s")
_EDGE_PUNCTUATION = ".,;:()[]\"'“”"
_OPENING_QUOTES = '“"‘'
_CLOSING_QUOTES = '”"’'


def default_model_path() -> Path:
    """Where the model is read from: `CITECHECK_REFERENCE_MODEL`, else the per-user data
    folder (where `citecheck reference-model build` writes it)."""
    named = os.environ.get(MODEL_VARIABLE, "").strip()
    if named:
        return Path(named).expanduser()
    return Path(user_data_dir("citecheck", appauthor=False)) / MODEL_NAME


def _shape(word: str) -> str:
    shape = re.sub(r"[A-Z]", "X", re.sub(r"[a-z]", "x", re.sub(r"\d", "d", word)))
    return re.sub(r"(.)\1+", r"\1\1", shape)


def _token_features(word: str, prefix: str) -> list[str]:
    stripped = word.lower().strip(_EDGE_PUNCTUATION)
    quoted = word[:1] in _OPENING_QUOTES or word[-1:] in _CLOSING_QUOTES
    return [
        f"{prefix}w={stripped}",
        f"{prefix}shape={_shape(word)}",
        f"{prefix}suf3={stripped[-3:]}",
        f"{prefix}pre3={stripped[:3]}",
        f"{prefix}last={word[-1:]}",
        f"{prefix}first={word[:1]}",
        f"{prefix}year={bool(_YEAR.search(word))}",
        f"{prefix}initial={bool(_INITIAL.fullmatch(word))}",
        f"{prefix}quote={quoted}",
    ]


def features(tokens: Sequence[str]) -> list[list[str]]:
    """Each token's features — word, shape, affixes, punctuation, a year, an initial, a quote
    — the first three of its two neighbours on each side, and where in the reference it
    stands (tenths)."""
    own = [_token_features(word, "") for word in tokens]
    result = []
    for i, found in enumerate(own):
        row = [*found, f"pos={min(10, i * 10 // max(len(tokens), 1))}"]
        for offset in (-2, -1, 1, 2):
            j = i + offset
            if 0 <= j < len(tokens):
                row += [f"{offset}:{feature}" for feature in own[j][:3]]
            else:
                row.append(f"{offset}:edge")
        result.append(row)
    return result


@dataclass(frozen=True, slots=True)
class LabelledReference:
    """A printed reference's whitespace tokens, each with the label the CRF gave it."""

    tokens: tuple[str, ...]
    labels: tuple[str, ...]
    # Each token's start in the text it came from.
    starts: tuple[int, ...]
    # Each token's probability of being part of the title, by the model's marginals.
    title_odds: tuple[float, ...] = ()

    def first_run(self, *names: str) -> range:
        """The tokens of the first run labelled with one of `names` (empty when none is)."""
        start = next((i for i, label in enumerate(self.labels) if label in names), None)
        if start is None:
            return range(0)
        end = start
        while end < len(self.labels) and self.labels[end] in names:
            end += 1
        return range(start, end)

    def field(self, *names: str) -> str:
        """The first run of tokens labelled with one of `names`, joined; "" when none is."""
        return " ".join(self.tokens[i] for i in self.first_run(*names))

    def span(self, run: range) -> tuple[int, int]:
        """Where the tokens of `run` (not empty) stand in the text: start and end."""
        last = run[-1]
        return self.starts[run[0]], self.starts[last] + len(self.tokens[last])

    def title_confidence(self, run: range) -> float:
        """How sure the model is that the tokens of `run` are a title: the least probability
        it gives one of them; 0 for no token."""
        return min((self.title_odds[i] for i in run), default=0.0)

    def share_labelled(self, start: int, end: int, name: str) -> float | None:
        """The share of the tokens that overlap text[start:end] labelled `name`; None when no
        token does."""
        inside = [
            label
            for token, label, at in zip(self.tokens, self.labels, self.starts, strict=True)
            if at < end and at + len(token) > start
        ]
        return sum(label == name for label in inside) / len(inside) if inside else None


class FieldLabeller:
    """A trained model, opened once: labels the tokens of printed references."""

    def __init__(self, path: Path) -> None:
        import pycrfsuite  # start-up: only reading a printed reference needs the CRF

        self._tagger: Any = pycrfsuite.Tagger()
        self._tagger.open(str(path))
        # The marginals are those of the last sequence tagged: one reference at a time (a
        # screen's worker reads PDFs on several threads).
        self._lock = threading.Lock()

    def label(self, text: str) -> LabelledReference:
        """The tokens of `text` (split at whitespace) with their labels."""
        matches = list(re.finditer(r"\S+", text))
        tokens = tuple(m.group(0) for m in matches)
        if not tokens:
            return LabelledReference((), (), (), ())
        rows = features(tokens)
        with self._lock:
            labels = tuple(self._tagger.tag(rows))
            odds = tuple(self._tagger.marginal("title", i) for i in range(len(tokens)))
        return LabelledReference(tokens, labels, tuple(m.start() for m in matches), odds)


@cache
def _labeller(path: Path) -> FieldLabeller | None:
    if not path.is_file():
        return None
    try:
        return FieldLabeller(path)
    except (OSError, ValueError, ImportError):  # unreadable: the rules read alone (said once)
        return None


def reference_labeller() -> FieldLabeller | None:
    """The model at `default_model_path()`, opened once a process; None when there is none or
    it cannot be opened (then `model_problem()` says why)."""
    return _labeller(default_model_path())


def model_problem() -> str:
    """Why printed references are read by the rules alone, in one line; "" when the model is
    there and opens."""
    path = default_model_path()
    if not path.is_file():
        return (
            f"no reference model at {path}: printed references are read by rules alone "
            "(build it once with `citecheck reference-model build`)"
        )
    if reference_labeller() is None:
        return f"the reference model {path} could not be opened: rules read printed references"
    return ""


def _words(text: str) -> list[str]:
    return [w for w in (t.strip(_EDGE_PUNCTUATION).lower() for t in text.split()) if w]


def title_by_labels(text: str, title: str, labelled: LabelledReference) -> str:
    """The title of the printed reference `text`. The rules' `title` stands unless the CRF is
    sure of a title of its own (every word a title with probability `TITLE_CONFIDENCE`) that
    is neither a part of the rules' title nor the book or proceedings after it ("In: …"), and
    calls fewer than `TITLE_SHARE` of the rules' title words (where they stand in the entry) a
    title; then the CRF's stands, cleaned as the rules clean theirs."""
    run = labelled.first_run("title")
    if not run or labelled.title_confidence(run) < TITLE_CONFIDENCE:
        return title
    crf_start, crf_end = labelled.span(run)
    found = text[crf_start:crf_end]  # as printed: its spaces too, like the rules' titles
    if title:
        start = text.find(title)
        if start >= 0:
            end = start + len(title)
            if start - 1 <= crf_start and crf_end <= end + 1:  # a quote or stop aside
                return title  # the CRF reads a part of what the rules read
            if end <= crf_start and _CONTAINER_MARK.search(text, end, crf_start + len("In: ")):
                return title  # after "In": the book or proceedings holding the rules' title
            share = labelled.share_labelled(start, end, "title")
        else:  # cleaned by the rules (quotes, a trailer): its words, wherever they stand
            words = _words(title)
            called = set(_words(found))
            if called <= set(words):
                return title
            share = sum(w in called for w in words) / len(words) if words else None
        if share is None or share >= TITLE_SHARE:
            return title
    return clean_title(found) or title


def first_author_by_labels(labelled: LabelledReference) -> Person | None:
    """The first author of the run the CRF labels `author` at the start of the entry (after
    its number, if printed), read by the rules' name readers; None when the entry does not open
    with one."""
    opening = [label for label in labelled.labels if label != "citation-number"][:1]
    if opening != ["author"]:  # a number ("[10]") may come first; nothing else may
        return None
    span = labelled.field("author")
    if span.rstrip()[-1:] not in ".:":  # the readers find a list's end at a sentence end
        span = span.rstrip(" ,;") + "."
    authors = formal_list(span) or corporate_author(span) or plain_list(span)
    return authors.first if authors else None
