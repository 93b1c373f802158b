"""Replaying an unchanged filter run from the cache: the same warnings, reports and AST, and
nothing replayed once anything the run read has changed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from citecore.cache import Cache
from citecore.filter.replay import (
    NAMESPACE,
    RecordedRun,
    dependencies_of,
    record,
    replay,
    run_key,
)
from citecore.pandoc.reader import pandoc_path


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[Cache]:
    with Cache(tmp_path / "cache.sqlite3") as opened:
        yield opened


def _run(tmp_path: Path, exit_code: int = 0) -> tuple[RecordedRun, Path, Path]:
    bib = tmp_path / "refs.bib"
    bib.write_text("@misc{a, title = {A}}\n")
    report = tmp_path / "out" / "REVIEW-CITES.md"
    run = RecordedRun(
        exit_code=exit_code,
        stdout='{"blocks": []}',
        stderr="[WARNING] citecheck: refs.bib:1: [unused] a: never cited\n",
        reports={str(report): "# Citation review\n"},
        dependencies=dependencies_of([str(bib), str(tmp_path / "citecheck.toml")]),
    )
    return run, bib, report


def test_an_unchanged_run_is_replayed_whole(
    cache: Cache, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run, _, report = _run(tmp_path, exit_code=1)
    record(cache, "key", run)
    assert replay(cache, "key") == 1
    out, err = capsys.readouterr()
    assert (out, err) == (run.stdout, run.stderr)
    assert report.read_text() == "# Citation review\n"  # written again: it had been removed


def test_a_changed_or_new_file_is_not_replayed(cache: Cache, tmp_path: Path) -> None:
    run, bib, _ = _run(tmp_path)
    record(cache, "key", run)
    bib.write_text("@misc{a, title = {Another}}\n")
    assert replay(cache, "key") is None
    bib.write_text("@misc{a, title = {A}}\n")
    assert replay(cache, "key") == 0
    (tmp_path / "citecheck.toml").write_text("strict = true\n")  # absent before: a change too
    assert replay(cache, "key") is None


def test_nothing_recorded_or_a_damaged_record_replays_nothing(cache: Cache, tmp_path: Path) -> None:
    assert replay(cache, "never-recorded") is None
    cache.put(NAMESPACE, "damaged", "{not json")
    assert replay(cache, "damaged") is None
    cache.put(NAMESPACE, "partial", json.dumps({"exit_code": 0}))
    assert replay(cache, "partial") is None


def test_the_key_changes_with_everything_the_run_depends_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = run_key(b"{}", ["html"], ["paper.md"], {"CITECHECK_OFFLINE": "1", "HOME": "/h"})
    assert base == run_key(b"{}", ["html"], ["paper.md"], {"CITECHECK_OFFLINE": "1"})
    assert base != run_key(b"{ }", ["html"], ["paper.md"], {"CITECHECK_OFFLINE": "1"})
    assert base != run_key(b"{}", ["latex"], ["paper.md"], {"CITECHECK_OFFLINE": "1"})
    assert base != run_key(b"{}", ["html"], ["other.md"], {"CITECHECK_OFFLINE": "1"})
    assert base != run_key(b"{}", ["html"], ["paper.md"], {"CITECHECK_OFFLINE": "0"})
    monkeypatch.chdir(tmp_path)  # relative paths mean other files elsewhere
    assert base != run_key(b"{}", ["html"], ["paper.md"], {"CITECHECK_OFFLINE": "1"})


def test_dependencies_are_absolute_and_absent_files_count(tmp_path: Path) -> None:
    present = tmp_path / "a.bib"
    present.write_text("x")
    found = dependencies_of([str(present), str(tmp_path / "missing.toml")])
    assert found[str(present.resolve())] is not None
    assert found[str((tmp_path / "missing.toml").resolve())] is None


# Runs the filter process on the AST given on stdin and says, on its last stderr line, which
# of the pipeline's heavy libraries it loaded.
_FILTER_AND_MODULES = """
import json, sys
from citecore.filter.process import run_stdio
status = run_stdio("html")
heavy = sorted(m for m in sys.modules if m.split(".")[0] in {"bibtexparser", "httpx", "panflute"}
               or m in {"citecore.extract.markdown", "citecore.pandoc.document"})
print(json.dumps(heavy), file=sys.stderr)
"""


def test_a_replayed_rebuild_loads_neither_the_pipeline_nor_httpx(tmp_path: Path) -> None:
    # The promise behind a rebuild that costs no more than pandoc's own no-op filter: the
    # replay path reads the cache and the files' digests, and nothing of the pipeline.
    paper = tmp_path / "paper.md"
    paper.write_text("---\nbibliography: refs.bib\n---\n\nA claim [@a].\n")
    (tmp_path / "refs.bib").write_text("@article{a, title = {A Study}, author = {Doe, Jane}}\n")
    ast = subprocess.run(
        [pandoc_path(), str(paper), "-t", "json"], check=True, capture_output=True
    ).stdout
    environ = {
        **os.environ,
        "CITECHECK_CACHE": str(tmp_path / "cache.sqlite3"),
        "CITECHECK_OFFLINE": "1",
        "CITECHECK_SOURCE": str(paper),
    }
    loaded = []
    for _ in range(2):
        run = subprocess.run(
            [sys.executable, "-c", _FILTER_AND_MODULES],
            input=ast,
            capture_output=True,
            env=environ,
            cwd=tmp_path,
            check=True,
        )
        loaded.append(json.loads(run.stderr.decode().strip().splitlines()[-1]))
        assert json.loads(run.stdout)["blocks"]
    assert "citecore.extract.markdown" in loaded[0]  # the first run checks the document
    assert loaded[1] == []  # the second one replays it
