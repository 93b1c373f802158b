"""Evidence: the passages of a source that best match a claim.

Each page is cut into overlapping passages of a few sentences; passages are ranked with BM25 over
the claim's content words, with the claim's numbers and named entities counting double (a claim
about "55%" needs a passage that says 55), and fuzzy similarity breaking near ties. The best
passages go to the judge, with their pages.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from rapidfuzz import fuzz

from citecore.extract.sentences import sentence_spans
from citecore.ground.text import SourceText
from citecore.ground.tokens import content_tokens, named_entities, numbers

_SENTENCES_PER_PASSAGE = 3
_STEP = 2
_K1, _B = 1.5, 0.75


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


def passages(source: SourceText) -> list[Passage]:
    """Overlapping passages of every page, in reading order."""
    found = []
    for page in source.pages:
        text = " ".join(page.text.split())
        spans = sentence_spans(text)
        for first in range(0, max(1, len(spans) - _SENTENCES_PER_PASSAGE + _STEP), _STEP):
            chunk = spans[first : first + _SENTENCES_PER_PASSAGE]
            if chunk:
                found.append(Passage(source.path, page.number, text[chunk[0][0] : chunk[-1][1]]))
    return found


class EvidenceIndex:
    """BM25 over the passages of one or more sources (a compound citation pools them)."""

    def __init__(self, all_passages: list[Passage]) -> None:
        self.passages = all_passages
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

    def rank(self, claim: str, limit: int = 5) -> list[RankedPassage]:
        """The passages that best match `claim`, best first: BM25 over content words (numbers
        and named entities weigh double), with fuzzy similarity to break near ties."""
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
                scored.append(RankedPassage(self.passages[index], score + fuzzy))
        scored.sort(key=lambda ranked: ranked.score, reverse=True)
        return scored[:limit]
