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
from citecore.ground.judges.carried import Carried, SentenceWords, carried_words, claim_words
from citecore.ground.judges.conflict import compare
from citecore.ground.judges.placing import abbreviated_alike, names, unnamed
from citecore.ground.judges.words import as_written, comparable, is_number
from citecore.ground.lexicon import Lexicon, lexicon
from citecore.ground.tokens import tokens
from citecore.model import GroundingStatus

# How much of the claim a sentence must carry before a difference in it is a conflict rather
# than a sign that the sentence is about something else: a sentence that states the claim
# otherwise carries every word of it but those in conflict. Its numbers aside (a changed number
# is the conflict), it may lack a quarter of the claim's words, and one word in any case (the
# word put in another's place).
CONFLICT_SHARE = 0.75
# A sentence is read for conflicts when it carries this much of the claim: a conflict it shows
# counts where it, or it with the sentence next to it, carries `CONFLICT_SHARE` (a claim may sum
# up two sentences, one of which says otherwise of its second half).
_READ_SHARE = 0.25
_RULES_VERSION = "lexical-rules-v10"


def _listed(words: Sequence[str], joined: str = "or") -> str:
    """Words as a reason names them: 'a', 'b' or 'c'."""
    quoted = [f"'{w}'" for w in words]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} {joined} {quoted[-1]}"


# Where a claim's clauses part: commas, semicolons, and the words that set one clause against
# another.
_CLAUSES = re.compile(r"[,;:]|\b(?:but|whereas|while|although)\b", re.I)
_HEADING_LINE = re.compile(r"(^#{1,6} [^\n]*$)", re.M)


def _sentences(text: str) -> list[str]:
    """The sentences of a passage; a paragraph break or a heading (`#` in the Markdown the PDF
    reader writes, a line of its own or run into the text) ends a sentence too, so that a
    passage never runs into the next section and a heading is never the start of a sentence."""
    blocks = [
        piece
        for block in re.split(r"\n\s*\n", text.strip())
        for part in _HEADING_LINE.split(block)
        for piece in re.split(r"\s(?=#{1,6} )", part)
    ]
    parts = [
        part
        for block in blocks
        for part in re.split(r"(?<=[.!?;])\s+(?=[\"“‘']?[A-Z(\[])", block.strip())
    ]
    return [p for p in parts if p.strip()] or [text]


@dataclass(frozen=True, slots=True)
class _Reading:
    """How one passage sentence (or two adjacent ones) reads against the claim."""

    sentence: str
    carried: Carried
    conflict: str  # what the source says against the claim, "" when nothing does
    substitution: str  # a claim's word the sentence replaces with one the judge cannot place
    # Whether the conflict is evidence against the claim: the sentence that shows it states
    # the claim (or, read beside its neighbour, the part of the claim it is about).
    accuses: bool = False

    @property
    def share(self) -> float:
        """The share of the claim's words the sentence carries."""
        return self.carried.share

    @property
    def states_claim(self) -> bool:
        """Whether the sentence carries enough of the claim for a difference to be a conflict:
        its words but numbers, all but a quarter of them or one."""
        words = [w for w in self.carried.carried + self.carried.missing if not is_number(w)]
        missing = [w for w in self.carried.missing if not is_number(w)]
        return len(missing) <= max(1, int(len(words) * (1 - CONFLICT_SHARE)))


def _read(
    claim: str,
    words: list[str],
    lexicon: Lexicon,
    original: str,
    subject: frozenset[str] = frozenset(),
) -> _Reading:
    """How the source sentence `original` reads against the claim (as `comparable` gives it; an
    abbreviation on one side read as the words the other spells out; `subject`: the claim's
    names the source gives elsewhere)."""
    sentence = comparable(original)
    carried = carried_words(claim, words, SentenceWords(sentence), lexicon, subject)
    conflict = substitution = ""
    if carried.share >= _READ_SHARE:
        alike = abbreviated_alike(claim, sentence)
        comparison = compare(alike.claim, alike.sentence, lexicon)
        # The quote is of the source as written ("sixteen", not "16").
        conflict = comparison.conflict.replace(
            f'"{" ".join(alike.sentence.split())}"', f'"{" ".join(original.split())}"'
        )
        substitution = comparison.substitution
    reading = _Reading(original, carried, conflict, substitution)
    return replace(reading, accuses=bool(conflict) and reading.states_claim)


def conflict_in(claim: str, passage: str, words: Lexicon) -> str:
    """What a sentence of `passage` says against the claim, by the local judge's conflict rules
    (in a sentence that carries the claim's words but those in conflict); "" when nothing does."""
    compared = comparable(claim)
    wanted = claim_words(compared)
    for sentence in _sentences(passage):
        reading = _read(compared, wanted, words, sentence)
        if reading.accuses:
            return reading.conflict
    return ""


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
        """SUPPORTED (every word of the claim carried, nothing in conflict), UNSUPPORTED (with
        the conflict) or UNCONFIRMED (naming the words the passage does not carry), with the
        passage and the rule that decided."""
        del keys  # the evidence already comes from the cited keys' sources
        compared = comparable(claim)
        words = claim_words(compared)
        texts = [comparable(ranked.passage.text) for ranked in evidence]
        given = set(tokens(" ".join(texts)))
        subject = frozenset(name for name in names(compared) if name in given)
        readings = self._readings(compared, words, evidence, subject)
        if not readings:
            return self._verdict(GroundingStatus.UNCONFIRMED, "", "no passage shares its words")
        reading = max(
            readings, key=lambda pair: (pair[0].share, -len(pair[0].carried.apart), pair[1].score)
        )[0]
        conflicting = [r for r, _ in readings if r.accuses]
        # A conflict elsewhere stands unless the best reading carries every word unopposed.
        if conflicting and (reading.carried.missing or reading.conflict):
            worst = max(conflicting, key=lambda r: r.share)
            return self._verdict(GroundingStatus.UNSUPPORTED, worst.sentence, worst.conflict)
        count = f"{len(reading.carried.carried)}/{len(words)} words of the claim in the passage"
        doubt = _doubt(reading, claim, unnamed(compared, " ".join(texts)))
        if doubt:
            return self._verdict(
                GroundingStatus.UNCONFIRMED, reading.sentence, f"{doubt} ({count})"
            )
        return self._verdict(GroundingStatus.SUPPORTED, reading.sentence, count)

    def _readings(
        self,
        compared: str,
        words: list[str],
        evidence: Sequence[RankedPassage],
        subject: frozenset[str],
    ) -> list[tuple[_Reading, RankedPassage]]:
        """Every sentence of every passage read against the claim, and every two sentences side
        by side: a claim may sum up two sentences of its source, so the pair is read for
        support, and conflicts with what either sentence says (as each was read alone)."""
        readings = []
        for ranked in evidence:
            singles = [
                _read(compared, words, self.words, sentence, subject)
                for sentence in _sentences(ranked.passage.text)
            ]
            pairs = [
                self._pair(
                    compared,
                    _read(compared, words, self.words, f"{a.sentence} {b.sentence}", subject),
                    a,
                    b,
                )
                for a, b in pairwise(singles)
            ]
            readings += [(reading, ranked) for reading in singles + pairs]
        return readings

    def _pair(self, claim: str, read: _Reading, first: _Reading, second: _Reading) -> _Reading:
        """Two adjacent sentences read together: their words carry the claim together, and what
        either says against it blocks support; but a conflict accuses only where the sentence
        that shows it states the claim, or states a clause of a claim the two sum up ("…, without
        any improvement across the datasets" against "The improvement held across all
        datasets") — a sentence sharing a few of the claim's words is about something else
        ("In 1929, Sir John sold the village" says nothing against "In 1943, Sir John gave the
        house and grounds to the National Trust")."""
        conflict = first.conflict or second.conflict
        shown = [r for r in (first, second) if r.conflict]
        accuses = any(r.accuses for r in shown) or (
            read.states_claim and any(self._states_a_clause(claim, r.sentence) for r in shown)
        )
        return replace(read, conflict=conflict, accuses=bool(conflict) and accuses)

    def _states_a_clause(self, claim: str, sentence: str) -> bool:
        """Whether the sentence carries a clause of the claim (between its commas, semicolons and
        contrasts; two content words or more) as a sentence must carry a claim to contradict it."""
        words = SentenceWords(comparable(sentence))
        for clause in _CLAUSES.split(claim):
            wanted = claim_words(clause)
            if len([w for w in wanted if not is_number(w)]) < 2:
                continue
            carried = carried_words(clause, wanted, words, self.words)
            reading = _Reading(sentence, carried, "", "")
            if reading.states_claim:
                return True
        return False

    def close(self) -> None:
        """Nothing to release: the local judge holds no connection."""

    def _verdict(self, status: GroundingStatus, passage: str, reason: str) -> JudgeVerdict:
        judge = "lexical judge" if self.words.known else f"lexical judge ({self.words.description})"
        return JudgeVerdict(status, passage, f"{judge}: {reason}", self.name, self.model)


def _doubt(reading: _Reading, claim: str, absent: Sequence[str]) -> str:
    """Why the best reading does not confirm the claim, in the order that says most: a name
    the passage never gives, a word the source puts in the claim's word's place, words it does
    not say, words it says apart from those the claim says them of; "" when nothing is
    missing."""
    carried = reading.carried
    if absent:
        return f"the passage never names {', '.join(absent)}"
    if reading.substitution:
        return f"{reading.substitution}, and the judge cannot tell whether they mean the same"
    if carried.missing:
        return (
            f"the passage does not say {_listed([as_written(w, claim) for w in carried.missing])}"
        )
    if carried.apart:
        them = "it" if len(carried.apart) == 1 else "them"
        return (
            f"the passage says {_listed(carried.apart, 'and')} apart from the words the claim "
            f"says {them} of"
        )
    return ""
