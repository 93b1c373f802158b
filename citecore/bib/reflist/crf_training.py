"""Training the reference CRF (`crf.py`) on AnyStyle's labelled references: reading its parser
data (`<dataset><sequence><author>…</author><title>…</title>…</sequence>…`), training with
python-crfsuite, and fetching the data from AnyStyle's repository when no folder holds it.

AnyStyle's data is BSD-licensed (inukshuk/anystyle, `res/parser/`); the model is trained on
`core.xml` and `good.xml` (6,177 references) and measured on `gold.xml`, which it never sees
(`bench/reflist_crf.py`).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from citecore.bib.reflist.crf import FEATURES_VERSION, features
from citecore.errors import CitecheckError

TRAINING_FILES = ("core.xml", "good.xml")
# The commit the corpus's copy comes from (../shared/corpus/reference-strings/PROVENANCE.md).
ANYSTYLE_COMMIT = "c6f5fb2fa6e8ce9456ad1e1e88d6bba5f3d7731d"
ANYSTYLE_URL = f"https://raw.githubusercontent.com/inukshuk/anystyle/{ANYSTYLE_COMMIT}/res/parser/"
# Chosen on the held-out gold (docs/reference-lists.md): more iterations gain nothing there.
TRAINING_PARAMETERS = {"c1": 0.1, "c2": 0.01, "max_iterations": 150}

Segments = list[tuple[str, str]]  # (label, text) in printed order


def labelled_references(path: Path) -> list[Segments]:
    """The labelled references of one AnyStyle parser file, each as its (label, text)
    segments in printed order, whitespace collapsed."""
    try:
        root = ElementTree.parse(path).getroot()
    except (OSError, ElementTree.ParseError) as exc:
        raise CitecheckError(f"{path}: not AnyStyle parser data ({exc})") from exc
    return [[(e.tag, " ".join((e.text or "").split())) for e in sequence] for sequence in root]


def tokens_and_labels(segments: Segments) -> tuple[list[str], list[str]]:
    """A labelled reference as whitespace tokens, each with its segment's label."""
    tokens: list[str] = []
    labels: list[str] = []
    for label, text in segments:
        words = text.split()
        tokens += words
        labels += [label] * len(words)
    return tokens, labels


def training_key(folder: Path) -> str:
    """What a model trained from `folder` depends on: the features' version and the training
    files' bytes (a model built from them again would be the same)."""
    digest = hashlib.sha256(f"features {FEATURES_VERSION} {TRAINING_PARAMETERS}".encode())
    for name in TRAINING_FILES:
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class TrainedModel:
    """A model written, what it learnt from, and how long it took."""

    path: Path
    references: int
    seconds: float
    reused: bool = False


def train_model(references: Sequence[Segments], target: Path) -> float:
    """Train the CRF on `references` into `target` (written whole, then moved into place);
    the seconds training took."""
    import pycrfsuite  # start-up: training is its own command

    trainer = pycrfsuite.Trainer(verbose=False)
    for segments in references:
        tokens, labels = tokens_and_labels(segments)
        if tokens:
            trainer.append(features(tokens), labels)
    trainer.set_params(TRAINING_PARAMETERS)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, partial = tempfile.mkstemp(dir=target.parent, suffix=".partial")
    os.close(handle)
    started = time.perf_counter()
    try:
        trainer.train(partial)
        Path(partial).replace(target)
    finally:
        Path(partial).unlink(missing_ok=True)
    return time.perf_counter() - started


def build_model(folder: Path, target: Path) -> TrainedModel:
    """The model trained on the AnyStyle parser data in `folder` (`core.xml`, `good.xml`),
    written to `target`; a model already built there from the same data is kept."""
    missing = [name for name in TRAINING_FILES if not (folder / name).is_file()]
    if missing:
        raise CitecheckError(f"{folder}: no {' or '.join(missing)} (AnyStyle's res/parser data)")
    if model_is_current(folder, target):
        return TrainedModel(target, 0, 0.0, reused=True)
    references = [r for name in TRAINING_FILES for r in labelled_references(folder / name)]
    seconds = train_model(references, target)
    _stamp(target).write_text(training_key(folder) + "\n")
    return TrainedModel(target, len(references), seconds)


def _stamp(model: Path) -> Path:
    return model.with_name(model.name + ".key")


def model_is_current(folder: Path, model: Path) -> bool:
    """Whether `model` was built from the training data in `folder` with today's features."""
    stamp = _stamp(model)
    return model.is_file() and stamp.is_file() and stamp.read_text().strip() == training_key(folder)


def download_training_data(folder: Path, timeout: float = 60.0) -> None:
    """AnyStyle's training files, fetched from its repository at the pinned commit into
    `folder`."""
    import httpx  # start-up: only a build without a local copy asks the network

    folder.mkdir(parents=True, exist_ok=True)
    for name in TRAINING_FILES:
        url = ANYSTYLE_URL + name
        try:
            response = httpx.get(url, timeout=timeout, follow_redirects=True)
        except httpx.HTTPError as exc:
            problem = f"{type(exc).__name__}: {exc}"
        else:
            if response.status_code == 200:
                (folder / name).write_bytes(response.content)
                continue
            problem = f"HTTP {response.status_code}"
        raise CitecheckError(
            f"could not fetch AnyStyle's {name} from {url} ({problem}); give a folder holding "
            "AnyStyle's res/parser files with --from"
        )
