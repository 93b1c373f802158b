"""Training the reference CRF: AnyStyle's parser data read, a model built once from the same
data, `citecheck reference-model build` from a folder and from a loopback copy of AnyStyle's
repository, and one clear line for what cannot be read or fetched."""

from __future__ import annotations

import functools
import threading
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import citecore.bib.reflist.crf_training as training
from citecore.bib.reflist.crf import FieldLabeller
from citecore.bib.reflist.crf_training import (
    build_model,
    labelled_references,
    model_is_current,
    tokens_and_labels,
)
from citecore.cli import main
from citecore.errors import CitecheckError
from tests.paths import CORPUS

PARSER = CORPUS / "reference-strings" / "anystyle" / "parser"


@pytest.fixture
def small_data(tmp_path: Path) -> Path:
    """AnyStyle's two training files cut to their first 40 references (seconds to train)."""
    folder = tmp_path / "parser"
    folder.mkdir()
    for name in ("core.xml", "good.xml"):
        root = ElementTree.parse(PARSER / name).getroot()
        for sequence in list(root)[40:]:
            root.remove(sequence)
        ElementTree.ElementTree(root).write(folder / name, encoding="utf-8")
    return folder


def test_anystyle_data_is_read_as_labelled_segments() -> None:
    references = labelled_references(PARSER / "core.xml")
    assert len(references) == 1514
    tokens, labels = tokens_and_labels(references[0])
    assert len(tokens) == len(labels) > 3 and "title" in labels


def test_what_is_not_anystyle_data_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "core.xml"
    bad.write_text("<dataset><sequence>")
    with pytest.raises(CitecheckError, match=r"core.xml: not AnyStyle parser data"):
        labelled_references(bad)
    with pytest.raises(CitecheckError, match=r"no core.xml or good.xml"):
        build_model(tmp_path / "empty", tmp_path / "model.crfsuite")


def test_a_model_is_built_once_from_the_same_data(small_data: Path, tmp_path: Path) -> None:
    target = tmp_path / "models" / "reference.crfsuite"
    built = build_model(small_data, target)
    assert (built.references, built.reused) == (80, False) and model_is_current(small_data, target)
    assert FieldLabeller(target).label("Smith J. Deep nets. Nature 2015;5:1-2.").labels
    assert build_model(small_data, target).reused
    (small_data / "good.xml").write_text((small_data / "core.xml").read_text())
    assert not model_is_current(small_data, target)  # other data: built again
    assert not build_model(small_data, target).reused
    assert [p.name for p in target.parent.iterdir() if p.suffix == ".partial"] == []


def test_the_command_builds_from_a_folder(
    small_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "model.crfsuite"
    assert main(["reference-model", "build", "--from", str(small_data), "-o", str(target)]) == 0
    assert "trained on 80 labelled references" in capsys.readouterr().out
    assert main(["reference-model", "build", "--from", str(small_data), "-o", str(target)]) == 0
    assert "already built from the same data" in capsys.readouterr().out
    assert main(["reference-model", "build", "--from", str(tmp_path), "-o", str(target)]) == 2
    assert "citecheck: error:" in capsys.readouterr().err


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Nothing: the test reads the command's own error output."""


@pytest.fixture
def anystyle_server(small_data: Path) -> Iterator[str]:
    """A loopback server holding the training files where AnyStyle's repository does."""
    handler = functools.partial(_QuietHandler, directory=str(small_data))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_the_command_fetches_the_data_when_no_folder_is_given(
    anystyle_server: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(training, "ANYSTYLE_URL", anystyle_server)
    target = tmp_path / "model.crfsuite"
    assert main(["reference-model", "build", "-o", str(target)]) == 0
    assert target.is_file() and "trained on 80" in capsys.readouterr().out
    monkeypatch.setattr(training, "ANYSTYLE_URL", anystyle_server + "nowhere/")
    assert main(["reference-model", "build", "-o", str(tmp_path / "other.crfsuite")]) == 2
    error = capsys.readouterr().err
    assert "could not fetch AnyStyle's core.xml" in error and "(HTTP 404)" in error
    assert len(error.strip().splitlines()) == 1
