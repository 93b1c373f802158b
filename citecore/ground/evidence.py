"""Evidence: the passages of a source that best match a claim.

Each page is cut into overlapping passages of a few sentences (a paragraph break ends a
sentence); passages are ranked with BM25 over the claim's content words, with the claim's
numbers and named entities counting double (a claim about "55%" needs a passage that says 55),
and fuzzy similarity breaking near ties. Where a sentence embedder is installed
(`citecore.ground.embedding`), the embedding ranking is fused with BM25 by reciprocal rank
fusion, so that a passage a paraphrase rests on is found though it shares few of the claim's
words. The best passages go to the judge, with their pages.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from citecore.extract.sentences import sentence_spans
from citecore.ground.embedding import SentenceEmbedder
from citecore.ground.text import SourceText
from citecore.ground.tokens import content_tokens, named_entities, numbers

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# Bump when the cutting of passages changes: a judgment rests on the passages it was shown.
PASSAGES_VERSION = "2"
_SENTENCES_PER_PASSAGE = 3
_STEP = 2
_K1, _B = 1.5, 0.75
# Reciprocal rank fusion's constant (Cormack et al. 2009): a passage's fused score is the sum over
# the rankings of 1 / (60 + its rank), so that neither ranking's scale matters.
_RRF = 60
# The embedder's ranking counts half of BM25's: a static embedding places a passage on the topic
# near the claim as readily as the one that states it (measured on WiCE's marked sentences by
# bench/grounding_sets.py: weight 1 lost recall@1 against BM25 alone, 0.5 gained at 1, 3 and 5).
_SEMANTIC_WEIGHT = 0.5
_PARAGRAPH = re.compile(r"\n\s*\n")
# A line that is a Markdown heading, kept apart from the lines around it.
_HEADING_LINE = re.compile(r"(^#{1,6} [^\n]*$)", re.M)


@dataclass(frozen=True, slots=True)
class Passage:
    """A few consecutive sentences of one page of a source."""

    source: str
    page: int
    text: str


@dataclass(frozen=True, slots=True)
class RankedPassage:
    """A passage and how well it matches the claim."""

    passage: Passage
    score: float


def _sentences(page: str) -> list[str]:
    """The sentences of a page: a paragraph break ends one, as does its closing punctuation (a
    heading or a list item of a web page has none); a heading line (`#` in the Markdown the PDF
    reader writes) is a sentence of its own, never the start of the next one."""
    found = []
    for block in _PARAGRAPH.split(page):
        for part in _HEADING_LINE.split(block):
            text = " ".join(part.split())
            if _HEADING_LINE.fullmatch(text):  # whole: "## 2.1. Search" is no two sentences
                found.append(text)
                continue
            found += [text[start:end] for start, end in sentence_spans(text)]
    return found


def passages(source: SourceText) -> list[Passage]:
    """Overlapping passages of every page, in reading order."""
    found = []
    for page in source.pages:
        units = _sentences(page.text)
        for first in range(0, max(1, len(units) - _SENTENCES_PER_PASSAGE + _STEP), _STEP):
            chunk = units[first : first + _SENTENCES_PER_PASSAGE]
            if chunk:
                # One sentence a line: a heading stays a line of its own for the judge.
                found.append(Passage(source.path, page.number, "\n".join(chunk)))
    return found


class EvidenceIndex:
    """BM25 over the passages of one or more sources (a compound citation pools them), fused
    with a sentence embedder's ranking where one is given."""

    def __init__(
        self,
        all_passages: list[Passage],
        embedder: SentenceEmbedder | None = None,
        vectors: npt.NDArray[np.float32] | None = None,
    ) -> None:
        """`vectors`: the passages' embeddings when the caller has them already (one row per
        passage, from `embedder`); else they are computed here when there is an embedder."""
        self.passages = all_passages
        self.embedder = embedder
        if embedder is not None and vectors is None and all_passages:
            vectors = embedder.embed([p.text for p in all_passages])
        self._vectors = vectors if embedder is not None else None
        self._terms = [Counter(content_tokens(p.text)) for p in all_passages]
        lengths = [sum(t.values()) for t in self._terms]
        self._average = (sum(lengths) / len(lengths)) if lengths else 1.0
        self._lengths = lengths
        document_frequency: Counter[str] = Counter()
        for terms in self._terms:
            document_frequency.update(terms.keys())
        count = len(all_passages)
        self._idf = {
            term: math.log(1 + (count - n + 0.5) / (n + 0.5))
            for term, n in document_frequency.items()
        }

    @property
    def ranking(self) -> str:
        """The ranking's name, for cache keys: "bm25", or "bm25+" and the embedder's name."""
        return "bm25" if self.embedder is None else f"bm25+{self.embedder.name}"

    def rank(self, claim: str, limit: int = 5) -> list[RankedPassage]:
        """The passages that best match `claim`, best first: BM25 (fused with the embedder's
        ranking where there is one), with fuzzy similarity to break near ties."""
        lexical = self._lexical(claim)
        if self.embedder is None or self._vectors is None or not self.passages:
            return [RankedPassage(self.passages[i], score) for i, score in lexical[:limit]]
        query = self.embedder.embed([claim])[0]
        similarity = self._vectors @ query
        semantic = sorted(range(len(self.passages)), key=lambda i: -float(similarity[i]))
        fused: dict[int, float] = {}
        # Only passages that share a content word or are among the embedder's nearest: a
        # passage neither ranking finds is no evidence.
        for rank, index in enumerate(semantic[: max(limit * 4, 20)]):
            fused[index] = fused.get(index, 0.0) + _SEMANTIC_WEIGHT / (_RRF + rank + 1)
        for rank, (index, _) in enumerate(lexical):
            fused[index] = fused.get(index, 0.0) + 1.0 / (_RRF + rank + 1)
        best = sorted(fused.items(), key=lambda item: -item[1])[:limit]
        return [RankedPassage(self.passages[index], score) for index, score in best]

    def _lexical(self, claim: str) -> list[tuple[int, float]]:
        """(index, score) of every passage sharing a content word with `claim`, best first: BM25
        over content words (numbers and named entities weigh double), with fuzzy similarity to
        break near ties."""
        wanted = set(content_tokens(claim))
        claim_numbers = numbers(claim) | named_entities(claim)
        scored = []
        for index, terms in enumerate(self._terms):
            length = self._lengths[index] or 1
            score = 0.0
            for term in wanted & terms.keys():
                frequency = terms[term]
                weight = (
                    self._idf.get(term, 0.0)
                    * (frequency * (_K1 + 1))
                    / (frequency + _K1 * (1 - _B + _B * length / self._average))
                )
                score += weight * (2.0 if term in claim_numbers else 1.0)
            if score > 0:
                fuzzy = fuzz.token_set_ratio(claim, self.passages[index].text) / 100.0
                scored.append((index, score + fuzzy))
        scored.sort(key=lambda pair: pair[1], reverse=True)
        return scored
