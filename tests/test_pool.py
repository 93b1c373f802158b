"""Literature-pool rules: the pool file, key generation, coverage, the cut-off."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.pool import before_cutoff, cutoff_date, generate_key, load_pool
from tests.paths import CASES

POOL = {
    "min_cite_paper_count": 3,
    "papers": [
        {
            "title": "Deep Learning",
            "year": 2015,
            "authors": [{"name": "Yann LeCun"}],
            "venue": "Nature",
            "abstract": "x",
            "paperId": "p1",
            "bibtex_key": "lecun2015deep",
            "externalIds": {"DOI": "10.1038/nature14539"},
            "discovered_for": ["intro"],
        },
        {
            "title": "Deep Residual Learning for Image Recognition",
            "year": 2016,
            "authors": [{"name": "Kaiming He"}],
            "venue": "CVPR",
            "abstract": "x",
            "paperId": "p2",
            "bibtex_key": "he2016deep",
            "discovered_for": ["related_work[2.1]"],
        },
        {
            "title": "Attention Is All You Need",
            "year": 2017,
            "authors": ["Ashish Vaswani"],
            "venue": "NeurIPS",
            "abstract": "x",
            "paperId": "p3",
            "discovered_for": ["related_work[2.1]", "intro"],
        },
        {
            "title": "Deep learning book",
            "year": 2016,
            "authors": [{"name": "Ian Goodfellow"}],
            "bibtex_key": "goodfellow2016book",
            "discovered_for": ["related_work[2.2]"],
        },
    ],
}


@pytest.mark.parametrize(
    ("date_text", "year", "cutoff", "before"),
    [
        ("2024-09-30", 2024, "2024-10-01", True),
        ("2024-10-01", 2024, "2024-10-01", False),  # the boundary day fails
        ("2024-09", 2024, "2024-10-01", True),  # year and month: the 1st
        ("2024-10", 2024, "2024-10-01", False),
        ("", 2024, "2024-10-01", False),  # year only: December 31
        ("", 2023, "2024-10-01", True),
        ("", 2023, "2024", True),
        ("", None, "2024-10-01", None),
    ],
)
def test_cutoff_cases(date_text: str, year: int | None, cutoff: str, before: bool | None) -> None:
    assert before_cutoff(date_text, year, cutoff_date(cutoff)) is before


def test_cutoff_date_forms() -> None:
    assert cutoff_date("2024-10-01") == dt.date(2024, 10, 1)
    assert cutoff_date("2024") == dt.date(2024, 1, 1)


def test_key_generation_and_collisions() -> None:
    taken: set[str] = set()
    first = generate_key(["John Smith"], 2020, "The Deep Thing", taken)
    second = generate_key(["Jane Smith"], 2020, "A deep other thing", taken)
    third = generate_key(["Ann Smith"], 2020, "Deep again", taken)
    assert (first, second, third) == ("smith2020deep", "smith2020deepa", "smith2020deepb")
    assert generate_key(["Émile Zola"], None, "", set()) == "zola"


def test_validate_and_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pool = tmp_path / "pool.json"
    data = json.loads(json.dumps(POOL))
    data["papers"].append({"authors": ["Nobody"], "discovered_for": ["intro"]})
    pool.write_text(json.dumps(data))
    assert main(["pool", "validate", str(pool)]) == 1
    out = capsys.readouterr().out
    assert "paper 5 (): error: missing title" in out
    assert "paper 3 (Attention Is All You Need): warning: author 'Ashish Vaswani'" in out
    main(["pool", "validate", str(pool), "--fix"])
    fixed = json.loads(pool.read_text())
    assert fixed["papers"][2]["authors"] == [{"name": "Ashish Vaswani"}]
    assert fixed["papers"][2]["bibtex_key"] == "vaswani2017attention"
    loaded, _ = load_pool(pool)
    assert loaded.papers[2].key == "vaswani2017attention"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "p"
    shutil.copytree(CASES / "latex-natbib", folder)
    (folder / "pool.json").write_text(json.dumps(POOL))
    return folder


def test_coverage_command_with_natbib_and_pandoc(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "pool",
            "coverage",
            "--doc",
            str(project / "main.tex"),
            "--pool",
            str(project / "pool.json"),
        ]
    )
    out = capsys.readouterr().out
    # main.tex cites lecun, he, goodfellow, vaswani (and ghost2020, outside the pool)
    assert out.startswith("coverage: 4/4 (100.0%), 3 required")
    assert "cited but not in the pool: ghost2020" in out
    assert code == 1  # "cite only the pool"
    markdown = project / "paper.md"
    markdown.write_text("Deep nets [@lecun2015deep; -@he2016deep] and more.\n")
    main(["pool", "coverage", "--doc", str(markdown), "--pool", str(project / "pool.json")])
    out = capsys.readouterr().out
    assert out.startswith("coverage: 2/4 (50.0%), 3 required")
    assert "uncited in intro:\n  vaswani2017attention: Attention Is All You Need" in out
    assert "related_work[2.2]:\n- [@goodfellow2016book] Deep learning book (2016)" in out


def test_coverage_and_cutoff_as_build_findings(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    main(
        [
            "latex",
            str(project / "main.tex"),
            "--pool",
            str(project / "pool.json"),
            "--pool-threshold",
            "1.0",
            "--cutoff",
            "2016-06",
            "--no-verify",
            "-o",
            str(out),
        ]
    )
    findings = {(f["kind"], f["key"]) for f in json.loads(out.read_text())["findings"]}
    assert ("not_in_pool", "ghost2020") in findings
    assert ("cutoff", "he2016deep") in findings  # 2016 counts as 2016-12-31
    assert ("cutoff", "vaswani2017attention") in findings
    assert ("cutoff", "lecun2015deep") not in findings
    assert (
        main(
            [
                "latex",
                str(project / "main.tex"),
                "--pool",
                str(project / "pool.json"),
                "--no-verify",
                "--fail-on",
                "coverage",
                "-f",
                "json",
            ]
        )
        == 0
    )
    markdown = project / "paper.md"
    markdown.write_text("---\nbibliography: refs.bib\n---\nDeep nets [@lecun2015deep].\n")
    assert (
        main(
            [
                "check",
                str(markdown),
                "--pool",
                str(project / "pool.json"),
                "--no-verify",
                "--fail-on",
                "coverage",
                "-f",
                "json",
            ]
        )
        == 1
    )
