"""Literature-pool rules: the pool file, key generation, coverage, the cut-off."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.pool.model import generate_key, load_pool
from citecore.pool.policy import before_cutoff, cutoff_date
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
    assert "paper 5 (): error: missing title\n" in out
    assert 'expected {"name": …} (pool validate --fix fixes this)' in out
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


@pytest.mark.parametrize(
    ("venue", "kind"),
    [
        ("Proceedings of the IEEE Conference on Computer Vision", "inproceedings"),
        ("NeurIPS", "inproceedings"),
        ("Nature", "article"),
        ("Journal of Machine Learning Research", "article"),
        ("", "misc"),
    ],
)
def test_entry_type_from_venue(venue: str, kind: str) -> None:
    from citecore.pool.bibtex import entry_type

    assert entry_type(venue) == kind


def test_pool_bibtex_reads_back(tmp_path: Path) -> None:
    from citecore.bib.bibtex import parse_bibtex

    pool = tmp_path / "pool.json"
    pool.write_text(json.dumps(POOL))
    out = tmp_path / "pool.bib"
    assert main(["pool", "bibtex", str(pool), "-o", str(out)]) == 0
    parsed = parse_bibtex(out.read_text(), str(out))
    entries = {r.key: r for r in parsed.references}
    assert list(entries) == [
        "lecun2015deep",
        "he2016deep",
        "vaswani2017attention",
        "goodfellow2016book",
    ]
    assert entries["he2016deep"].entry_type == "inproceedings"
    assert entries["lecun2015deep"].entry_type == "article"
    assert entries["lecun2015deep"].doi == "10.1038/nature14539"
    assert entries["goodfellow2016book"].entry_type == "misc"  # no venue: no venue field
    assert "journal" not in out.read_text().split("@misc{goodfellow2016book")[1]


def test_sync_keys_preview_and_inplace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pool = tmp_path / "pool.json"
    pool.write_text(json.dumps(POOL))
    (tmp_path / "refs.bib").write_text(
        "@article{LeCun15, title = {Deep learning}, doi = {10.1038/NATURE14539}}\n"
        "@inproceedings{He_ResNet, title = {Deep Residual Learning for Image Recognition}}\n"
        "@misc{other, title = {Something else entirely}}\n"
    )
    paper = tmp_path / "paper.md"
    original = (
        "---\nbibliography: refs.bib\n---\n"
        "Deep nets [@LeCun15; see @He_ResNet, p. 3] and @other. Mail me@LeCun15.org.\n"
    )
    paper.write_text(original)
    assert main(["pool", "sync-keys", str(paper), "--pool", str(pool)]) == 0
    captured = capsys.readouterr()
    assert "LeCun15 -> lecun2015deep" in captured.err and "He_ResNet -> he2016deep" in captured.err
    assert "+Deep nets [@lecun2015deep; see @he2016deep, p. 3] and @other." in captured.out
    assert paper.read_text() == original  # a preview changes nothing
    main(["pool", "sync-keys", str(paper), "--pool", str(pool), "--inplace"])
    assert "[@lecun2015deep; see @he2016deep, p. 3] and @other. Mail me@LeCun15.org." in (
        paper.read_text()
    )


def test_sync_keys_in_latex_multi_key_commands() -> None:
    from citecore.pool.bibtex import rewrite_keys

    text = r"\citep[see][p.~3]{old1, old2} and \citet{keep}; \parencite{old2}"
    assert rewrite_keys(text, {"old1": "new1", "old2": "new2"}) == (
        r"\citep[see][p.~3]{new1, new2} and \citet{keep}; \parencite{new2}"
    )


def test_coverage_with_biblatex_syntax(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.paths import REPO

    pool = tmp_path / "pool.json"
    keys = ["he2016deep", "goodfellow2014generative", "kingma2015adam", "lecun2015deep"]
    pool.write_text(
        json.dumps(
            {
                "papers": [
                    {
                        "title": f"Paper {k}",
                        "year": 2015,
                        "bibtex_key": k,
                        "discovered_for": ["intro"],
                    }
                    for k in keys
                ]
            }
        )
    )
    main(
        [
            "pool",
            "coverage",
            "--doc",
            str(REPO / "examples" / "latex" / "biblatex" / "main.tex"),
            "--pool",
            str(pool),
        ]
    )
    out = capsys.readouterr().out
    assert out.startswith("coverage: 3/4 (75.0%), 3 required")
    assert "uncited in intro:\n  lecun2015deep: Paper lecun2015deep" in out
    assert "cited but not in the pool: kingma2031adam, nobody2019" in out
