"""Malformed input never ends a run in a traceback: every case of tests/malformed.py ends with a
report or a one-line error that names a file of the case, and what is sound in it is still read."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from citecore.cli import main
from tests.malformed import Case, cases

ALL_CASES = list(cases())
# 0 clean, 1 failing findings, 2 bad input, 7 the document could not be parsed (README)
EXIT_CODES = {0, 1, 2, 7}


def _argv(case: Case) -> list[str]:
    if case.command == "ground":
        return ["check", "doc.md", "--ground", "--sources", "sources", "--no-verify"]
    return shlex.split(case.command)


def test_the_corpus_is_large_enough() -> None:
    assert len(ALL_CASES) >= 50


@pytest.mark.parametrize("case", ALL_CASES, ids=[case.name for case in ALL_CASES])
def test_a_malformed_input_is_reported_not_raised(
    case: Case,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    root = case.write(tmp_path)
    monkeypatch.chdir(root)
    code = main([*_argv(case), "-f", "json", "-o", "report.json"])
    err = capsys.readouterr().err
    assert code in EXIT_CODES, err
    errors = [line for line in err.splitlines() if line.startswith("citecheck: error")]
    if errors:
        assert err.count("\n") == 1, f"an error is one line:\n{err}"
    for line in errors:
        assert any(name.split("/")[0] in line for name in case.files), line
    written = (root / "report.json").is_file()
    # A missing bibliography, or an option value a strict run had to ignore: exit 2, and the
    # report all the same.
    if code in (0, 1) or written:
        report = json.loads((root / "report.json").read_text(encoding="utf-8"))
        assert report["schema_version"] == 1
        if code == 2:
            kinds = {f["kind"] for f in report["findings"]}
            assert kinds & {"missing_bibliography", "bad_option"}, err
    else:
        assert errors, f"exit {code} without a one-line error:\n{err}"


GOOD_ENTRY_KEPT = [
    c
    for c in ALL_CASES
    if c.name.startswith("bib_")
    and c.name not in {"bib_only_comment", "bib_empty", "bib_binary", "bib_string_loop"}
]


@pytest.mark.parametrize("case", GOOD_ENTRY_KEPT, ids=[case.name for case in GOOD_ENTRY_KEPT])
def test_one_bad_entry_leaves_the_good_one_checked(case: Case, tmp_path: Path) -> None:
    root = case.write(tmp_path)
    code = main(["verify", str(root / "refs.bib"), "-f", "json", "-o", str(root / "out.json")])
    assert code in (0, 1)
    report = json.loads((root / "out.json").read_text(encoding="utf-8"))
    keys = {entry["key"] for entry in report["references"]}
    assert "good2020" in keys
