"""Which words of a claim a source sentence carries: the local judge's rule for support.

A careful reader grants that a passage states a claim only when every word of the claim that
carries content is there: the same word in another form ("reduces"/"reduction"), a word that
means it (a WordNet synonym, or a kind of it: the source's "kinases" carries the claim's
"enzymes", never the other way), an abbreviation of it or its spelled-out form, a number equal
in value ("8" and "08", "1,000" and "1000", "two" and "2"). A word the sentence does not carry is
named in the verdict's reason: a claim that changes one word of its source ("reduces" into
"increases", "key" into "resistant") is never reassured by the words it kept.

Words that say how the claim is reported rather than what it states ("a study found that …",
"researchers report …") carry no content of their own and need no match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from citecore.ground.judges.directions import along_at, direction_at
from citecore.ground.judges.negation import denies_alike
from citecore.ground.judges.placing import (
    SIGNALS,
    abbreviated_alike,
    abbreviates,
    written_short_forms,
)
from citecore.ground.judges.words import is_number, number_value, stem
from citecore.ground.lexicon import Lexicon
from citecore.ground.tokens import DENIALS, STOP_WORDS, tokens

# How a claim is reported, not what it states (by stem, so every form counts): reporting verbs,
# the reporters, hedges, and the signals that introduce a citation ("see", "cf."). A word of
# this list changed in a counter-claim changes the report, not the finding.
_REPORTING = frozenset(
    stem(word)
    for word in """study studies research researchers scientists authors investigators paper
    article report reports reported finds found finding findings show shows showed shown
    suggest suggests suggested demonstrate demonstrates demonstrated reveal reveals revealed
    indicate indicates indicated according say says said note notes noted observe observes
    observed evidence possibly potentially likely probably perhaps""".split()
) | frozenset(stem(word) for word in SIGNALS)
# Connectives: how a claim joins what it states ("rather than", "whereas"), not what it states;
# the conflict rules read them.
_CONNECTIVES = frozenset(
    """rather instead unlike whereas although though however while thus therefore hence
    moreover furthermore additionally respectively""".split()
)
_PIECES = re.compile(r"[^\W\d_]+|\d+(?:[.,]\d+)*")


# Words the tokens' stop list leaves out that change what a claim states ("all patients",
# "the most common", "only in children"): a claim that says them needs a source that does.
_QUANTIFIERS = frozenset("all most each every both only more".split())
# How much further apart (in words) than in the claim two words the claim puts near each other
# may stand in the source and still be said of each other ("patients with severe COVID-19" for
# "severe COVID-19 patients"); a word the source carries only further than that from the two
# carried words on either side of it in the claim is said of something else there. Measured
# (bench/grounding_sets.py, and claims with a word changed as in tests/ground/test_carried.py):
# a fixed 8 words reassured 5.3% of changed claims, a fixed 6 3.2% but left verbatim sentences
# with many stop words between their words unsupported; 6 words, or the claim's own distance
# and 3 where that is more, reassure 3.7% and support them.
REACH = 3
_NEAR = 6
_NEIGHBOURS = 2


def _pieces(token: str) -> list[str]:
    """A word's runs of letters and of digits ("covid19": "covid", "19")."""
    return [token] if is_number(token) else _PIECES.findall(token) or [token]


def _form(piece: str) -> str:
    """How a piece of a word is looked up: a number by its value, a word by its stem."""
    return number_value(piece) if is_number(piece) else stem(piece)


def claim_words(claim: str) -> list[str]:
    """The words of a claim that carry content and must be carried by a passage that states it,
    each once, in the claim's order (stop words, one-letter words and reporting words left out,
    quantifiers kept; a negation of any form as "not", which any denial of the source carries)."""
    found: dict[str, None] = {}
    for token in tokens(claim):
        denial = token in DENIALS or token.endswith("n't")
        if not denial and (
            (token in STOP_WORDS and token not in _QUANTIFIERS) or token in _CONNECTIVES
        ):
            continue
        if denial:
            found.setdefault("not", None)  # every negation is carried by any denial
            continue
        if is_number(token) or (len(token) > 1 and stem(token) not in _REPORTING):
            found.setdefault(token, None)
    return list(found)


@dataclass(frozen=True, slots=True)
class Carried:
    """The claim's words a sentence carries, those it does not (in the claim's order), and those
    it carries only apart from every word next to them in the claim."""

    carried: tuple[str, ...]
    missing: tuple[str, ...]
    apart: tuple[str, ...] = ()

    @property
    def share(self) -> float:
        """The share of the claim's words carried (1.0 for a claim without content words)."""
        total = len(self.carried) + len(self.missing)
        return len(self.carried) / total if total else 1.0


class SentenceWords:
    """One source sentence's words as the support rule compares them: each word's stem, and a
    number's value, with the places (word positions) where the sentence says it."""

    def __init__(self, sentence: str) -> None:
        self.sentence = sentence
        self.tokens = tokens(sentence)
        self.places: dict[str, list[int]] = {}
        content: dict[str, int] = {}
        stops = STOP_WORDS - _QUANTIFIERS
        for position, token in enumerate(self.tokens):
            forms = {stem(token)} | {_form(p) for p in _pieces(token)}
            for form in forms:
                self.places.setdefault(form, []).append(position)
            if token not in stops and not is_number(token) and len(token) > 1:
                content.setdefault(token, position)
        self.content = content
        self.short_forms = written_short_forms(sentence)
        # Where the sentence denies: a negation, or a word that denies ("unlikely", "absent").
        self.denials = [i for i, t in enumerate(self.tokens) if t in DENIALS or t.endswith("n't")]


# The authors speaking of their own work: "we trained on WMT 2014" says it of the Transformer
# that the paper names.
_FIRST_PERSON = frozenset("we our us".split())


@dataclass(frozen=True, slots=True)
class _Reading:
    """One claim read against one source sentence: what every word of the claim is looked for
    with."""

    claim: str
    claim_tokens: list[str]
    sentence: SentenceWords
    lexicon: Lexicon
    subject: frozenset[str]
    stated: frozenset[str]  # the claim's words the sentence abbreviates alike
    claim_short: frozenset[str]  # short forms the claim writes out
    units: dict[str, str]  # the unit each number of the claim is given in
    first_person: bool  # the authors speak of their own work ("we")


def carried_words(
    claim: str,
    words: Iterable[str],
    sentence: SentenceWords,
    lexicon: Lexicon,
    subject: frozenset[str] = frozenset(),
) -> Carried:
    """Which of the claim's `words` (as `claim_words` gives them) the sentence carries: by
    stem, by a number's value and unit (the word after it, where the claim gives one), by an
    abbreviation either way round, or by a word the lexicon
    knows as the claim's word or a kind of it (or a direction word of the same scale and way:
    "decreased" for "declined"), or, in a sentence where the authors speak as "we", by a name
    of the `subject` (the names of the claim that the source gives elsewhere: the work the
    authors speak of); and which it carries only apart from the words
    next to them in the claim (more than `REACH` words from each)."""
    claim_tokens = tokens(claim)
    reading = _Reading(
        claim,
        claim_tokens,
        sentence,
        lexicon,
        subject,
        frozenset(abbreviated_alike(claim, sentence.sentence).stated),
        frozenset(written_short_forms(claim)),
        _units(claim_tokens),
        bool(_FIRST_PERSON & set(sentence.tokens)),
    )
    places: dict[str, list[int] | None] = {}
    for word in words:
        found = _number_places(word, reading) if is_number(word) else _word_places(word, reading)
        if found is None or found:
            places[word] = found
    carried = tuple(w for w in words if w in places)
    missing = tuple(w for w in words if w not in places)
    sequence = [(w, at) for w, at in _sequence(claim_tokens, words) if w in places]
    return Carried(carried, missing, _apart(sequence, places))


def _number_places(number: str, reading: _Reading) -> list[int]:
    """Where the sentence gives the number's value, in the claim's unit when it gives one."""
    sentence, units = reading.sentence, reading.units
    return [
        place
        for place in sentence.places.get(number_value(number), [])
        if number not in units or _unit_after(sentence.tokens, place) == units[number]
    ]


def _word_places(word: str, reading: _Reading) -> list[int] | None:
    """Where the sentence says the word: by stem (a negation: where it denies the same words),
    its pieces written apart, a word along it or the lexicon's; None when it says it in no one
    place but as a whole (see `_said_as_a_whole`); empty when not at all."""
    sentence = reading.sentence
    found = list(sentence.places.get(stem(word), []))
    if word == "not":
        # The claim's negations, each denied of the same words by the sentence.
        found = sentence.denials if denies_alike(reading.claim, sentence.sentence) else []
    pieces = _pieces(word)
    if not found and len(pieces) > 1 and all(_form(p) in sentence.places for p in pieces):
        # "COVID-19" read as "covid19" is said by "COVID 19" too.
        found = list(sentence.places[_form(pieces[0])])
    claimed = reading.claim_tokens
    at = claimed.index(word) if word in claimed else -1
    if at >= 0 and direction_at(claimed, at, inferred=False):
        # A direction word is carried only by a word stating the same direction where it
        # stands: the source's "induced" of "induced significant reductions" carries neither
        # "increased" nor the "induced" of a claim that the storm was induced.
        found = [p for p in found if along_at(sentence.tokens, p, claimed, at)]
    found += [
        p
        for other, p in sentence.content.items()
        if (at >= 0 and along_at(sentence.tokens, p, claimed, at))
        or reading.lexicon.says(other, word)
    ]
    if not found and _said_as_a_whole(word, reading):
        return None
    return found


def _said_as_a_whole(word: str, reading: _Reading) -> bool:
    """A name the authors' "we" stands for, or an abbreviation of a run of words (either way
    round): anywhere in the sentence will do."""
    sentence = reading.sentence
    return (
        (reading.first_person and word in reading.subject)
        or word in reading.stated
        or (word in reading.claim_short and abbreviates(word, sentence.tokens))
        or any(abbreviates(short, reading.claim_tokens, word) for short in sentence.short_forms)
    )


def _sequence(claim_tokens: list[str], words: Iterable[str]) -> list[tuple[str, int]]:
    """The claim's `words` (as `claim_words` gives them) in its order, each as often as it
    stands, with its place among the claim's tokens."""
    wanted = set(words)
    return [
        (token if token in wanted else "not", at)
        for at, token in enumerate(claim_tokens)
        if token in wanted or token in DENIALS
    ]


_YEAR = re.compile(r"1[5-9]\d\d|20\d\d")


def _units(claim_tokens: list[str]) -> dict[str, str]:
    """The unit each number of the claim is given in: the word right after it ("14 days", "78
    percent"), by stem; a number followed by a stop word or another number has none, nor a
    year ("In 1943, Sir John gave": the name after it is no unit)."""
    units: dict[str, str] = {}
    for token, after in pairwise(claim_tokens):
        if _YEAR.fullmatch(token):
            continue
        if is_number(token) and after.isalpha() and after not in STOP_WORDS:
            units.setdefault(token, stem(after))
    return units


def _unit_after(sentence_tokens: list[str], place: int) -> str:
    """The stem of the word after the number at `place` ("" at the end)."""
    return stem(sentence_tokens[place + 1]) if place + 1 < len(sentence_tokens) else ""


def _apart(sequence: list[tuple[str, int]], places: dict[str, list[int] | None]) -> tuple[str, ...]:
    """The carried words that stand further from every place of the carried words next to them
    in the claim than `_NEAR` words, or than they stand in the claim give or take `REACH` where
    that is more (`sequence`: the claim's
    carried words in its order with their places in it, each as often as the claim says it;
    claims of one carried word have no neighbours to be apart from)."""
    placed: set[str] = set()
    for index, (word, at) in enumerate(sequence):
        neighbours = [
            (other, there)
            for other, there in sequence[max(0, index - _NEIGHBOURS) : index]
            + sequence[index + 1 : index + 1 + _NEIGHBOURS]
            if other != word
        ]
        mine = places[word]
        if not neighbours or mine is None:
            placed.add(word)
            continue
        for other, there in neighbours:
            theirs = places[other]
            allowed = max(_NEAR, abs(at - there) + REACH)
            if theirs is None or any(abs(a - b) <= allowed for a in mine for b in theirs):
                placed.add(word)
                break
    return tuple(w for w in dict.fromkeys(w for w, _ in sequence) if w not in placed)
