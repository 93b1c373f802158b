"""The support rule: every word of a claim that carries content must be in the passage.

Each case is what a writer would see: the verdict, and the words the reason names.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from citecore.ground.evidence import Passage, RankedPassage
from citecore.ground.judges.carried import claim_words
from citecore.ground.judges.local import LocalJudge
from citecore.ground.judges.words import comparable
from citecore.ground.lexicon import lexicon
from citecore.ground.tokens import tokens
from citecore.model import GroundingStatus
from tests.paths import CORPUS


def judged(claim: str, source: str) -> tuple[GroundingStatus, str]:
    verdict = LocalJudge().judge(claim, [RankedPassage(Passage("s", 1, source), 1.0)])
    return verdict.status, verdict.reason


def test_the_words_that_need_a_match() -> None:
    """Reporting words, signals, connectives and stop words need none; quantifiers, numbers and
    negations do (every negation as one "not")."""
    words = claim_words(comparable("A new study found that all 12 patients did not improve, see"))
    assert words == ["new", "all", "12", "patients", "not", "improve"]


def test_a_number_is_named_as_the_writer_wrote_it() -> None:
    status, reason = judged("It was trained on ten million patents.", "It reads papers.")
    assert status is GroundingStatus.UNCONFIRMED
    assert "'ten'" in reason and "'10'" not in reason


@pytest.mark.parametrize(
    ("claim", "source", "status", "named"),
    [
        # Every word there, in another form: support.
        (
            "Tocilizumab reduces mortality in severe COVID-19 patients.",
            "Tocilizumab reduced mortality in patients with severe COVID-19.",
            GroundingStatus.SUPPORTED,
            "6/6 words",
        ),
        # One word changed: never support, and the reason names it.
        (
            "IL-6 inhibition could be resistant to COVID-19.",
            "IL-6 inhibition could be key to COVID-19 treatment.",
            GroundingStatus.UNCONFIRMED,
            "'resistant'",
        ),
        # A number equal in value is carried; in another unit it is not.
        (
            "The film was screened on June 8, 2019.",
            "The film was screened on June 08, 2019.",
            GroundingStatus.SUPPORTED,
            "",
        ),
        (
            "Travellers must self-isolate for 14 years.",
            "Travellers must self-isolate for 14 days.",
            GroundingStatus.UNCONFIRMED,
            "'14'",
        ),
        (
            "The vaccine is 78 percent effective.",
            "The vaccine is 78% effective.",
            GroundingStatus.SUPPORTED,
            "",
        ),
        # A quantifier the source does not give.
        (
            "All documented reinfections were reported in Hong Kong.",
            "The first documented reinfection was reported in Hong Kong.",
            GroundingStatus.UNCONFIRMED,
            "'all'",
        ),
        # A word the source gives, but of something else, far from the words it goes with.
        (
            "Ad26 infection protects against SARS-CoV-2 severe clinical disease in hamsters.",
            "A single immunization of Ad26 provides robust protection against severe clinical "
            "disease after high-dose SARS-CoV-2 infection in hamsters.",
            GroundingStatus.UNCONFIRMED,
            "apart",
        ),
        # A verbatim sentence is supported however many small words stand between its words.
        (
            "We recognize that it would also be possible to train separate LTR and RTL models.",
            "We recognize that it would also be possible to train separate LTR and RTL models.",
            GroundingStatus.SUPPORTED,
            "",
        ),
        # The authors' "we" is the work the source names.
        (
            "The Transformer was trained on the WMT 2014 English-German dataset.",
            "The Transformer is a new architecture. We trained on the standard WMT 2014 "
            "English-German dataset.",
            GroundingStatus.SUPPORTED,
            "",
        ),
        # A negation is carried only by a denial of the same words.
        (
            "Hydroxychloroquine did not prevent COVID-19 after exposure.",
            "Hydroxychloroquine did not prevent COVID-19 when used after exposure.",
            GroundingStatus.SUPPORTED,
            "",
        ),
        (
            "There is not an inverse relationship between hip fractures and statin use.",
            "Clear inverse relationships were observed between hip fractures and statin use; "
            "there was no evidence of such relationships with other agents.",
            GroundingStatus.UNSUPPORTED,
            "'not' in the claim only",
        ),
    ],
)
def test_support_needs_every_word(
    claim: str, source: str, status: GroundingStatus, named: str
) -> None:
    verdict, reason = judged(claim, source)
    assert verdict is status, reason
    assert named in reason


@pytest.mark.skipif(not lexicon().known, reason="WordNet is not installed (wordnet-base)")
def test_a_kind_of_the_word_carries_it_but_not_the_other_way() -> None:
    """The source's "kinases" says "enzymes"; its "enzymes" does not say "kinases"."""
    assert judged("The enzymes were inhibited.", "The kinases were inhibited.")[0] is (
        GroundingStatus.SUPPORTED
    )
    status, reason = judged("The kinases were inhibited.", "The enzymes were inhibited.")
    assert status is GroundingStatus.UNCONFIRMED
    assert "'kinases'" in reason


def _counter_claims(claim: str, vocabulary: list[str], rng: random.Random) -> list[str]:
    """The claim with one content word replaced by another word of the corpus that the lexicon
    does not know as meaning it (as COVID-Fact's counter-claims were made)."""
    words = lexicon()
    made = []
    for word in claim_words(comparable(claim)):
        if word == "not" or not word.isalpha():
            continue
        other = rng.choice(vocabulary)
        if other == word or words.says(other, word) or words.says(word, other):
            continue
        changed = re.sub(rf"\b{re.escape(word)}\b", other, claim, count=1, flags=re.I)
        if changed != claim:
            made.append(changed)
    return made


def test_claims_with_a_word_changed_are_rarely_reassured() -> None:
    """Real COVID-Fact claims that the judge supports, each with one word changed in turn to a
    random word of the corpus: a lexical judge is fooled only where the new word stands in the
    source next to the claim's other words ("Closed environments through secondary
    transmission" against "may transmit through aerosol … closed environments contribute to
    secondary transmission"). Measured: 3.7% of 840 (every supported claim); the rule in
    docs/grounding.md says why it cannot be 0."""
    path = CORPUS / "grounding" / "covidfact" / "covidfact_lines1001-end.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    supported = [r for r in rows if r["label"] == "SUPPORTED"][::4]
    vocabulary = sorted({t for r in rows for t in tokens(r["claim"]) if t.isalpha() and len(t) > 3})
    rng = random.Random(7)
    judge = LocalJudge()
    tried = reassured = 0
    for row in supported:
        evidence = [RankedPassage(Passage("s", 1, " ".join(row["evidence"])), 1.0)]
        if judge.judge(row["claim"], evidence).status is not GroundingStatus.SUPPORTED:
            continue
        for changed in _counter_claims(row["claim"], vocabulary, rng):
            tried += 1
            status = judge.judge(changed, evidence).status
            if status in (GroundingStatus.SUPPORTED, GroundingStatus.PARTIAL):
                reassured += 1
    assert tried > 100
    assert reassured <= 0.06 * tried
