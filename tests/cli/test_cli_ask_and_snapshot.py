"""`citecheck ask` and `citecheck snapshot build` as a writer meets them: answers with their
passages and pages, and one-line errors (exit 2) for what cannot be asked or built."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from citecore.cli import main
from tests.emulator import recorded


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@misc{notes2020, title = {Lab notes}, author = {Doe, Jane}, year = 2020}\n"
        "@misc{blank2021, title = {A scan}, author = {Roe, Rita}, year = 2021}\n"
        "@misc{nofile2022, title = {Not here}, author = {Poe, Paul}, year = 2022}\n"
    )
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "notes2020.txt").write_text(
        "Methods. We trained on four corpora.\fResults. Our method reduced classification "
        "errors by 35 percent on the benchmark, and training took two days."
    )
    (folder / "blank2021.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    return tmp_path


def _ask(root: Path, key: str, question: str) -> int:
    return main(
        ["ask", key, question, "--bib", str(root / "refs.bib"), "--sources", str(root / "sources")]
    )


def test_an_answer_shows_the_passages_read_with_their_pages(
    sources: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _ask(sources, "@notes2020", "By how much did the method reduce errors?") == 0
    out = capsys.readouterr().out
    verdict, *passages = out.split("\n\n")
    assert verdict.split(":")[0] in {"supported", "partial", "unconfirmed"}
    assert any("[notes2020.txt, p. 2]" in p and "35 percent" in p for p in passages)


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("@ghost2019", "@ghost2019 is not in"),
        ("nofile2022", "@nofile2022 has no readable source file"),
        ("@blank2021", "blank2021.pdf: cannot read this PDF"),
    ],
)
def test_what_cannot_be_asked_is_one_line_and_exit_2(
    sources: Path, capsys: pytest.CaptureFixture[str], key: str, message: str
) -> None:
    assert _ask(sources, key, "Anything?") == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert "Traceback" not in err


def test_snapshot_build_reports_what_it_imported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(recorded("crossref/works_10.7554_elife.01567.json").read_text())["message"]
    dump = tmp_path / "part-0.jsonl.gz"
    with gzip.open(dump, "wt", encoding="utf-8") as stream:
        stream.write(json.dumps(record) + "\n{broken\n")
    target = tmp_path / "snapshot.sqlite3"
    build = ["snapshot", "build", str(dump), "-o", str(target), "--complete"]
    # Half the file unreadable: refused, with the line and why, and how to import it anyway.
    assert main(build) == 2
    refused = capsys.readouterr().err
    assert f"{dump}: 1 of 2 lines (50%) could not be read, more than 5%" in refused
    assert "line 2: not JSON ({broken)" in refused and "--max-skipped 0.50" in refused
    assert not target.exists()
    assert main([*build, "--max-skipped", "0.5"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert f"{target}: 1 records imported (crossref 1), 1 lines skipped (declared complete)" in err
    assert f"citecheck: {dump}: 1 of 2 lines skipped: line 2: not JSON ({{broken)" in err


@pytest.mark.parametrize("damage", ["missing", "not gzip"])
def test_a_dump_that_cannot_be_read_is_one_line_and_leaves_no_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    dump = tmp_path / "part-0.jsonl.gz"
    if damage == "not gzip":
        dump.write_bytes(b"plain text, not gzip")
    target = tmp_path / "snapshot.sqlite3"
    assert main(["snapshot", "build", str(dump), "-o", str(target)]) == 2
    err = capsys.readouterr().err.strip()
    assert str(dump) in err and len(err.splitlines()) == 1
    assert not target.exists() and not list(tmp_path.glob(".*.partial"))
