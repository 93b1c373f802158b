"""The bundled example is a smoke test: every deliberate problem is found where it was put."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from citecore.cli import main
from citecore.pandoc.reader import pandoc_path
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


TOUR = REPO / "examples" / "tour"


def test_the_tour_shows_every_verdict_offline(tmp_path: Path) -> None:
    """The first run a newcomer sees: a snapshot of real records declared complete, a source PDF
    made from the demo's text; verified, mismatch with the suggested DOI, not_found, retracted,
    a claim supported on its page and one left unconfirmed, with no network."""
    snapshot = tmp_path / "snapshot.sqlite"
    records = str(TOUR / "registry-records.jsonl")
    assert main(["snapshot", "build", "--complete", "-o", str(snapshot), records]) == 0
    sources = tmp_path / "sources"
    sources.mkdir()
    subprocess.run(
        [
            pandoc_path(),
            str(TOUR / "sources" / "lala2023paperqa.md"),
            "-o",
            str(sources / "lala2023paperqa.pdf"),
        ],
        check=True,
    )
    report_path = tmp_path / "report.json"
    argv = ["check", str(TOUR / "tour.md"), "--offline", "--snapshot", str(snapshot)]
    argv += ["--sources", str(sources), "--cache", str(tmp_path / "cache.sqlite")]
    assert main([*argv, "-o", str(report_path)]) == 1
    report = json.loads(report_path.read_text())
    verdicts = {r["key"]: (r["verdict"], sorted(r["flags"])) for r in report["references"]}
    assert verdicts == {
        "he2016deep": ("verified", []),
        "zhang2022opt": ("verified", []),
        "lala2023paperqa": ("verified", []),
        "peng2021rfa": ("mismatch", ["suggested"]),
        "holt2023citation": ("not_found", []),
        "zheng2022legal": ("verified", ["retracted"]),
    }
    mismatched = next(r for r in report["references"] if r["key"] == "peng2021rfa")
    assert [(m["field"], m["found"]) for m in mismatched["mismatches"]] == [
        ("doi", "10.48550/arxiv.2103.02143"),
        ("year", "2021"),
    ]
    assert "doi = {10.48550/arxiv.2103.02143}" in mismatched["correction"]
    grounded = {
        (c["key"], c["grounding"]["status"], c["grounding"]["page"])
        for c in report["citations"]
        if c["key"] == "lala2023paperqa"
    }
    assert grounded == {
        ("lala2023paperqa", "supported", 2),
        # Shown with the closest passage and its page.
        ("lala2023paperqa", "unconfirmed", 2),
    }
    review = tmp_path / "REVIEW-CITES.md"
    assert main([*argv, "-o", str(review)]) == 1
    supported = review.read_text().split("## Claims and the passages that support them")[1]
    assert "tour.md:17 `lala2023paperqa`, supported, p. 2 (local judge)" in supported
    # The verdicts of a closed world are not left in the cache for online runs.
    unsnapped = ["check", str(TOUR / "tour.md"), "--offline", "--cache", argv[-1]]
    assert main([*unsnapped, "-o", str(report_path)]) in {0, 1}
    again = json.loads(report_path.read_text())
    assert {r["verdict"] for r in again["references"]} == {"unverifiable"}
