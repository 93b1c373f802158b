"""Building a pool: pre-deduplication, fuzzy acceptance, abstracts, cut-off, dedup precedence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.pool.build import Candidate, dedup_papers, match_score, prededup
from citecore.pool.model import PoolPaper
from citecore.registries import arxiv, crossref
from tests.emulator import RegistryEmulator, Reply, fixture, recorded


def test_prededup_merges_arxiv_ids_and_near_titles() -> None:
    kept = prededup(
        [
            Candidate(
                "Attention is all you need",
                url="https://arxiv.org/abs/1706.03762",
                discovered_for=("intro",),
            ),
            Candidate(
                "Transformers paper",
                snippet="arXiv:1706.03762v5",
                discovered_for=("related_work[2.1]",),
            ),
            Candidate("Attention Is All You Need.", discovered_for=("related_work[2.2]",)),
            Candidate("Deep residual learning", discovered_for=("intro",)),
        ]
    )
    assert [(c.title, c.discovered_for) for c in kept] == [
        ("Attention is all you need", ("intro", "related_work[2.1]", "related_work[2.2]")),
        ("Deep residual learning", ("intro",)),
    ]


@pytest.mark.parametrize(
    ("candidate", "hit", "accepted"),
    [
        ("PaperQA", "PaperQA: Retrieval-Augmented Generative Agent for Scientific Research", True),
        ("Retrieval augmented agents", "PaperQA: Retrieval-Augmented Generative Agent", False),
        (
            "Augmenting large language models with chemistry tools",
            "Augmenting large language models with chemistry tools",
            True,
        ),
        (
            "Augmenting language models with chemistry tools",
            "Augmenting large language models with chemistry tools",
            True,
        ),
        (
            "A completely different study of sea urchins",
            "Augmenting large language models with chemistry tools",
            False,
        ),
    ],
)
def test_acceptance(candidate: str, hit: str, accepted: bool) -> None:
    assert (match_score(candidate, hit) > 70) is accepted


def test_dedup_precedence_keeps_the_better_match() -> None:
    def paper(
        title: str,
        score: float,
        doi: str = "",
        arxiv_id: str = "",
        paper_id: str = "",
        tag: str = "intro",
    ) -> PoolPaper:
        return PoolPaper(
            key="",
            title=title,
            year=2020,
            authors=(),
            venue="",
            abstract="",
            doi=doi,
            arxiv_id=arxiv_id,
            paper_id=paper_id,
            discovered_for=(tag,),
            match_score=score,
        )

    kept = dedup_papers(
        [
            paper("A", 80, doi="10.1/X", paper_id="p1"),
            paper("A again", 95, doi="10.1/x", paper_id="p1", tag="related"),  # same paperId
            paper("B", 90, doi="10.2/y"),
            paper("B preprint", 99, doi="10.2/Y", arxiv_id="2101.00001"),  # same DOI, case folded
            paper("C", 75, arxiv_id="2202.00002"),
            paper("C", 70, arxiv_id="2202.00002"),
            paper("Same title", 71),
            paper("Same  Title", 72),
        ]
    )
    assert [(p.title, p.match_score, p.discovered_for) for p in kept] == [
        ("A again", 95, ("intro", "related")),
        ("B preprint", 99, ("intro",)),
        ("C", 75, ("intro",)),
        ("Same  Title", 72, ("intro",)),
    ]


def test_pool_verify_against_recorded_answers(online: RegistryEmulator, tmp_path: Path) -> None:
    """Crossref's recorded PaperQA search has no abstract; its arXiv record does (built from the
    recorded arXiv feed shape with PaperQA's id and title, as no PaperQA feed was recorded)."""
    title = "PaperQA: Retrieval-Augmented Generative Agent for Scientific Research"
    feed = (
        recorded("arxiv/query_id_list_1605.08386.xml")
        .read_text()
        .replace("1605.08386", "2312.07559")
        .replace("Heat-bath random walks with Markov bases", title)
        .replace("2016-05-26", "2023-12-08")
    )
    online.serve(
        crossref.search_request(title),
        fixture("crossref/works_search_query.title_paperqa_arxiv_only_rows1.json"),
    )
    online.serve(arxiv.search_request(title), Reply(200, feed))
    nothing = "A study nobody published about sea urchin dialects"
    online.serve(
        crossref.search_request(nothing),
        fixture("crossref/works_search_query.title_no_results.json"),
    )
    online.serve(
        arxiv.search_request(nothing), fixture("arxiv/query_id_list_0000.0000_no_results.xml")
    )
    candidates = tmp_path / "candidates.json"
    candidates.write_text(
        json.dumps(
            [
                {
                    "title": title,
                    "url": "https://arxiv.org/abs/2312.07559",
                    "discovered_for": ["intro"],
                },
                {"title": "PaperQA", "snippet": "see arXiv:2312.07559", "discovered_for": ["rw"]},
                {"title": nothing, "discovered_for": ["intro"]},
            ]
        )
    )
    out = tmp_path / "pool.json"
    assert main(["pool", "verify", str(candidates), "-o", str(out)]) == 0
    papers = json.loads(out.read_text())["papers"]
    assert len(papers) == 1
    assert papers[0]["discovered_for"] == ["intro", "rw"]
    assert papers[0]["externalIds"]["ArXiv"] == "2312.07559"
    assert papers[0]["abstract"]
    assert main(["pool", "verify", str(candidates), "-o", str(out), "--cutoff", "2023-06"]) == 1
