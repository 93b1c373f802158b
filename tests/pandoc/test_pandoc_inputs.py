"""Which files the parent pandoc reads, from its command line: the option table held to the
installed pandoc's own `--help`, and the reading of generated command lines (hypothesis) held
to the files they were built with."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecore.pandoc import inputs
from citecore.pandoc.inputs import _TAKES_VALUE, pandoc_input_files, positional_arguments
from citecore.pandoc.reader import pandoc_path


def _options_with_a_required_value() -> set[str]:
    """`-o FILE`, `--output=FILE`: options `pandoc --help` shows with a value that is not
    optional (`--toc[=true|false]` is a flag)."""
    text = subprocess.run(
        [pandoc_path(), "--help"], capture_output=True, text=True, check=True
    ).stdout
    return {m.group(1) for m in re.finditer(r"(?<![\w-])(--?[\w-]+)[= ](?![\[ ])\S", text)}


def test_every_option_pandoc_gives_a_value_is_known() -> None:
    required = _options_with_a_required_value()
    assert {"-o", "--output", "--bibliography", "-M"} <= required  # the help was read
    assert required - _TAKES_VALUE == set()


VALUED = sorted(_TAKES_VALUE)
FLAGS = ["-s", "--standalone", "--citeproc", "-C", "--toc", "-N", "--verbose", "--mathjax"]
FILE = st.from_regex(r"[a-z][a-z0-9_ ]{0,8}\.(md|qmd|Rmd|txt)", fullmatch=True)


@st.composite
def command_lines(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """(pandoc's arguments, the input files among them)."""
    files = draw(st.lists(FILE, max_size=4))
    options: list[list[str]] = []
    for _ in range(draw(st.integers(0, 6))):
        option = draw(st.sampled_from(VALUED + FLAGS))
        if option in FLAGS:
            options.append([option])
        elif option.startswith("--") and draw(st.booleans()):
            options.append([f"{option}={draw(FILE)}"])
        else:  # the value may look like a file: it is still the option's
            options.append([option, draw(FILE)])
    tagged = [*((False, o) for o in options), *((True, [f]) for f in files)]
    order = draw(st.permutations(tagged))
    args = [arg for _, group in order for arg in group]
    in_order = [group[0] for is_file, group in order if is_file]
    # Files after `--` may even start with a dash.
    late = draw(st.lists(st.from_regex(r"-?[a-z]{1,6}\.md", fullmatch=True), max_size=2))
    return ([*args, "--", *late] if late else args), [*in_order, *late]


@given(command_lines())
def test_the_files_of_any_command_line_are_found(line: tuple[list[str], list[str]]) -> None:
    args, files = line
    assert positional_arguments(args) == files


def test_stdin_is_a_positional_argument() -> None:
    assert positional_arguments(["-f", "markdown", "-", "-o", "out.html"]) == ["-"]


def test_the_source_variable_wins_over_the_command_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("CITECHECK_SOURCE", f"a.md:{tmp_path / 'b.qmd'}:")
    assert pandoc_input_files() == ["a.md", str(tmp_path / "b.qmd")]


def test_only_existing_markdown_files_of_a_pandoc_parent_are_inputs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("CITECHECK_SOURCE", raising=False)
    (tmp_path / "paper.md").write_text("x")
    (tmp_path / "refs.bib").write_text("x")
    args = [str(tmp_path / n) for n in ("paper.md", "refs.bib", "gone.md")]
    monkeypatch.setattr(inputs, "_parent_arguments", lambda: ["--citeproc", *args])
    assert pandoc_input_files() == [str(tmp_path / "paper.md")]


def test_a_parent_that_is_not_pandoc_names_no_inputs() -> None:
    # pytest's parent is a shell or CI runner, never pandoc: no arguments are borrowed from it.
    assert inputs._parent_arguments() == []
