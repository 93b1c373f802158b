"""Cross-index tiers against recorded Crossref and OpenAlex responses on the loopback emulator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.model import Source
from citecore.pool.corroborate import Tier, classify
from citecore.pool.model import PoolPaper
from citecore.registries import crossref, openalex
from citecore.registries.record import WorkRecord
from tests.emulator import RegistryEmulator, Reply, fixture

PNAS = "10.1073/pnas.1414271111"
PNAS_TITLE = (
    "Developing functional musculoskeletal tissues through hypoxia and lysyl "
    "oxidase-induced collagen cross-linking"
)


def paper(key: str, title: str, year: int | None, doi: str = "", arxiv: str = "") -> PoolPaper:
    return PoolPaper(key, title, year, ("A Writer",), "", "", doi, arxiv, "", ("intro",))


def record(source: Source, year: int, doi: str) -> WorkRecord:
    return WorkRecord(source, PNAS_TITLE, (), year, "", doi)


@pytest.mark.parametrize(
    ("pool_paper", "records", "tier"),
    [
        (paper("a", PNAS_TITLE, 2014, PNAS), [record(Source.CROSSREF, 2014, PNAS)], Tier.HIGH),
        (paper("a", PNAS_TITLE, 2014, PNAS), [record(Source.OPENALEX, 2015, PNAS)], Tier.HIGH),
        (paper("a", PNAS_TITLE, 2011, PNAS), [record(Source.CROSSREF, 2014, PNAS)], Tier.MEDIUM),
        (
            paper("a", PNAS_TITLE, 2014, PNAS),
            [record(Source.CROSSREF, 2014, "10.1000/other")],
            Tier.CONFLICT,
        ),
        (paper("a", PNAS_TITLE, 2014), [], Tier.LOW),
    ],
)
def test_classification(pool_paper: PoolPaper, records: list[WorkRecord], tier: Tier) -> None:
    assert classify(pool_paper, records)[0] is tier


def test_arxiv_only_preprints_are_a_benign_low() -> None:
    tier, reason = classify(paper("p", "A preprint", 2023, arxiv="2312.07559"), [])
    assert tier is Tier.LOW and "could not corroborate" in reason and "arXiv-only" in reason


def test_corroborate_command(
    online: RegistryEmulator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    online.serve(
        crossref.work_request(PNAS), fixture("crossref/works_10.1073_pnas.1414271111.json")
    )
    online.serve(
        openalex.work_request(PNAS), fixture("openalex/works_doi_10.1073_pnas.1414271111.json")
    )
    online.serve(
        crossref.search_request("A Book Nobody Indexed"),
        fixture("crossref/works_search_query.title_no_results.json"),
    )
    online.serve(crossref.work_request("10.1000/gone"), Reply(503, "down"))
    online.serve(openalex.work_request("10.1000/gone"), Reply(404, "not found"))
    pool = tmp_path / "pool.json"
    pool.write_text(
        json.dumps(
            {
                "papers": [
                    {
                        "title": PNAS_TITLE,
                        "year": 2014,
                        "bibtex_key": "makris2014",
                        "externalIds": {"DOI": PNAS},
                    },
                    {
                        "title": PNAS_TITLE,
                        "year": 2009,
                        "bibtex_key": "makris2009",
                        "externalIds": {"DOI": PNAS},
                    },
                    {"title": "A Book Nobody Indexed", "year": 1999, "bibtex_key": "nobody1999"},
                    {
                        "title": "Wrong year paper",
                        "year": 2001,
                        "bibtex_key": "gone2001",
                        "externalIds": {"DOI": "10.1000/gone"},
                    },
                ]
            }
        )
    )
    assert main(["pool", "corroborate", str(pool)]) == 1
    out = capsys.readouterr().out
    tiers = {line.split()[1].rstrip(":"): line.split()[0] for line in out.splitlines()}
    assert tiers == {
        "makris2014": "high",
        "makris2009": "medium",
        "nobody1999": "low",
        "gone2001": "low",
    }
    assert "[crossref did not answer]" in out  # an unreachable index is noted
    assert len(json.loads(pool.read_text())["papers"]) == 4  # nothing is ever removed


def _pool(tmp_path: Path, papers: list[dict[str, object]]) -> Path:
    pool = tmp_path / "pool.json"
    pool.write_text(json.dumps({"papers": papers}))
    return pool


def _tiers(out: str) -> dict[str, str]:
    return {line.split()[1].rstrip(":"): line.split()[0] for line in out.splitlines()}


def test_an_unreadable_answer_is_noted_and_the_other_index_still_counts(
    online: RegistryEmulator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    online.serve(crossref.work_request(PNAS), Reply(200, '{"status": "ok", "message": 3}'))
    online.serve(
        openalex.work_request(PNAS), fixture("openalex/works_doi_10.1073_pnas.1414271111.json")
    )
    pool = _pool(
        tmp_path,
        [{"title": PNAS_TITLE, "year": 2014, "bibtex_key": "makris2014",
          "externalIds": {"DOI": PNAS}}],
    )  # fmt: skip
    main(["pool", "corroborate", str(pool)])
    out = capsys.readouterr().out
    assert _tiers(out) == {"makris2014": "high"}
    assert "crossref answered something unreadable" in out
    assert "corroborated by openalex" in out


def test_a_title_only_near_the_pools_is_no_corroboration(
    online: RegistryEmulator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A title search's best hit corroborates only when its title matches at ratio >= 90: a
    neighbour on the same topic is no evidence for the pool's paper."""
    asked = "Developing functional musculoskeletal tissues through hypoxia alone"
    online.serve(
        crossref.search_request(asked),
        fixture("crossref/works_search_query.title_no_results.json"),
        unused_ok=True,
    )
    pool = _pool(tmp_path, [{"title": asked, "year": 2014, "bibtex_key": "near2014"}])
    main(["pool", "corroborate", str(pool)])
    out = capsys.readouterr().out
    assert _tiers(out) == {"near2014": "low"}
    assert "could not corroborate in Crossref or OpenAlex" in out


def test_an_arxiv_only_preprint_is_said_to_be_a_benign_low(
    online: RegistryEmulator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    title = "A preprint no index holds"
    online.serve(
        crossref.search_request(title),
        fixture("crossref/works_search_query.title_no_results.json"),
        unused_ok=True,
    )
    pool = _pool(
        tmp_path,
        [{"title": title, "year": 2023, "bibtex_key": "pre2023",
          "externalIds": {"ArXiv": "2312.07559"}}],
    )  # fmt: skip
    main(["pool", "corroborate", str(pool)])
    out = capsys.readouterr().out
    assert _tiers(out) == {"pre2023": "low"}
    assert "an arXiv-only preprint is often missing from them" in out
