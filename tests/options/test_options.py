"""Options: layers, precedence and validation."""

from __future__ import annotations

import contextlib
import io
import json
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecore.cli import main
from citecore.cli.app import build_parser
from citecore.errors import OptionsError
from citecore.model import FindingKind
from citecore.options import (
    DECLARED,
    Declared,
    Options,
    ReportFormat,
    build_options,
    environment_layer,
    project_layer,
    resolve_options,
    values,
)
from citecore.policy import failing_kinds
from citecore.pool.policy import cutoff_date
from tests.conftest import run_pandoc


def test_later_layers_win() -> None:
    options = build_options(
        {"strict": True, "format": "json"},  # environment
        {"strict": "false", "report": "R.md"},  # metadata
        {"fail-on": "undefined,duplicate_key"},  # command line
    )
    assert options.strict is False
    assert options.report == Path("R.md")
    assert options.report_format is ReportFormat.JSON
    assert options.fail_on == frozenset({FindingKind.UNDEFINED, FindingKind.DUPLICATE_KEY})


def test_environment_layer_reads_only_option_names() -> None:
    layer = environment_layer(
        {"CITECHECK_STRICT": "1", "CITECHECK_FAIL_ON": "unparsed", "CITECHECK_PANDOC": "/x"}
    )
    assert layer == {"strict": "1", "fail_on": "unparsed"}


def test_project_file(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text('[citecheck]\nstrict = true\nfail-on = ["unparsed"]\n')
    options = build_options(project_layer(tmp_path))
    assert options.strict
    assert options.fail_on == frozenset({FindingKind.UNPARSED})
    assert project_layer(tmp_path / "elsewhere") == {}


@pytest.mark.parametrize(
    ("layer", "message"),
    [
        ({"strict": "maybe"}, "expected true or false"),
        ({"fail-on": ["undefined", "typo"]}, "unknown finding kind 'typo'"),
        ({"format": "pdf"}, "unknown report format"),
        ({"colour": "red"}, "unknown citecheck option 'colour'"),
        ({"timeout": "soon"}, "expected seconds"),
        ({"timeout": 0}, "expected a positive, finite number"),
    ],
)
def test_bad_values_are_one_clear_error(layer: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        build_options(layer)


def test_strict_fails_on_error_kinds_and_fail_on_overrides() -> None:
    assert failing_kinds(build_options({})) == frozenset()
    strict = failing_kinds(build_options({"strict": True}))
    assert FindingKind.UNDEFINED in strict and FindingKind.UNUSED not in strict
    assert failing_kinds(build_options({"strict": True, "fail_on": "unused"})) == {
        FindingKind.UNUSED,
        FindingKind.BAD_OPTION,  # a strict build fails on an option it had to ignore
    }
    assert failing_kinds(build_options({"fail_on": "unused"})) == {FindingKind.UNUSED}


def test_one_precedence_for_every_layer(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text('timeout = 1\nemail = "toml@x.org"\nquiet = true\n')
    options = resolve_options(
        {"timeout": 4},
        folder=tmp_path,
        metadata={"timeout": 2, "email": "meta@x.org"},
        base={"timeout": 0.5, "strict": True},
        environ={"CITECHECK_TIMEOUT": "3", "CITECHECK_EMAIL": "env@x.org"},
    )
    assert (options.timeout, options.email, options.quiet, options.strict) == (
        4,
        "env@x.org",
        True,
        True,
    )


def test_an_option_that_needs_grounding_turns_it_on() -> None:
    assert build_options({"judge": "local"}).ground is True
    assert build_options({"sources": "pdfs"}).ground is True
    assert build_options({"judge": "local", "ground": False}).ground is False
    assert build_options({}).ground is False


BIB = (
    "@article{old2020, title = {An Old Work}, author = {Doe, Jane}, year = 2020}\n"
    "@article{new2025, title = {A New Work}, author = {Roe, Rick}, year = 2025}\n"
)


def _project(folder: Path, toml_cutoff: str, metadata_cutoff: str | None) -> None:
    folder.mkdir(exist_ok=True)
    (folder / "refs.bib").write_text(BIB)
    (folder / "citecheck.toml").write_text(f'cutoff = "{toml_cutoff}"\noffline = true\n')
    meta = f"citecheck:\n  cutoff: {metadata_cutoff}\n" if metadata_cutoff else ""
    (folder / "doc.md").write_text(
        f"---\nbibliography: refs.bib\n{meta}---\n\nOld [@old2020] and new [@new2025].\n"
    )
    (folder / "main.tex").write_text(
        "\\documentclass{article}\\begin{document}Old \\cite{old2020} and new "
        "\\cite{new2025}.\\bibliographystyle{plain}\\bibliography{refs}\\end{document}\n"
    )


def _cutoff_flagged(
    shell: str,
    folder: Path,
    env: dict[str, str],
    cli: list[str],
    capsys: pytest.CaptureFixture[str],
) -> bool:
    """Whether `new2025` is reported after the cut-off, through one shell."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        patch.chdir(folder)
        if shell in ("check", "latex"):
            document = "doc.md" if shell == "check" else "main.tex"
            main([shell, document, "-f", "json", "-o", "out.json", "-q", *cli])
            report = json.loads((folder / "out.json").read_text())
            return any(f["kind"] == "cutoff" for f in report["findings"])
        if shell == "latexmk-hook":
            main(["latexmk-hook", "main.tex"])
            return "[cutoff] new2025" in capsys.readouterr().err
        completed = run_pandoc("doc.md", "--filter", "citecheck", "-t", "plain", cwd=folder)
        return "[cutoff] new2025" in completed.stderr


@pytest.mark.parametrize("shell", ["check", "filter", "latex", "latexmk-hook"])
def test_the_same_option_through_every_shell(
    shell: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    markdown = shell in ("check", "filter")
    folder = tmp_path / "p"
    # citecheck.toml says no cut-off problem; the document's metadata (Markdown) says there is.
    _project(folder, "2030-01-01", "2024-01-01")
    assert _cutoff_flagged(shell, folder, {}, [], capsys) is markdown
    # The environment beats the project file and the metadata.
    env = {"CITECHECK_CUTOFF": "2024-01-01"}
    assert _cutoff_flagged(shell, folder, env, [], capsys) is True
    env = {"CITECHECK_CUTOFF": "2030-01-01"}
    assert _cutoff_flagged(shell, folder, env, [], capsys) is False
    # The command line beats the environment.
    if shell in ("check", "latex"):
        assert _cutoff_flagged(shell, folder, env, ["--cutoff", "2024-01-01"], capsys) is True


def test_paths_in_citecheck_toml_are_relative_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text(
        'sources = "pdfs"\ncache = "/var/cache/cc.sqlite3"\npool = "pool.json"\nstrict = true\n'
    )
    options = resolve_options({}, folder=tmp_path, environ={})
    assert options.sources == tmp_path / "pdfs"
    assert options.pool == tmp_path / "pool.json"
    assert options.cache == Path("/var/cache/cc.sqlite3")  # absolute stays as written


def test_every_field_of_options_is_filled_by_one_declared_option() -> None:
    targets = [declared.target for declared in DECLARED]
    assert len(targets) == len(set(targets))
    assert set(targets) == {f.name for f in fields(Options)} - {"today", "problems"}


# Values some reader must refuse: words, signs, numbers no option means, and dates the calendar
# does not have (a reader that let "2024-13" through crashed the run that used it).
_HOSTILE = ("maybe", "abc", "-1", "nan", "inf", "2024-13", "2024-02-30", "1999-00")


def _refused(declared: Declared) -> list[str]:
    """The values the option's reader refuses, of those we try."""
    refused = []
    for value in _HOSTILE:
        try:
            declared.read(declared.name, value)
        except OptionsError:
            refused.append(value)
    return refused


def _command_with(flag: str, document: Path) -> list[str]:
    """A command line, offline, of a command that takes `flag`."""
    for command in (["check"], ["verify"], ["sources", "fetch"]):
        parser = build_parser()
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                parser.parse_args([*command, str(document), flag, "x"])
        except SystemExit:
            continue
        return [*command, str(document), "--offline"]
    raise AssertionError(f"no command takes {flag}")


@pytest.fixture
def checkable(tmp_path: Path) -> Path:
    """A document that checks clean offline without verification."""
    (tmp_path / "refs.bib").write_text(
        "@article{a, title={A Title}, author={Doe, Jane}, year={2020}, journal={J}}\n",
        encoding="utf-8",
    )
    document = tmp_path / "t.md"
    document.write_text("---\nbibliography: refs.bib\n---\n\nText [@a].\n", encoding="utf-8")
    return document


@pytest.mark.parametrize("declared", DECLARED, ids=lambda declared: declared.name)
def test_a_bad_value_of_any_option_is_exit_2_wherever_it_is_given(
    declared: Declared,
    checkable: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    refused = _refused(declared)
    if not refused:  # free text: a name, an address, a path
        assert declared.read in (values.text, values.path, values.paths, values.names)
        return
    command = ["check", str(checkable), "--offline", "--no-verify", "-f", "json"]
    assert main(command) == 0
    capsys.readouterr()
    environment = f"CITECHECK_{declared.name.upper()}"
    for bad in refused:
        monkeypatch.setenv(environment, bad)
        assert main(command) == 2, (environment, bad)
        said = capsys.readouterr()
        assert f"option {declared.name.replace('_', '-')}" in said.out + said.err
    monkeypatch.delenv(environment)
    bad = refused[0]
    flag = declared.flag
    if flag is not None and flag.switch is None:
        typed = _command_with(flag.spelling, checkable)
        assert main([*typed, flag.spelling, bad]) == 2, flag.spelling
        lines = capsys.readouterr().err.strip().splitlines()
        assert len(lines) == 1, lines
        assert lines[0].startswith(f"citecheck: error: option {declared.name.replace('_', '-')}")


@given(st.from_regex(r"\A\s?\d{4}(-\d{1,2}(-\d{1,2})?)?\s?\Z"))
def test_a_date_the_option_accepts_is_one_the_cutoff_rules_can_read(written: str) -> None:
    try:
        accepted = values.date("cutoff", written)
    except OptionsError:
        return
    cutoff_date(accepted)


@given(st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8))
def test_seconds_are_positive_and_finite_or_refused(written: float | str) -> None:
    try:
        read = values.seconds("timeout", written)
    except OptionsError:
        return
    assert 0 < read < float("inf")


@given(
    st.sampled_from(DECLARED),
    st.text(max_size=24)
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.none()
    | st.lists(st.text(max_size=6), max_size=3),
)
def test_a_reader_accepts_a_value_or_says_why_not(declared: Declared, written: object) -> None:
    # What a citecheck.toml, metadata or the environment may hold: never a traceback.
    with contextlib.suppress(OptionsError):
        declared.read(declared.name, written)
