"""Entries listed uncited (pandoc's `nocite:`, LaTeX's `\\nocite`): verified like cited ones,
never grounded, and said to come from nocite in every report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.cli import main

BIB = (
    "@article{a, title={Alpha}, author={Smith, J}, year={2020}}\n"
    "@article{b, title={Beta}, author={Jones, A}, year={2021}}\n"
    "@article{c, title={Gamma}, author={Lee, K}, year={2019}}\n"
)


def _report(tmp_path: Path, name: str, text: str, *extra: str) -> dict[str, object]:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / name).write_text(text, encoding="utf-8")
    out = tmp_path / "report.json"
    command = "latex" if name.endswith(".tex") else "check"
    main([command, str(tmp_path / name), "--offline", "-o", str(out), *extra])
    report: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    return report


MARKDOWN = "---\nbibliography: refs.bib\nnocite: |\n  @b, @c\n---\n\nA claim [@a].\n"


@pytest.mark.parametrize(
    "text",
    [MARKDOWN, "---\nbibliography: refs.bib\nnocite: '@*'\n---\n\nA claim [@a].\n"],
    ids=["listed", "everything"],
)
def test_pandoc_nocite_keys_are_verified_never_cited(tmp_path: Path, text: str) -> None:
    report = _report(tmp_path, "paper.md", text)
    citations = report["citations"]
    assert isinstance(citations, list)
    assert [c["key"] for c in citations] == ["a"]  # no claim "@b"
    references = report["references"]
    assert isinstance(references, list)
    assert [(r["key"], r["nocite"]) for r in references] == [
        ("a", False),
        ("b", True),
        ("c", True),
    ]


def test_latex_nocite_keys_are_verified_never_cited(tmp_path: Path) -> None:
    text = (
        "\\documentclass{article}\\begin{document}\nA claim \\cite{a}.\\nocite{c}\n"
        "\\bibliographystyle{plain}\\bibliography{refs}\\end{document}\n"
    )
    report = _report(tmp_path, "main.tex", text)
    citations = report["citations"]
    references = report["references"]
    assert isinstance(citations, list) and isinstance(references, list)
    assert [c["key"] for c in citations] == ["a"]
    assert [(r["key"], r["nocite"]) for r in references if r["nocite"]] == [("c", True)]


@pytest.mark.parametrize("ground", [False, True])
def test_the_review_says_nocite_where_it_says_where_a_key_is_cited(
    tmp_path: Path, ground: bool
) -> None:
    """REVIEW-CITES.md's "cited at" column, and the offline line's count."""
    (tmp_path / "refs.bib").write_text(BIB.replace("{Beta}", "{Beta}, journal={}"), "utf-8")
    (tmp_path / "paper.md").write_text(MARKDOWN, encoding="utf-8")
    review = tmp_path / "REVIEW-CITES.md"
    argv = ["check", str(tmp_path / "paper.md"), "--offline", "-o", str(review)]
    main([*argv, *(["--ground"] if ground else [])])
    text = review.read_text(encoding="utf-8")
    assert "**2** listed with nocite" in text
    assert "| b | (listed with nocite: no claim) |" in text
    assert "@b" not in text.split("## Claims")[-1]  # never grounded as a claim


def test_code_scanning_says_an_alert_is_about_an_entry_listed_uncited(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB.replace("year={2021}", "year={2999}"), "utf-8")
    (tmp_path / "paper.md").write_text(MARKDOWN, encoding="utf-8")
    out = tmp_path / "report.sarif"
    main(["check", str(tmp_path / "paper.md"), "--offline", "-o", str(out), "-q"])
    results = json.loads(out.read_text(encoding="utf-8"))["runs"][0]["results"]
    future = [r for r in results if r["ruleId"] == "future_year"]
    assert [r["message"]["text"] for r in future] == [
        "b: date 2999 is in the future (listed with nocite)"
    ]
    assert future[0]["properties"] == {"nocite": True}
    cited = [r for r in results if r["message"]["text"].startswith("a:")]
    assert cited and all("properties" not in r for r in cited)  # a cited key is no nocite
