"""The local judge on any text: a verdict, never a traceback; and a sentence of the source taken
as the claim is never accused."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.ground.evidence import Passage, RankedPassage
from citecore.ground.judges.local import LocalJudge
from citecore.model import GroundingStatus

EXAMPLES = int(os.environ.get("CITECHECK_FUZZ_EXAMPLES", "100"))
# Words and marks that the rules look at: negations, contrasts, directions, numbers, names.
WORDS = st.sampled_from(
    """not no without rather than instead of unlike increased decreased higher lower two 2017
    3.5 NO HPV TMEM27 p53 IL-10 effective ineffective rise fall safe dangerous patients the of
    was is with and but , ; : ( ) . - — ’ “ % $ α β""".split()
)
TEXT = st.one_of(
    st.text(max_size=200),
    st.lists(st.one_of(WORDS, st.text(min_size=1, max_size=12)), max_size=40).map(" ".join),
)
JUDGE = LocalJudge()


@settings(max_examples=EXAMPLES, deadline=None)
@given(TEXT, TEXT)
def test_any_claim_and_passage_get_a_verdict(claim: str, passage: str) -> None:
    verdict = JUDGE.judge(claim, [RankedPassage(Passage("s", 1, passage), 1.0)])
    assert verdict.reason.startswith("lexical judge")


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.lists(WORDS, min_size=3, max_size=30).map(" ".join))
def test_the_source_sentence_itself_is_never_accused(sentence: str) -> None:
    sentence = sentence.replace(".", "").replace(";", "") + "."
    verdict = JUDGE.judge(sentence, [RankedPassage(Passage("s", 1, sentence), 1.0)])
    assert verdict.status is not GroundingStatus.UNSUPPORTED, verdict.reason
