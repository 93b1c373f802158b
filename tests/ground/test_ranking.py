"""Passage ranking: BM25, fused with a sentence embedder where one is installed."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import numpy.typing as npt
import pytest

from citecore.ground.embedding import WordLlamaEmbedder, sentence_embedder
from citecore.ground.evidence import EvidenceIndex, Passage, passages
from citecore.ground.text import Page, SourceText
from tests.paths import REPO

PAGE = (
    "Methods. We enrolled 400 adults in twelve hospitals.\n\n"
    "Results. The drug lowered the death rate among treated patients.\n\n"
    "Mortality was recorded for every patient in the registry. Weather data came from the "
    "national service. Reduces and mortality are words of this sentence too."
)


class Topical:
    """A stand-in embedder: a text's vector says whether it speaks of death."""

    name = "topical-test"

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        rows = [[1.0, 0.0] if "death" in t or "mortality" in t else [0.0, 1.0] for t in texts]
        return np.asarray(rows, dtype=np.float32)


def _source(text: str) -> SourceText:
    return SourceText("s.txt", "0", (Page(1, text),))


def test_a_paragraph_break_ends_a_sentence() -> None:
    """A web page's heading or list item has no full stop: it is a sentence of its own."""
    found = passages(_source("Irene Hervey\n\nJuly 11, 1909\n\nShe was an actress. She sang."))
    assert found[0].text == "Irene Hervey\nJuly 11, 1909\nShe was an actress."
    assert found[1].text == "She was an actress.\nShe sang."


def test_a_heading_is_never_the_start_of_the_sentence_after_it() -> None:
    """pymupdf4llm writes a PDF's headings as Markdown: the judge reads one as a line of its own,
    so a supporting passage never opens with the heading above it."""
    from citecore.ground.judges.local import LocalJudge

    page = "## **What it does**\nIt retrieves passages from papers. It cites them."
    ranked = EvidenceIndex(passages(_source(page))).rank("It retrieves passages from papers.")
    verdict = LocalJudge().judge("It retrieves passages from papers.", ranked)
    assert verdict.passage == "It retrieves passages from papers."


def test_without_an_embedder_the_ranking_is_lexical() -> None:
    index = EvidenceIndex(passages(_source(PAGE)))
    assert index.ranking == "bm25"
    ranked = index.rank("The drug reduces mortality.", limit=3)
    assert ranked and all(
        "reduces" in r.passage.text.lower() or "drug" in r.passage.text.lower() for r in ranked
    )


def test_the_embedder_brings_in_the_paraphrase_bm25_misses() -> None:
    """ "lowered the death rate" shares one word with "reduces mortality"; the fused ranking
    still puts it among the passages the judge reads, and names itself for the cache."""
    sentences = [
        "The trial was funded by the ministry.",
        "The drug lowered the death rate among treated patients.",
        "Weather data came from the national service.",
        "Rainfall was heavy in the spring.",
        "Reduces and mortality appear in this line, with nothing else.",
    ]
    found = [Passage("s", 1, text) for text in sentences]
    index = EvidenceIndex(found, Topical())
    assert index.ranking == "bm25+topical-test"
    texts = [r.passage.text for r in index.rank("Reduces mortality", limit=2)]
    assert "The drug lowered the death rate among treated patients." in texts
    lexical = [r.passage.text for r in EvidenceIndex(found).rank("Reduces mortality", limit=2)]
    assert "The drug lowered the death rate among treated patients." not in lexical


class Counting(Topical):
    """The stand-in embedder, counting the texts it is asked to embed."""

    def __init__(self) -> None:
        self.embedded = 0

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.embedded += len(texts)
        return super().embed(texts)


def test_precomputed_vectors_are_used_as_given() -> None:
    """A source cited by many sentences is embedded once: given its vectors, the index embeds
    only the claim."""
    found = passages(_source(PAGE))
    vectors = Topical().embed([p.text for p in found])
    embedder = Counting()
    index = EvidenceIndex(found, embedder, vectors)
    assert index.rank("death", limit=1)
    assert embedder.embedded == 1


@pytest.mark.skipif(sentence_embedder() is None, reason="wordllama is not installed")
def test_wordllama_loads_from_its_wheel_without_the_network() -> None:
    """The embedder opens the files its wheel ships, never a download (no network here)."""
    embedder = sentence_embedder()
    assert isinstance(embedder, WordLlamaEmbedder)
    vectors = embedder.embed(["Tocilizumab reduces mortality.", "The drug lowered deaths."])
    assert vectors.shape[0] == 2
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-3)
    near = float(vectors[0] @ vectors[1])
    far = float(vectors[0] @ embedder.embed(["Rainfall was heavy in Paris."])[0])
    assert near > far


def test_a_missing_embedder_leaves_the_ranking_lexical() -> None:
    """Without wordllama, grounding runs as before (a child process where it cannot import)."""
    code = (
        "import sys; sys.modules['wordllama'] = None\n"
        "from citecore.ground.embedding import sentence_embedder\n"
        "print(sentence_embedder())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO
    )
    assert out.stdout.strip() == "None"
