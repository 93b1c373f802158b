"""Shared test fixtures: where the real corpus is, and how to run the real pandoc."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from citecore.bib.reflist.crf import MODEL_NAME, MODEL_VARIABLE, default_model_path
from citecore.bib.reflist.crf_training import build_model, model_is_current
from citecore.pandoc.reader import pandoc_path
from tests.emulator import RegistryEmulator
from tests.paths import CASES, CORPUS, REPO, SHARED

__all__ = ["CASES", "CORPUS", "REPO", "SHARED", "CorpusPaper", "corpus_markdown_papers"]


def pytest_configure(config: pytest.Config) -> None:
    """Stop at once, in one line, when the shared corpus the tests read is not there; hold the
    tests to the pandoc citecheck's own dependencies bring (pypandoc-binary's), whatever else
    is on PATH: Debian's r-cran-rmarkdown, installed for the knitr oracle, brings pandoc 2.17,
    whose citeproc prints names otherwise."""
    if not CORPUS.is_dir():
        raise pytest.UsageError(
            f"the tests read the shared corpus at {CORPUS}, which does not exist: check out "
            "`shared/` beside the repository or point CITECHECK_SHARED at it"
        )
    # Builds in the tests check in their own process: a build server would outlive the test
    # that started it (tests/filter/test_server.py starts its own, in a folder of its own).
    os.environ["CITECHECK_SERVER"] = "off"
    if "CITECHECK_PANDOC" not in os.environ:
        import pypandoc

        os.environ["CITECHECK_PANDOC"] = str(pypandoc.get_pandoc_path())
    os.environ[MODEL_VARIABLE] = str(_reference_model())


def _reference_model() -> Path:
    """The reference CRF every test reads printed references with: the one `make install`
    built (`citecheck reference-model build`) when it was trained on the corpus's AnyStyle
    data, else one trained now into build/ (about a minute, once a checkout)."""
    data = CORPUS / "reference-strings" / "anystyle" / "parser"
    installed = default_model_path()
    if model_is_current(data, installed):
        return installed
    return build_model(data, REPO / "build" / MODEL_NAME).path


@dataclass(frozen=True)
class CorpusPaper:
    """A corpus paper and, when its `bibliography:` names a file the corpus renamed, that file."""

    path: Path
    bibliography_override: str | None

    @property
    def name(self) -> str:
        return self.path.parent.name


def corpus_markdown_papers() -> list[CorpusPaper]:
    """Every paper of ../shared/corpus/markdown, as MANIFEST.tsv lists them."""
    manifest = CORPUS / "markdown" / "MANIFEST.tsv"
    lines = manifest.read_text().splitlines()
    header = lines[0].split("\t")
    papers = []
    for line in lines[1:]:
        row = dict(zip(header, line.split("\t"), strict=False))
        folder = CORPUS / "markdown" / row["name"]
        named = row.get("yaml_bibliography", "")
        override = row["bib_copied_as"] if named and not (folder / named).exists() else None
        papers.append(CorpusPaper(folder / row["document"], override))
    return papers


def run_pandoc(
    *args: str, cwd: Path, env: dict[str, str] | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Run the real pandoc binary with `citecheck` (this interpreter's) first on PATH."""
    environment = dict(os.environ)
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment['PATH']}"
    environment.update(env or {})
    completed = subprocess.run(
        [pandoc_path(), *args], cwd=cwd, env=environment, capture_output=True, text=True
    )
    if check and completed.returncode != 0:
        raise AssertionError(f"pandoc failed ({completed.returncode}):\n{completed.stderr}")
    return completed


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test gets its own cache folder (platformdirs follows XDG_CACHE_HOME), in process and
    in the pandoc runs it starts; nothing touches the user's cache."""
    folder = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    # Tests never touch the internet: the registries are only the loopback emulator's, and a
    # run that is not pointed at it answers from the (empty) cache.
    monkeypatch.setenv("CITECHECK_OFFLINE", "1")
    # A developer's own model key must not turn the tests' grounding into model calls.
    for name in ("GOOGLE_API_KEY", "GEMINI_API_KEY", "OPENAI_API_KEY", "GOOGLE_GEMINI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return folder


@pytest.fixture
def pandoc() -> str:
    """The pandoc executable citecheck itself would use."""
    return pandoc_path()


requires_latex = pytest.mark.skipif(
    shutil.which("pdflatex") is None, reason="TeX Live is installed by .ci/run"
)


@pytest.fixture
def online(emulator: RegistryEmulator, monkeypatch: pytest.MonkeyPatch) -> RegistryEmulator:
    """Registry verification pointed at the emulator instead of the (closed) internet."""
    monkeypatch.delenv("CITECHECK_OFFLINE")
    for name, value in emulator.environment().items():
        monkeypatch.setenv(name, value)
    return emulator


@pytest.fixture
def problems(tmp_path: Path) -> Path:
    """A writable copy of the `problems` scenario (tests/cases/problems)."""
    folder = tmp_path / "problems"
    shutil.copytree(CASES / "problems", folder)
    return folder


@pytest.fixture
def emulator() -> Iterator[RegistryEmulator]:
    """A loopback registry emulator; the test fails if it was asked for anything it was not
    told to answer, or if a recorded answer it was given was never asked for (a test that
    means a request must not happen says so with `serve(..., unused_ok=True)`)."""
    with RegistryEmulator() as server:
        yield server
        assert not server.unexpected, f"requests with no recorded answer: {server.unexpected}"
        assert not server.unused, f"recorded answers never asked for: {server.unused}"
