"""The local judge: transparent lexical rules, fully offline, and honest about being lexical.

It reads the claim against each sentence of the passages (and each pair of adjacent sentences,
which a claim may sum up) and says:

- UNSUPPORTED only with positive evidence of a conflict in a sentence that shares enough of the
  claim's words (`conflict.py`: a changed number, a negation or contrast on one side only, a
  word put in another's place that means its opposite or names another entity, swapped sides
  of a contrast, a direction stated the other way, a denial), shown as what the source says;
- SUPPORTED when the sentence that shares most of the claim states most of its content words
  and every number it states, nothing in it conflicts with the claim, no word of it stands in
  place of a claim's word without the lexicon (WordNet, where installed) knowing them as the
  same, and the passage gives every name the claim gives (an identifier, an acronym);
- PARTIAL when about half of the claim is there, on the same terms;
- UNCONFIRMED otherwise: finding neither support nor conflict is not evidence against the
  writer, and a word the judge cannot place (a paraphrase, or a substitution) is neither.

Conflict is looked for before support is granted: a sentence that supports the claim never
hides one that contradicts it unless it states the claim more fully than the contradicting one.
Its precision is measured (`bench/local_judge.py` on the labelled claim/evidence pairs and on
claims with one slot changed), not assumed; every reason it gives says that it is a lexical
judge, and whether WordNet was there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from citecore.ground.evidence import RankedPassage
from citecore.ground.judges import JudgeVerdict
from citecore.ground.judges.conflict import compare
from citecore.ground.judges.placing import abbreviated_alike, unnamed
from citecore.ground.judges.words import comparable, is_number, stem
from citecore.ground.lexicon import Lexicon, lexicon
from citecore.ground.tokens import content_tokens, tokens
from citecore.model import GroundingStatus

SUPPORTED_SHARE = 0.65
PARTIAL_SHARE = 0.45
# How much of the claim must be in the sentence before a difference in it is a conflict rather
# than a sign that the sentence is about something else.
CONFLICT_SHARE = 0.40
_RULES_VERSION = "lexical-rules-v8"


def _sentences(text: str) -> list[str]:
    """The sentences of a passage; a paragraph break or a heading (`#` in the Markdown the PDF
    reader writes) ends a sentence too, so that a passage never runs into the next section."""
    blocks = re.split(r"\n\s*\n|\n(?=#)|\s(?=#{1,6} )", text.strip())
    parts = [
        part for block in blocks for part in re.split(r"(?<=[.!?;])\s+(?=[A-Z(\[])", block.strip())
    ]
    return [p for p in parts if p.strip()] or [text]


@dataclass(frozen=True, slots=True)
class _Reading:
    """How one passage sentence reads against the claim."""

    sentence: str
    share: float
    matched: int
    wanted: int
    conflict: str  # what the source says against the claim, "" when nothing does
    substitution: str  # a claim's word the sentence replaces with one the judge cannot place
    missing_numbers: frozenset[str]
    # Numbers the sentence gives that the claim does not, when the claim's own are not there.
    other_numbers: frozenset[str]


def _share(claim: str, sentence: str, stated: frozenset[str]) -> tuple[float, int, int]:
    """How much of the claim's content the sentence states: its content words, by stem, and
    those it states by an abbreviation (`stated`). (A synonym does not count here: measured, it
    let more unsupported claims reach `supported` than it let supported ones.)"""
    wanted = {stem(w) for w in content_tokens(claim) if not is_number(w)}
    present = {stem(w) for w in content_tokens(sentence) + list(stated)}
    matched = len(wanted & present)
    return (matched / len(wanted) if wanted else 0.0), matched, len(wanted)


def _read(claim: str, original: str, words: Lexicon, passage: str) -> _Reading:
    """How the sentence `original` of `passage` reads against the claim (the claim and the
    passage as `comparable` gives them; an abbreviation on one side read as the words the other
    spells out)."""
    alike = abbreviated_alike(claim, comparable(original))
    share, matched, wanted = _share(claim, alike.sentence, alike.stated)
    claim, sentence = alike.claim, alike.sentence
    passage = abbreviated_alike(claim, passage).sentence
    claim_numbers = {t for t in tokens(claim) if is_number(t)}
    stated_numbers = {t for t in tokens(sentence) if is_number(t)}
    missing = frozenset(claim_numbers - stated_numbers)
    conflict = substitution = ""
    if share >= CONFLICT_SHARE:
        comparison = compare(claim, sentence, words, passage)
        # The quote is of the source as written ("sixteen", not "16").
        conflict = comparison.conflict.replace(
            f'"{" ".join(sentence.split())}"', f'"{" ".join(original.split())}"'
        )
        substitution = comparison.substitution
    others = frozenset(stated_numbers - claim_numbers) if missing else frozenset()
    return _Reading(original, share, matched, wanted, conflict, substitution, missing, others)


class LocalJudge:
    """Lexical agreement between claim and passage, with conflict evidence for UNSUPPORTED."""

    name = "local"

    def __init__(self, words: Lexicon | None = None) -> None:
        self.words = words if words is not None else lexicon()
        # The model names the lexicon too: a verdict given without WordNet is not reused with it.
        self.model = _RULES_VERSION + ("+wordnet-3.0" if self.words.known else "")

    def judge(
        self, claim: str, evidence: Sequence[RankedPassage], keys: Sequence[str] = ()
    ) -> JudgeVerdict:
        """SUPPORTED, PARTIAL, UNSUPPORTED (with the conflict) or UNCONFIRMED, with the passage
        and the rule that decided."""
        del keys  # the evidence already comes from the cited keys' sources
        compared = comparable(claim)
        readings = []
        texts = []
        for ranked in evidence:
            passage = comparable(ranked.passage.text)
            texts.append(passage)
            singles = [
                _read(compared, sentence, self.words, passage)
                for sentence in _sentences(ranked.passage.text)
            ]
            # A claim may sum up two sentences of its source: the pair is read for support, and
            # conflicts with what either sentence says (as each was read alone).
            pairs = [
                replace(
                    _read(compared, f"{a.sentence} {b.sentence}", self.words, passage),
                    conflict=a.conflict or b.conflict,
                )
                for a, b in pairwise(singles)
            ]
            readings += [(reading, ranked) for reading in singles + pairs]
        if not readings:
            return self._verdict(GroundingStatus.UNCONFIRMED, "", "no passage shares its words")
        reading = max(readings, key=lambda pair: (pair[0].share, pair[1].score))[0]
        words = f"{reading.matched}/{reading.wanted} content words of the claim in the passage"
        conflicting = [r for r, _ in readings if r.conflict and r.share >= CONFLICT_SHARE]
        if conflicting and not (reading.share >= SUPPORTED_SHARE and not reading.conflict):
            worst = max(conflicting, key=lambda r: r.share)
            return self._verdict(GroundingStatus.UNSUPPORTED, worst.sentence, worst.conflict)
        absent = unnamed(compared, " ".join(texts))
        if reading.share >= PARTIAL_SHARE and absent:
            return self._verdict(
                GroundingStatus.UNCONFIRMED,
                reading.sentence,
                f"the passage never names {', '.join(absent)} ({words})",
            )
        if reading.share >= PARTIAL_SHARE and reading.substitution:
            return self._verdict(
                GroundingStatus.UNCONFIRMED,
                reading.sentence,
                f"{reading.substitution}, and the judge cannot tell whether they mean the same "
                f"({words})",
            )
        if reading.share >= SUPPORTED_SHARE and not reading.missing_numbers:
            return self._verdict(GroundingStatus.SUPPORTED, reading.sentence, words)
        if reading.other_numbers:
            # Its numbers are not there and others are: not even partly what the source says.
            return self._verdict(
                GroundingStatus.UNCONFIRMED,
                reading.sentence,
                f"the passage gives {', '.join(sorted(reading.other_numbers))} where the claim "
                f"gives {', '.join(sorted(reading.missing_numbers))} ({words})",
            )
        if reading.share >= PARTIAL_SHARE:
            return self._verdict(GroundingStatus.PARTIAL, reading.sentence, words)
        return self._verdict(
            GroundingStatus.UNCONFIRMED,
            reading.sentence,
            f"neither support nor conflict found ({words})",
        )

    def close(self) -> None:
        """Nothing to release: the local judge holds no connection."""

    def _verdict(self, status: GroundingStatus, passage: str, reason: str) -> JudgeVerdict:
        judge = "lexical judge" if self.words.known else f"lexical judge ({self.words.description})"
        return JudgeVerdict(status, passage, f"{judge}: {reason}", self.name, self.model)
