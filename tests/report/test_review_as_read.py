"""REVIEW-CITES.md read as the writer reads it, from a real offline run of `citecheck check` on
a document with problems planted: one row per reference to fix, errors first, the entry's place
and every line citing it, the claim a citation problem is about, the counts, the information
folded below, and the same problems said once each on the console."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citecore.cli import main

BIB = """@article{good2019,
  author = {Smith, Jane},
  title = {A Work With a | Pipe},
  journal = {Journal of Tests},
  year = {2019}
}
@article{good2019,
  author = {Smith, Jane},
  title = {The Same Key Twice},
  journal = {Journal of Tests},
  year = {2019}
}
@article{future2999,
  author = {Roe, Rick},
  title = {From the Future},
  journal = {Journal of Tests},
  year = {2999}
}
@article{baddoi2020,
  author = {Doe, John},
  title = {A Bad Identifier},
  journal = {Journal of Tests},
  year = {2020},
  doi = {10.1000-xyz}
}
@book{unused2001,
  author = {Nobody, Ned},
  title = {Never Cited},
  publisher = {Press},
  year = {2001}
}
"""
PAPER = """---
bibliography: refs.bib
---

# Intro

Things were studied at length [@good2019].
The future is known [@future2999; @ghost].

Identifiers matter [@baddoi2020]. Again the future [@future2999].
"""


@pytest.fixture
def review(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str, int]:
    """The report, the console's lines and the exit status of one offline check."""
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "paper.md").write_text(PAPER)
    (tmp_path / "citecheck.toml").write_text("offline = true\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        status = main(["check", "paper.md", "-f", "markdown", "-o", "REVIEW-CITES.md"])
    return (tmp_path / "REVIEW-CITES.md").read_text(), capsys.readouterr().err, status


def _rows(report: str, heading: str) -> list[list[str]]:
    """The cells of the table under `heading`, a `\\|` in a cell kept as one cell."""
    section = report.split(heading, 1)[1]
    rows = []
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
            rows.append([cell.strip() for cell in cells])
        elif rows and not line.startswith("|"):
            break
    return rows[1:]  # the header row aside


def test_the_report_names_what_was_checked(review: tuple[str, str, int]) -> None:
    report, _, _ = review
    assert report.startswith(
        "# Citation review\n\nDocuments: `paper.md`  \nBibliographies: `refs.bib`\n"
    )


def test_one_row_per_reference_to_fix_errors_first(review: tuple[str, str, int]) -> None:
    report, _, status = review
    assert status == 1  # the command line's check fails on errors
    assert "4 to fix (2 error, 2 warning), one row each:" in report
    rows = _rows(report, "## What to fix")
    assert [(row[0], row[1].split()[0]) for row in rows] == [
        ("❌ error", "`ghost`"),
        ("❌ error", "`good2019`"),
        ("⚠️ warning", "`future2999`"),
        ("⚠️ warning", "`baddoi2020`"),
    ]


def test_a_row_gives_the_entrys_place_and_every_line_citing_it(
    review: tuple[str, str, int],
) -> None:
    report, _, _ = review
    rows = {row[1].split()[0].strip("`"): row for row in _rows(report, "## What to fix")}
    assert rows["future2999"][1] == "`future2999` (refs.bib:13)"
    assert rows["future2999"][2] == "paper.md:8, paper.md:10"
    assert rows["good2019"][1] == "`good2019` (refs.bib:7)"  # the second definition's place
    assert rows["ghost"][1] == "`ghost`"  # no entry, no place
    assert rows["future2999"][3] == "`future_year` date 2999 is in the future"


def test_a_citation_problem_quotes_the_claim_it_is_about(review: tuple[str, str, int]) -> None:
    report, _, _ = review
    ghost = next(r for r in _rows(report, "## What to fix") if r[1] == "`ghost`")
    assert ghost[3] == (
        "`undefined` cited key is not in any bibliography "
        "(at paper.md:8: “The future is known [@future2999; @ghost].”)"
    )


def test_the_counts_say_what_was_cited_and_what_was_verified(
    review: tuple[str, str, int],
) -> None:
    report, _, _ = review
    counts = report.split("## Counts", 1)[1]
    assert "- **5** citations of **4** keys; **4** bibliography entries" in counts
    # Offline with nothing cached: unverifiable, never not_found; the uncited entry unchecked.
    assert "- reference verdicts: 1 unchecked, 3 unverifiable" in counts
    assert "not_found" not in report


def test_information_is_folded_below_with_its_tally(review: tuple[str, str, int]) -> None:
    report, _, _ = review
    assert "<details>\n<summary>Information: 1 unused, 3 unverifiable</summary>" in report
    rows = _rows(report, "<summary>")
    assert ["`unused`", "refs.bib:26", "unused2001", "", "entry is never cited"] in rows
    assert report.rstrip().endswith("</details>")


def test_a_pipe_in_a_title_never_breaks_the_table(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB.replace("{Smith, Jane}", "{Smith | Co, Jane}", 1))
    (tmp_path / "paper.md").write_text(PAPER.replace("[@good2019]", "[@good2019] | [@ghost]"))
    (tmp_path / "citecheck.toml").write_text("offline = true\n")
    main(
        ["check", str(tmp_path / "paper.md"), "-f", "markdown", "-o", str(tmp_path / "R.md"), "-q"]
    )
    report = (tmp_path / "R.md").read_text()
    for row in _rows(report, "## What to fix"):
        assert len(row) == 4, row


def test_the_console_says_each_problem_once_with_its_place(review: tuple[str, str, int]) -> None:
    _, console, _ = review
    lines = console.splitlines()
    assert (
        "[ERROR] citecheck: paper.md:8: [undefined] ghost: cited key is not in any bibliography"
        in lines
    )
    assert sum("[future_year]" in line for line in lines) == 1  # cited twice, said once
    assert lines[-2].startswith("[WARNING] citecheck: offline: 3 of 3 references were not checked")
    assert lines[-1] == "[ERROR] citecheck: 2 citation problem(s) fail this run"


def test_only_issues_leaves_the_information_out(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "paper.md").write_text(PAPER)
    (tmp_path / "citecheck.toml").write_text("offline = true\nonly-issues = true\n")
    main(
        ["check", str(tmp_path / "paper.md"), "-f", "markdown", "-o", str(tmp_path / "R.md"), "-q"]
    )
    report = (tmp_path / "R.md").read_text()
    assert "<details>" not in report
    assert "## What to fix" in report


def test_a_clean_document_says_so(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(
        BIB.split("@article{good2019,", 2)[0] + BIB.split("\n}\n")[0] + "\n}\n"
    )
    (tmp_path / "paper.md").write_text("---\nbibliography: refs.bib\n---\n\nA claim [@good2019].\n")
    (tmp_path / "citecheck.toml").write_text("offline = true\n")
    status = main(
        ["check", str(tmp_path / "paper.md"), "-f", "markdown", "-o", str(tmp_path / "R.md"), "-q"]
    )
    report = (tmp_path / "R.md").read_text()
    assert "No problems found." in report
    assert "## What to fix" not in report
    assert status == 0
