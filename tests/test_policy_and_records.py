"""What fails a build and with which exit status; the cache's promises; the small shared
helpers of the reports, the LaTeX verdict file and the command line."""

from __future__ import annotations

import argparse
import sqlite3
from pathlib import Path

import pytest

from citecore.annotate.latex_verdicts import render_verdicts
from citecore.cache import Cache, content_key
from citecore.cli.flags import cli_layer, report_format
from citecore.errors import ExitCode, InputError
from citecore.files import write_atomically
from citecore.model import (
    Bibliography,
    CheckResult,
    Finding,
    FindingKind,
    Outage,
    Severity,
    SourceLocation,
)
from citecore.options import build_options
from citecore.policy import exit_status, failing_findings, failing_kinds
from citecore.report.labels import one_line, where

UNDEFINED = Finding(
    FindingKind.UNDEFINED, Severity.ERROR, "cited key is not in any bibliography", "ghost",
    SourceLocation("main.tex", 42),
)  # fmt: skip
UNUSED = Finding(
    FindingKind.UNUSED, Severity.INFO, "never cited", "spare", SourceLocation("r.bib", 3)
)
OUTAGE = Finding(FindingKind.OUTAGE, Severity.WARNING, "registries unreachable")


def _result(*findings: Finding, outage: Outage | None = None) -> CheckResult:
    return CheckResult(("main.tex",), Bibliography(), (), {}, findings, outage=outage)


@pytest.mark.parametrize(
    ("layer", "findings", "outage", "status"),
    [
        ({}, (UNDEFINED,), None, ExitCode.OK),  # lenient: problems are reported, not fatal
        ({"strict": True}, (UNDEFINED,), None, ExitCode.FINDINGS),
        ({"strict": True}, (UNUSED,), None, ExitCode.OK),  # information never fails
        ({"strict": True}, (OUTAGE,), Outage(("a",)), ExitCode.OK),  # outages only when asked
        ({"fail_on": "outage"}, (OUTAGE,), Outage(("a",), unreachable=("crossref",)),
         ExitCode.UNREACHABLE),
        ({"fail_on": "outage"}, (OUTAGE,), Outage(("a",), rate_limited=("arxiv",)),
         ExitCode.RATE_LIMITED),
        ({"fail_on": "errors,outage"}, (UNDEFINED, OUTAGE), Outage(("a",)),
         ExitCode.UNREACHABLE),  # the outage decides: rerunning may clear everything
        ({"fail_on": "unused"}, (UNDEFINED, UNUSED), None, ExitCode.FINDINGS),
        ({"strict": True, "fail_on": "unused"}, (UNDEFINED,), None, ExitCode.OK),
    ],
)  # fmt: skip
def test_exit_status(
    layer: dict[str, object], findings: tuple[Finding, ...], outage: Outage | None,
    status: ExitCode,
) -> None:  # fmt: skip
    assert exit_status(_result(*findings, outage=outage), build_options(layer)) is status


def test_failing_kinds() -> None:
    assert failing_kinds(build_options({})) == frozenset()
    strict = failing_kinds(build_options({"strict": True}))
    assert FindingKind.UNDEFINED in strict and FindingKind.UNUSED not in strict
    assert FindingKind.OUTAGE not in strict
    named = build_options({"fail_on": ["mismatch", "not_found"]})
    assert failing_findings([UNDEFINED, UNUSED], named) == []


def test_cache_keeps_expires_and_separates(tmp_path: Path) -> None:
    with Cache(tmp_path / "c.sqlite3") as cache:
        cache.put("answers", "k", "one")
        cache.put("verdicts", "k", "two")
        cache.put("answers", "old", "gone", ttl=-1.0)
        cache.put("answers", "k", "three")  # replaced
        assert cache.get("answers", "k") == "three"
        assert cache.get("verdicts", "k") == "two"
        assert cache.get("answers", "old") is None
        assert cache.get("answers", "never") is None
    with Cache(tmp_path / "c.sqlite3") as reopened:  # persistent, WAL
        assert reopened.get("verdicts", "k") == "two"
        mode = sqlite3.connect(tmp_path / "c.sqlite3").execute("PRAGMA journal_mode").fetchone()
        assert mode == ("wal",)
    closed = Cache(tmp_path / "c.sqlite3")
    closed.close()
    assert closed.get("verdicts", "k") is None  # a closed cache is an empty one
    closed.put("verdicts", "k", "ignored")


def test_an_unusable_cache_is_an_empty_one_said_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    for _ in range(3):
        with Cache(blocked / "c.sqlite3") as cache:
            cache.put("a", "k", "v")
            assert cache.get("a", "k") is None
    said = [r.getMessage() for r in caplog.records if "cache unavailable" in r.getMessage()]
    assert len(said) == 1 and "continuing without caching" in said[0]


def test_content_keys_are_stable_and_unambiguous() -> None:
    assert content_key("a", "b") == content_key("a", "b")
    assert content_key("a", "b") != content_key("ab", "")  # parts are not just joined
    assert content_key("a") != content_key("a", "")
    assert len(content_key("x")) == len(content_key("y" * 1000))
    assert content_key("z" * 1_000_000) != content_key("z" * 999_999)


def test_atomic_writes_replace_whole_files(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "REVIEW-CITES.md"
    write_atomically(target, "first\n")
    write_atomically(target, "second\n")
    assert target.read_text() == "second\n"
    assert [p.name for p in target.parent.iterdir()] == ["REVIEW-CITES.md"]  # no temporaries
    assert target.stat().st_mode & 0o044  # readable by others, as reports are meant to be


def test_labels() -> None:
    assert where(UNDEFINED) == "main.tex:42" and where(OUTAGE) == ""
    assert one_line("  two\nlines\tand   space ") == "two lines and space"
    assert one_line("x" * 10, 5) == "xxxx…"
    assert one_line("short", 5) == "short"


def test_latex_verdict_file_and_log_lines() -> None:
    tricky = Finding(
        FindingKind.MISMATCH, Severity.ERROR, "title 'A & B_1' vs '50% off'", "ghost",
        SourceLocation("refs.bib", 7),
    )  # fmt: skip
    text = render_verdicts(_result(UNDEFINED, tricky, UNUSED))
    assert text.startswith("% Written by citecheck")
    assert text.count("\\citecheckVerdict{ghost}{error}") == 1  # one note per key, both reasons
    assert "A \\& B\\_1" in text and "50\\% off" in text  # LaTeX specials escaped
    assert "\\citecheckWarning{42}{main.tex:42: [undefined] ghost:" in text
    assert "spare" not in text  # information is not a margin note


def _args(**values: object) -> argparse.Namespace:
    defaults: dict[str, object] = {"format": None, "output": None, "only": None, "bib": []}
    return argparse.Namespace(**(defaults | values))


def test_command_line_layer_gives_only_what_was_given() -> None:
    assert cli_layer(_args()) == {}
    layer = cli_layer(_args(bib=["a.bib"], only="issues", offline=True, format="json"))
    assert layer == {
        "bibliography": ["a.bib"],
        "only_issues": True,
        "offline": True,
        "format": "json",
    }
    assert "format" not in cli_layer(_args(format="bibtex"))  # a verify output, not a report


_WRITABLE = ("table", "markdown", "json", "sarif")


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ({}, "table"),
        ({"output": Path("r.json")}, "json"),
        ({"output": Path("REVIEW.MD")}, "markdown"),
        ({"output": Path("notes.markdown")}, "markdown"),
        ({"output": Path("r.txt")}, "table"),
        ({"output": Path("citecheck.sarif")}, "sarif"),
        ({"output": Path("citecheck.sarif.json")}, "sarif"),
        ({"output": Path("r.json"), "format": "json"}, "json"),
        ({"output": Path("report.out"), "format": "json"}, "json"),  # no format named: -f's
        ({"format": "markdown"}, "markdown"),
    ],
)
def test_report_format_from_the_file_name_then_the_flag(
    values: dict[str, object], expected: str
) -> None:
    assert report_format(_args(**values), _WRITABLE, "table") == expected


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"output": Path("checked.bib")}, "does not write bibtex .*citecheck verify refs.bib"),
        ({"output": Path("report.html")}, "writes no HTML report: call it .*.md, .json"),
        ({"output": Path("report.xyz")}, "cannot tell a report format .* .md, .json"),
        ({"output": Path("report")}, "cannot tell a report format"),
        ({"output": Path("r.json"), "format": "markdown"}, "the name says json"),
    ],
)
def test_a_file_named_for_another_format_is_refused(
    values: dict[str, object], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        report_format(_args(**values), _WRITABLE, "table")
