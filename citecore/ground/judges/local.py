"""The local judge: transparent lexical rules, fully offline, and honest about being lexical.

A passage supports a claim when it states most of the claim's content words and every number the
claim states, with no negation on one side only. Its precision is measured
(`bench/local_judge.py` on the labelled claim/evidence pairs), not assumed; every reason it gives
says that it is a lexical judge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from citecore.ground.evidence import RankedPassage
from citecore.ground.judges import JudgeVerdict
from citecore.ground.tokens import NEGATIONS, content_tokens, numbers, tokens
from citecore.model import GroundingStatus

SUPPORTED_SHARE = 0.7
PARTIAL_SHARE = 0.45
_STEM = 5  # words agreeing on their first letters count as the same word ("learned"/"learning")


def _stem(word: str) -> str:
    return word[:_STEM] if len(word) > _STEM + 1 else word


@dataclass(frozen=True, slots=True)
class _Reading:
    share: float
    matched: int
    wanted: int
    missing_numbers: frozenset[str]
    negation_conflict: bool


def _read(claim: str, passage: str) -> _Reading:
    wanted = {_stem(w) for w in content_tokens(claim) if not w.isdigit()}
    present = {_stem(w) for w in content_tokens(passage)}
    matched = len(wanted & present)
    claim_numbers, passage_numbers = numbers(claim), numbers(passage)
    negated_claim = bool(NEGATIONS & set(tokens(claim)))
    negated_passage = bool(NEGATIONS & set(tokens(passage)))
    return _Reading(
        share=matched / len(wanted) if wanted else 0.0,
        matched=matched,
        wanted=len(wanted),
        missing_numbers=frozenset(claim_numbers - passage_numbers),
        negation_conflict=negated_claim != negated_passage,
    )


class LocalJudge:
    """Lexical agreement between claim and passage, with number and negation checks."""

    name = "local"
    model = "lexical-rules-v1"

    def judge(
        self, claim: str, evidence: Sequence[RankedPassage], keys: Sequence[str] = ()
    ) -> JudgeVerdict:
        """SUPPORTED, PARTIAL or UNSUPPORTED, with the passage and the rule that decided."""
        del keys  # the evidence already comes from the cited keys' sources
        if not evidence:
            return self._verdict(GroundingStatus.UNSUPPORTED, "", "no passage shares its words")
        scored = [(_read(claim, r.passage.text), r) for r in evidence]
        reading, best = max(scored, key=lambda pair: (pair[0].share, pair[1].score))
        words = f"{reading.matched}/{reading.wanted} content words of the claim in the passage"
        if reading.missing_numbers:
            numbers_text = ", ".join(sorted(reading.missing_numbers))
            return self._verdict(
                GroundingStatus.UNSUPPORTED,
                best.passage.text,
                f"the passage does not state {numbers_text} ({words})",
            )
        if reading.negation_conflict and reading.share >= PARTIAL_SHARE:
            return self._verdict(
                GroundingStatus.UNSUPPORTED,
                best.passage.text,
                f"negated on one side only ({words})",
            )
        if reading.share >= SUPPORTED_SHARE:
            return self._verdict(GroundingStatus.SUPPORTED, best.passage.text, words)
        if reading.share >= PARTIAL_SHARE:
            return self._verdict(GroundingStatus.PARTIAL, best.passage.text, words)
        return self._verdict(GroundingStatus.UNSUPPORTED, best.passage.text, words)

    def close(self) -> None:
        """Nothing to release: the local judge holds no connection."""

    def _verdict(self, status: GroundingStatus, passage: str, reason: str) -> JudgeVerdict:
        return JudgeVerdict(status, passage, f"lexical judge: {reason}", self.name, self.model)
