"""What a writer sees when an option is written wrong, wherever it is written, and how each
kind of value is read. A value typed on the command line is refused (the writer is there); one
written in `citecheck.toml`, the document's metadata or the environment is ignored, named where
it was written, and the option keeps what the layers below give it — a typo never turns checking
off."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.errors import OptionsError
from citecore.model import SEVERITY, FindingKind, Severity
from citecore.options import JudgeKind, ReportFormat, build_options, resolve_options, values

BIB = "@article{doe2020, title = {A Work}, author = {Doe, Jane}, year = 2020}\n"


# --- Ignored where written, named where written -------------------------------------------


def test_a_bad_value_in_the_project_file_is_ignored_and_named_by_the_file(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text('strict = "sometimes"\ntimeout = 7\n')
    options = resolve_options({}, folder=tmp_path, environ={})
    assert options.strict is False  # the default, not a guess
    assert options.timeout == 7  # the file's other options still hold
    (problem,) = options.problems
    assert problem.message.startswith(f"{tmp_path / 'citecheck.toml'}: option strict:")
    assert "expected true or false, got 'sometimes'" in problem.message
    assert problem.message.endswith("ignored, so the option keeps its default")


def test_a_project_file_toml_cannot_read_is_one_problem_and_checking_goes_on(
    tmp_path: Path,
) -> None:
    (tmp_path / "citecheck.toml").write_text("strict = \n[[[")
    options = resolve_options({"timeout": 3}, folder=tmp_path, environ={})
    assert options.timeout == 3
    (problem,) = options.problems
    assert "cannot read project options" in problem.message
    assert problem.message.endswith("its options were ignored")


def test_a_project_file_whose_citecheck_entry_is_not_a_table_is_named(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text('citecheck = "strict"\n')
    (problem,) = resolve_options({}, folder=tmp_path, environ={}).problems
    assert "`citecheck` must be a table of options" in problem.message


def test_the_project_file_may_keep_its_options_in_a_citecheck_table(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text(
        '[tool]\nname = "x"\n[citecheck]\nfail-on = ["undefined"]\nemail = "me@x.org"\n'
    )
    options = resolve_options({}, folder=tmp_path, environ={})
    assert options.problems == ()
    assert options.fail_on == frozenset({FindingKind.UNDEFINED})
    assert options.email == "me@x.org"


def test_a_bad_value_in_the_metadata_is_named_with_its_line(tmp_path: Path) -> None:
    options = resolve_options(
        {},
        folder=tmp_path,
        metadata={"timeout": "soon", "email": "me@x.org"},
        metadata_origin="paper.md",
        metadata_lines={"timeout": 6},
        environ={},
    )
    assert options.email == "me@x.org"
    (problem,) = options.problems
    assert problem.location is not None
    assert (problem.location.file, problem.location.line) == ("paper.md", 6)
    assert problem.message.startswith("citecheck metadata: option timeout: expected seconds")


def test_without_lines_the_metadata_problem_names_its_origin(tmp_path: Path) -> None:
    options = resolve_options(
        {}, folder=tmp_path, metadata={"format": "docx"}, metadata_origin="a.qmd", environ={}
    )
    (problem,) = options.problems
    assert problem.location is None
    assert problem.message.startswith("a.qmd: citecheck metadata: option format: unknown report")


def test_a_bad_value_in_the_environment_keeps_the_layer_below(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text('fail-on = ["undefined"]\n')
    options = resolve_options(
        {}, folder=tmp_path, environ={"CITECHECK_FAIL_ON": "undefind", "CITECHECK_QUIET": "1"}
    )
    assert options.fail_on == frozenset({FindingKind.UNDEFINED})  # the file's, not nothing
    assert options.quiet is True
    (problem,) = options.problems
    assert problem.message.startswith("CITECHECK_* environment: option fail-on:")
    assert "did you mean 'undefined'?" in problem.message


def test_a_bad_value_on_the_command_line_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OptionsError, match="option timeout: expected seconds, got 'soon'"):
        resolve_options({"timeout": "soon"}, folder=tmp_path, environ={})


def test_an_unknown_option_in_a_file_is_named_with_the_option_meant(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text("stict = true\n")
    (problem,) = resolve_options({}, folder=tmp_path, environ={}).problems
    assert "unknown citecheck option 'stict' (did you mean 'strict'?)" in problem.message


def test_a_strict_build_fails_on_the_option_it_had_to_ignore(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "paper.md").write_text(
        "---\nbibliography: refs.bib\ncitecheck:\n  timeout: never\n---\n\nA claim [@doe2020].\n"
    )
    (tmp_path / "citecheck.toml").write_text("offline = true\n")
    report = tmp_path / "out.json"
    status = main(
        ["check", str(tmp_path / "paper.md"), "--strict", "-f", "json", "-o", str(report), "-q"]
    )
    assert status == 2  # a bad option in strict mode: bad input
    findings = json.loads(report.read_text())["findings"]
    bad = [f for f in findings if f["kind"] == "bad_option"]
    assert len(bad) == 1 and "timeout" in bad[0]["message"]
    assert (bad[0]["file"], bad[0]["line"]) == (str(tmp_path / "paper.md"), 4)


def test_the_ignored_option_is_reported_and_checking_goes_on(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "paper.md").write_text(
        "---\nbibliography: refs.bib\ncitecheck:\n  fail-on: typo\n---\n\nA [@doe2020] [@ghost].\n"
    )
    (tmp_path / "citecheck.toml").write_text("offline = true\n")
    report = tmp_path / "out.json"
    status = main(["check", str(tmp_path / "paper.md"), "-f", "json", "-o", str(report), "-q"])
    assert status == 2  # the command line's check exits as for bad input, having checked
    kinds = [f["kind"] for f in json.loads(report.read_text())["findings"]]
    assert "bad_option" in kinds and "undefined" in kinds


# --- How each kind of value is read ---------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "read"),
    [
        (True, True),
        ("yes", True),
        ("On", True),
        (" 1 ", True),
        ("y", True),
        (False, False),
        ("no", False),
        ("OFF", False),
        ("0", False),
        ("", False),
    ],
)
def test_a_switch_is_any_usual_spelling_of_true_or_false(written: object, read: bool) -> None:
    assert values.boolean("strict", written) is read


@pytest.mark.parametrize("written", ["maybe", "2", "tru", 0.5])
def test_a_switch_refuses_anything_else(written: object) -> None:
    with pytest.raises(OptionsError, match="option strict: expected true or false"):
        values.boolean("strict", written)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("a.bib, b.bib,,", ("a.bib", "b.bib")),
        (["a.bib", " b.bib ", ""], ("a.bib", "b.bib")),
        (("x.json",), ("x.json",)),
        (3, ("3",)),
    ],
)
def test_a_list_is_a_list_or_one_comma_separated_text(written: object, read: tuple[str]) -> None:
    assert values.names("bibliography", written) == read


def test_errors_names_every_error_kind_and_adds_to_what_else_is_named() -> None:
    read = values.kinds("fail_on", ["errors", "Outage", "unused"])
    errors = {k for k, s in SEVERITY.items() if s is Severity.ERROR}
    assert read == frozenset(errors | {FindingKind.OUTAGE, FindingKind.UNUSED})
    assert values.kinds("fail_on", "duplicate-key") == {FindingKind.DUPLICATE_KEY}


def test_an_unknown_kind_names_the_likely_one_or_every_one() -> None:
    with pytest.raises(OptionsError, match="did you mean 'not_found'"):
        values.kinds("fail_on", "not_fund")
    with pytest.raises(OptionsError, match="known: errors, "):
        values.kinds("fail_on", "zzzzzz")


@pytest.mark.parametrize(
    ("written", "read"),
    [("JSON", ReportFormat.JSON), (" sarif ", ReportFormat.SARIF), ("", None), (None, None)],
)
def test_a_report_format_is_named_in_any_case(written: object, read: object) -> None:
    assert values.report_format("format", written) is read


@pytest.mark.parametrize(
    ("written", "read"), [("local", JudgeKind.LOCAL), (" Gemini", JudgeKind.GEMINI), ("", None)]
)
def test_a_judge_is_named_or_left_to_the_environment(written: str, read: object) -> None:
    assert values.judge("judge", written) is read


def test_an_unknown_judge_is_refused_with_the_judges_known() -> None:
    with pytest.raises(OptionsError, match="unknown judge 'gpt' "):
        values.judge("judge", "gpt")


@pytest.mark.parametrize(("written", "read"), [("0.5", 0.5), (1, 1.0), ("1.0", 1.0), (0.01, 0.01)])
def test_a_share_is_above_nothing_and_at_most_the_whole(written: object, read: float) -> None:
    assert values.share("coverage", written) == read


@pytest.mark.parametrize("written", [0, "1.5", "-0.2", "half", None])
def test_a_share_outside_that_is_refused(written: object) -> None:
    with pytest.raises(OptionsError, match="option coverage: expected a share"):
        values.share("coverage", written)


@pytest.mark.parametrize(("written", "read"), [("3", 3), (0, 0), (" 12 ", 12), ("", None)])
def test_a_count_is_a_whole_number_from_nothing_up(written: object, read: int | None) -> None:
    assert values.count("limit", written) == read


@pytest.mark.parametrize(("written", "says"), [("-1", "at least 0"), ("2.5", "whole number")])
def test_a_count_that_is_not_one_is_refused(written: str, says: str) -> None:
    with pytest.raises(OptionsError, match=says):
        values.count("limit", written)


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("https://api.example.org/", "https://api.example.org"),
        ("http://localhost:8070/v1/", "http://localhost:8070/v1"),
    ],
)
def test_an_address_is_http_without_its_trailing_slash(written: str, read: str) -> None:
    assert values.url("endpoint", written) == read


@pytest.mark.parametrize("written", ["ftp://x.org", "localhost:8070", "https:// x", ""])
def test_an_address_that_is_not_http_is_refused(written: str) -> None:
    with pytest.raises(OptionsError, match="expected an http\\(s\\) URL"):
        values.url("endpoint", written)


@pytest.mark.parametrize("written", ["2024", "2024-02", "2024-02-29", "1999-12-31", ""])
def test_a_date_is_a_year_a_month_or_a_day_of_the_calendar(written: str) -> None:
    assert values.date("cutoff", written) == written


@pytest.mark.parametrize("written", ["2023-02-29", "2024-13", "24-01-01", "2024/01/01", "soon"])
def test_a_date_the_calendar_lacks_is_refused(written: str) -> None:
    with pytest.raises(OptionsError, match="expected a date as YYYY, YYYY-MM or YYYY-MM-DD"):
        values.date("cutoff", written)


def test_an_empty_path_is_no_path() -> None:
    assert values.path("report", "") is None
    assert values.path("report", "out/R.md") == Path("out/R.md")


# --- Layers -----------------------------------------------------------------------------------


def test_an_unset_value_in_a_layer_leaves_the_layer_below() -> None:
    options = build_options({"email": "low@x.org"}, {"email": None})
    assert options.email == "low@x.org"


def test_every_spelling_of_a_name_is_the_same_option() -> None:
    options = build_options({"FAIL-ON": "unused"}, {"Only-Issues": True})
    assert options.fail_on == frozenset({FindingKind.UNUSED})
    assert options.only_issues is True


def test_today_is_the_runs_day_unless_given() -> None:
    assert build_options({}).today == dt.date.today()
    assert build_options({}, today=dt.date(2020, 1, 2)).today == dt.date(2020, 1, 2)


def test_a_sources_folder_beside_the_document_is_used_when_it_is_there(tmp_path: Path) -> None:
    assert resolve_options({}, folder=tmp_path, environ={}).sources is None
    (tmp_path / "sources").mkdir()
    assert resolve_options({}, folder=tmp_path, environ={}).sources == tmp_path / "sources"
    assert resolve_options({}, folder=tmp_path, environ={}).ground is False  # no reason to ground
    given = resolve_options({"sources": str(tmp_path / "pdfs")}, folder=tmp_path, environ={})
    assert given.sources == tmp_path / "pdfs"
