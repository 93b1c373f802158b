"""Where the front matter sets each citecheck option: the line a bad value is said at."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from citecore.cli import main
from citecore.pandoc.front_matter import option_lines


def test_block_inline_and_flat_options_have_their_lines() -> None:
    text = (
        "---\n"
        "title: A paper\n"
        "citecheck:\n"
        "  strict: maybe   # a comment\n"
        "  judge:\n"
        "    nested: 1\n"
        "  fail-on: [undefind]\n"
        "other: 2\n"
        "citecheck.timeout: inf\n"
        "citecheck-limit: -1\n"
        "---\n"
        "\n"
        "citecheck:\n  cutoff: 1\n"
    )
    assert option_lines(text) == {
        "strict": 4,
        "judge": 5,
        "fail-on": 7,
        "timeout": 9,
        "limit": 10,
    }
    assert option_lines("---\ncitecheck: {strict: maybe, cutoff: 2024-13}\n---\n") == {
        "strict": 2,
        "cutoff": 2,
    }
    assert option_lines("no front matter\ncitecheck:\n  strict: x\n") == {}


@given(st.text(alphabet="-:{}# \n\tcitehkabsr.,[]", max_size=80))
def test_any_text_gives_lines_inside_the_front_matter(body: str) -> None:
    text = f"---\n{body}\n---\n"
    lines = option_lines(text)
    assert all(2 <= line <= text.count("\n") for line in lines.values())


def test_a_bad_option_in_the_front_matter_is_said_at_its_line(
    tmp_path: Path,
) -> None:
    (tmp_path / "refs.bib").write_text(
        "@article{a, title={A Title}, author={Doe, Jane}, year={2020}, journal={J}}\n",
        encoding="utf-8",
    )
    paper = tmp_path / "t.md"
    paper.write_text(
        "---\nbibliography: refs.bib\ncitecheck:\n  cutoff: 2024-13\n---\n\nText [@a].\n",
        encoding="utf-8",
    )
    report = tmp_path / "r.json"
    main(["check", str(paper), "--offline", "--no-verify", "-o", str(report)])
    found = [f for f in json.loads(report.read_text())["findings"] if f["kind"] == "bad_option"]
    assert len(found) == 1
    assert (found[0]["file"], found[0]["line"]) == (str(paper), 4)
    assert found[0]["message"].startswith("citecheck metadata: option cutoff:")
