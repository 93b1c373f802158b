"""The `citecheck` command: reports, exit codes, and pandoc filter mode."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from citecore.cli import main
from tests.conftest import REPO

CITECHECK = str(Path(sys.executable).parent / "citecheck")


def test_check_exits_1_on_errors_and_prints_a_table(
    problems: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(problems / "paper.md")]) == 1
    out = capsys.readouterr().out
    assert "undefined" in out and "ghost2020" in out and "unparsed" in out


def test_check_exits_0_when_clean(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text("@misc{a, title = {A title}, year = {2020}}\n")
    (tmp_path / "doc.md").write_text("---\nbibliography: refs.bib\n---\nClaim [@a].\n")
    assert main(["check", str(tmp_path / "doc.md")]) == 0


def test_fail_on_narrows_what_fails(problems: Path) -> None:
    assert main(["check", str(problems / "paper.md"), "--fail-on", "duplicate_key"]) == 0


def test_json_report_contract(problems: Path) -> None:
    out = problems / "report.json"
    assert main(["check", str(problems / "paper.md"), "-o", str(out)]) == 1
    report = json.loads(out.read_text())
    assert report["schema_version"] == 1 and report["tool"] == "citecheck"
    assert set(report) >= {"version", "inputs", "citations", "references", "findings", "summary"}
    citation = report["citations"][0]
    assert set(citation) >= {
        "key",
        "file",
        "line",
        "mode",
        "prefix",
        "locator",
        "signal",
        "claim",
        "in_note",
        "cited_with",
        "grounding",
    }
    assert citation["key"] == "lecun2015deep" and citation["line"] == 6
    assert citation["grounding"] is None
    reference = report["references"][0]
    assert set(reference) >= {
        "key",
        "file",
        "line",
        "verdict",
        "flags",
        "mismatches",
        "match",
        "suggested",
        "notes",
        "sources",
    }
    finding = report["findings"][0]
    assert set(finding) >= {"kind", "severity", "key", "file", "line", "message"}
    assert report["summary"]["by_verdict"] == {"unverifiable": 2, "unparsed": 1}
    assert report["inputs"]["bibliographies"] == [str(problems / "refs.bib")]


def test_markdown_report_and_only_issues(problems: Path) -> None:
    out = problems / "REVIEW-CITES.md"
    main(["check", str(problems / "paper.md"), "-o", str(out), "--only", "issues"])
    text = out.read_text()
    assert text.startswith("# Citation review")
    assert "| status | reference | cited at | problems |" in text
    assert "`ghost2020`" in text and "`unparsed` this entry could not be read" in text
    assert "never cited" not in text


def test_bib_flag_replaces_the_documents_bibliography(problems: Path) -> None:
    other = problems / "other.bib"
    other.write_text("@misc{ghost2020, title = {Now it exists}}\n")
    out = problems / "r.json"
    main(["check", str(problems / "paper.md"), "--bib", str(other), "-o", str(out)])
    undefined = {
        f["key"] for f in json.loads(out.read_text())["findings"] if f["kind"] == "undefined"
    }
    assert undefined == {"lecun2015deep", "he2016deep", "broken2019"}


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["check", "nowhere.md"], 2, "nowhere.md: no such document"),
        (["check", "{doc}", "--fail-on", "nonsense"], 2, "unknown finding kind 'nonsense'"),
    ],
)
def test_bad_input_exit_codes(
    problems: Path,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    code: int,
    message: str,
) -> None:
    argv = [a.replace("{doc}", str(problems / "paper.md")) for a in args]
    assert main(argv) == code
    assert message in capsys.readouterr().err


def test_a_missing_bibliography_is_one_finding_and_the_report_is_written(problems: Path) -> None:
    out = problems / "r.json"
    code = main(["check", str(problems / "paper.md"), "--bib", "missing.bib", "-o", str(out)])
    report = json.loads(out.read_text())
    missing = [f for f in report["findings"] if f["kind"] == "missing_bibliography"]
    assert code == 1  # an error-level finding under `check`'s strict default, like any other
    assert len(missing) == 1 and "'missing.bib' not found" in missing[0]["message"]
    assert len(report["citations"]) == 6  # every citation still listed, each undefined
    assert all(c["line"] for c in report["citations"])


def test_a_missing_bibliography_leaves_the_others_read(tmp_path: Path) -> None:
    (tmp_path / "here.bib").write_text("@misc{a, title = {A}}\n", encoding="utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "---\nbibliography:\n  - /home/author/laptop.bib\n  - here.bib\n---\n\nText [@a; @b].\n",
        encoding="utf-8",
    )
    out = tmp_path / "r.json"
    assert main(["check", str(doc), "--no-verify", "-o", str(out)]) == 1
    findings = json.loads(out.read_text())["findings"]
    kinds = sorted((f["kind"], f["key"]) for f in findings)
    assert kinds == [("missing_bibliography", ""), ("undefined", "b")]
    missing = next(f for f in findings if f["kind"] == "missing_bibliography")
    assert (missing["file"], missing["line"]) == (str(doc), 2)  # the line that names it


def test_unreadable_document_exits_7(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("---\ntitle: [unclosed\n---\n\nText [@a].\n", encoding="utf-8")
    assert main(["check", str(doc)]) == 7
    assert "pandoc could not read it: YAML parse exception" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("command", "name", "message"),
    [
        ("check", "paper.docx", "a built document; citecheck reads its source"),
        ("latex", "paper.docx", "a built document; citecheck reads its source"),
        ("check", "paper.html", "a built document"),
        ("check", "refs.bib", "check its entries with citecheck verify"),
        ("check", "paper.pdf", "check its entries with citecheck verify"),
        ("check", "main.tex", "check it with citecheck latex"),
        ("latex", "paper.md", "check it with citecheck check"),
        ("check", "notes.odd", "not a document citecheck reads"),
        ("check", ".", "a folder: give one of its documents, e.g. citecheck check"),
        ("latex", ".", "a folder with no .tex document in it"),
    ],
)
def test_every_input_is_recognised_or_refused_with_the_command_to_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, name: str, message: str
) -> None:
    for made in ("paper.docx", "paper.html", "refs.bib", "paper.pdf", "main.tex", "paper.md",
                 "notes.odd"):  # fmt: skip
        (tmp_path / made).write_text("x", encoding="utf-8")
    if command == "latex" and name == ".":
        (tmp_path / "main.tex").unlink()
    assert main([command, str(tmp_path / name), "--offline"]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("output", "message"),
    [
        ("checked.bib", "does not write bibtex"),
        ("report.html", "citecheck writes no HTML report"),
        ("report.json", "the name says json but the format asked for is markdown"),
    ],
)
def test_an_output_named_for_a_format_gets_that_format_or_nothing(
    problems: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], output: str, message: str
) -> None:
    target = tmp_path / output
    assert main(["check", str(problems / "paper.md"), "-f", "markdown", "-o", str(target)]) == 2
    assert message in capsys.readouterr().err
    assert not target.exists()


def test_console_script_acts_as_a_filter_when_pandoc_calls_it(problems: Path) -> None:
    pandoc_json = subprocess.run(
        [CITECHECK, "check", str(problems / "paper.md"), "-f", "json"],
        capture_output=True,
        text=True,
        cwd=problems,
    )
    assert json.loads(pandoc_json.stdout)["summary"]["citations"] == 6
    from citecore.pandoc.reader import pandoc_path

    ast = subprocess.run(
        [pandoc_path(), "paper.md", "-t", "json"],
        capture_output=True,
        text=True,
        cwd=problems,
        check=True,
    ).stdout
    filtered = subprocess.run(
        [CITECHECK, "html"],
        input=ast,
        capture_output=True,
        text=True,
        cwd=problems,
        env={**os.environ, "PANDOC_VERSION": "3.9", "CITECHECK_SOURCE": "paper.md"},
    )
    assert filtered.returncode == 0
    assert json.loads(filtered.stdout)["blocks"]
    assert "paper.md:7: [undefined] ghost2020" in filtered.stderr


def test_readme_commands_are_the_first_two_code_lines() -> None:
    readme = (REPO / "README.md").read_text()
    commands = [line for line in readme.splitlines() if line.startswith("make ")]
    assert commands[:2] == ["make demo", "make test"]


def test_a_bug_is_one_line_and_exit_70_unless_debugging(
    problems: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("injected failure")

    monkeypatch.setattr("citecore.api.markdown.check_document", broken)
    assert main(["check", str(problems / "paper.md")]) == 70
    err = capsys.readouterr().err
    assert err == (
        "citecheck: internal error: RuntimeError: injected failure "
        "(a bug in citecheck; CITECHECK_DEBUG=1 shows where)\n"
    )
    monkeypatch.setenv("CITECHECK_DEBUG", "1")
    with pytest.raises(RuntimeError):
        main(["check", str(problems / "paper.md")])


def test_every_option_has_a_help_line() -> None:
    import argparse

    from citecore.cli.app import build_parser

    def silent(parser: argparse.ArgumentParser, path: str) -> list[str]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found += silent(sub, f"{path} {name}")
            elif not action.help and not isinstance(action, argparse._HelpAction):
                found.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
        return found

    assert silent(build_parser(), "citecheck") == []


def test_an_unusable_cache_is_said_once_and_the_run_completes(
    problems: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder should be")
    code = main(["check", str(problems / "paper.md"), "--cache", str(blocked / "cache.sqlite3")])
    assert code == 1  # the run's own findings, not a crash
    said = [
        r.getMessage() for r in caplog.records if "continuing without caching" in r.getMessage()
    ]
    assert len(said) == 1, said


def test_a_full_disk_is_said_once_and_the_run_completes(
    problems: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # SQLite's "database or disk is full" (SQLITE_FULL), from a page limit on the connection:
    # the error a full disk gives, without filling one.
    import sqlite3

    connect = sqlite3.connect

    def full(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection: sqlite3.Connection = connect(*args, **kwargs)
        connection.execute("PRAGMA max_page_count = 2")
        return connection

    monkeypatch.setattr(sqlite3, "connect", full)
    code = main(["check", str(problems / "paper.md"), "--cache", str(tmp_path / "c.sqlite3")])
    assert code == 1  # the run's own findings, not a crash
    said = [
        r.getMessage() for r in caplog.records if "continuing without caching" in r.getMessage()
    ]
    assert len(said) == 1 and "full" in said[0], said


def test_an_offline_run_says_what_it_did_not_check(
    problems: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["check", str(problems / "paper.md"), "--offline", "-f", "json"])
    lines = capsys.readouterr().err.strip().splitlines()
    # The offline line, then (check is strict) what fails the run, last.
    assert lines[-1].endswith("citation problem(s) fail this run")
    offline = lines[-2]
    assert offline.startswith("[WARNING] citecheck: offline: ")
    assert "references were not checked against the registries" in offline
    assert offline.endswith("run again without --offline to check them")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("main.tex", "check it with citecheck latex"),
        ("paper.docx", "a built document: verify its PDF"),
        ("notes.odd", "not a bibliography citecheck reads"),
        (".", "screen it with citecheck screen"),
    ],
)
def test_verify_refuses_what_it_does_not_read_with_the_command_to_use(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, message: str
) -> None:
    for made in ("main.tex", "paper.docx", "notes.odd"):
        (tmp_path / made).write_text("x", encoding="utf-8")
    assert main(["verify", str(tmp_path / name), "--offline"]) == 2
    assert message in capsys.readouterr().err


def test_verify_reads_nothing_from_a_document_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A pandoc document holds citations, not a printed reference list: an empty table with
    # exit 0 would read as an all-clear.
    paper = tmp_path / "paper.md"
    paper.write_text("---\nbibliography: refs.bib\n---\n\nText [@a].\n", encoding="utf-8")
    empty = tmp_path / "refs.txt"
    empty.write_text("\n", encoding="utf-8")
    assert main(["verify", str(paper), "--offline"]) == 2
    said = capsys.readouterr().err
    assert "no reference read from it" in said and f"citecheck check {paper}" in said
    listing = tmp_path / "list.txt"
    listing.write_text(
        "Vaswani, A. et al. (2017). Attention is all you need. In NeurIPS.\n", encoding="utf-8"
    )
    main(["verify", str(listing), str(empty), "--offline", "-f", "json"])
    lines = capsys.readouterr().err.splitlines()
    assert f"citecheck: {empty}: no reference read from it" in lines
