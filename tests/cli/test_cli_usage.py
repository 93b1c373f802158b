"""The command line as a newcomer meets it: every command answers `--help` and names its
options; a call that cannot run is one line `citecheck: error: …` and exit status 2, before any
work starts; latexmk's hook prints each problem once per latexmk run."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.cli import main
from citecore.cli.app import build_parser

COMMANDS = sorted(
    name
    for action in build_parser()._subparsers._group_actions  # type: ignore[union-attr]
    for name in getattr(action, "choices", {}) or {}
)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_answers_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [command, "--help"] if command != "snapshot" else [command, "build", "--help"]
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 0
    shown = capsys.readouterr().out
    assert shown.startswith("usage: ")
    assert "-h, --help" in shown


def test_the_commands_are_the_ones_the_readme_teaches() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for command in ("render", "check", "latex", "verify", "screen", "sources", "snapshot"):
        assert command in COMMANDS
        assert f"citecheck {command}" in readme


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["snapshot", "build", "{tmp}/absent.jsonl", "-o", "{tmp}/s.sqlite3"],
         "absent.jsonl: no such file"),
        (["snapshot", "build", "{tmp}/d.jsonl", "-o", "{tmp}/s", "--workers", "2"],
         "--workers and --scheduler build shards: give --shards N too"),
        (["snapshot", "build", "{tmp}/d.jsonl", "-o", "{tmp}/s", "--shards", "0"],
         "--shards must be at least 1"),
        (["snapshot", "build", "{tmp}/d.jsonl", "-o", "{tmp}/file.sqlite3", "--shards", "2"],
         "a snapshot file; a sharded snapshot is a folder"),
        (["screen", "-o", "{tmp}/out"],
         "nothing to screen: give folders of submissions or --manifest"),
        (["screen", "-o", "{tmp}/out", "--manifest", "{tmp}/absent.tsv"],
         "absent.tsv: no such file"),
        (["check", "{tmp}/absent.md"], "absent.md"),
        (["latex", "{tmp}/absent.tex"], "absent.tex: no such document"),
        (["verify", "{tmp}/absent.bib"], "absent.bib"),
    ],
)  # fmt: skip
def test_a_call_that_cannot_run_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    (tmp_path / "d.jsonl").write_text("")
    (tmp_path / "file.sqlite3").write_text("")
    status = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2
    assert len(err) == 1, err
    assert err[0].startswith("citecheck: error: ") and says in err[0]
    assert not (tmp_path / "out").exists()  # refused before any work


def test_an_unknown_command_names_the_commands_there_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["chek", "paper.md"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'chek'" in err and "'check'" in err


# --- latexmk's hook ---------------------------------------------------------------------------

BIB = "@article{known2020, title = {Known}, author = {Doe, J.}, journal = {J}, year = 2020}\n"
MAIN = (
    "\\documentclass{article}\n\\begin{document}\nKnown \\cite{known2020}, missing "
    "\\cite{ghost}.\n\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n"
)


def _hook_project(folder: Path) -> Path:
    (folder / "refs.bib").write_text(BIB)
    (folder / "citecheck.toml").write_text("offline = true\n")
    main_tex = folder / "main.tex"
    main_tex.write_text(MAIN)
    return main_tex


def _hook(main_tex: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    status = main(["latexmk-hook", str(main_tex), *extra])
    return status, capsys.readouterr().err


def test_the_hook_prints_each_problem_once_per_latexmk_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main_tex = _hook_project(tmp_path)
    status, first = _hook(main_tex, capsys, "--session", "4242")
    assert status == 0
    assert "ghost" in first
    _, again = _hook(main_tex, capsys, "--session", "4242")  # after biber's second run
    assert again == ""
    _, next_build = _hook(main_tex, capsys, "--session", "4343")  # the next latexmk run
    assert next_build == first
    main_tex.write_text(MAIN.replace("\\cite{ghost}", "\\cite{phantom}"))
    _, changed = _hook(main_tex, capsys, "--session", "4343")
    assert "phantom" in changed  # what changed is said at once


def test_the_hook_writes_the_verdict_file_only_when_it_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main_tex = _hook_project(tmp_path)
    _hook(main_tex, capsys)
    verdicts = tmp_path / "main.citecheck.tex"
    stamp = verdicts.stat().st_mtime_ns
    _hook(main_tex, capsys)
    # Unchanged: latexmk sees no new file and runs LaTeX no more.
    assert verdicts.stat().st_mtime_ns == stamp
    assert "ghost" in verdicts.read_text()


def test_the_hook_is_given_the_aux_as_latexmk_knows_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main_tex = _hook_project(tmp_path)
    status, said = _hook(main_tex.with_suffix(".aux"), capsys, "--strict")
    assert status == 1
    assert "ghost" in said
    assert "citecheck: 1 citation problem(s) fail this build" in said.splitlines()
