"""The bundled example is a smoke test: every deliberate problem is found where it was put."""

from __future__ import annotations

import json
from pathlib import Path

from citecore.cli import main
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "paper.md"


def test_example_has_enough_citations_and_every_planted_problem(tmp_path: Path) -> None:
    report_path = tmp_path / "report.json"
    assert main(["check", str(EXAMPLE), "-o", str(report_path)]) == 1
    report = json.loads(report_path.read_text())
    assert report["summary"]["citations"] >= 30
    found = {(f["kind"], f["key"]) for f in report["findings"] if f["kind"] != "unverifiable"}
    assert found == {
        ("undefined", "smith2021citations"),
        ("duplicate_key", "vaswani2017attention"),
        ("duplicate_entry", "lecun2015nature"),
        ("unparsed", "walters2023fabrication"),
        ("malformed_id", "ji2023survey"),
        ("future_year", "chen2031graph"),
        ("unused", "garfield1955citation"),
    }
    # Offline with an empty cache, no registry could be asked: unverifiable, never not_found.
    verdicts = {r["verdict"] for r in report["references"]}
    assert verdicts == {"unverifiable", "unparsed", "unchecked"}  # unchecked: never cited
    modes = {c["mode"] for c in report["citations"]}
    assert modes == {"normal", "author_in_text", "suppress_author"}
    assert {c["context"] for c in report["citations"]} >= {
        "body",
        "note",
        "list",
        "quote",
        "table",
        "caption",
        "metadata",
    }
    assert {c["signal"] for c in report["citations"]} >= {
        "see",
        "see also",
        "cf.",
        "e.g.",
        "but see",
        "compare",
    }


def test_latex_examples_report_their_planted_problems(tmp_path: Path) -> None:
    expected = {
        "natbib": {
            ("undefined", "smith2021citations"),
            ("malformed_id", "ji2023survey"),
            ("future_year", "chen2031graph"),
        },
        "biblatex": {("undefined", "nobody2019"), ("future_year", "kingma2031adam")},
    }
    for project, problems in expected.items():
        out = tmp_path / f"{project}.json"
        main_tex = REPO / "examples" / "latex" / project / "main.tex"
        assert main(["latex", str(main_tex), "-o", str(out)]) == 1
        report = json.loads(out.read_text())
        found = {(f["kind"], f["key"]) for f in report["findings"] if f["severity"] != "info"}
        assert found == problems
