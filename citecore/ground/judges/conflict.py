"""What in a source sentence says otherwise than a claim: the local judge's conflict rules.

The claim is aligned to the sentence word by word. Where the two differ between stretches they
share, the difference is read as a reader would read it:

- a changed number ("2017" where the claim says "2005"; number words read as numbers);
- a negation or contrast on one side only ("not", "without", "rather than", "instead of");
- a word put in another's place that means its opposite (a direction word, a prefix opposite,
  a WordNet antonym) or that names another entity;
- the two sides of a contrast swapped ("rather than X, Y" against "rather than Y, X");
- a direction stated the other way of the same words ("reduces X" against "X was increased");
- the source denying what the claim states plainly ("was not associated with …").

Each is a *conflict*, shown as what the source says where the claim says otherwise. A word put in
another's place that is none of these — neither the same meaning nor an opposite the lexicon
knows — is a *substitution*: no evidence against the writer, but no support either.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

from citecore.ground.judges.contrast import CONTRAST, contrast_roles, swapped_contrast
from citecore.ground.judges.directions import (
    direction_conflict,
    direction_doubt,
    negated,
    opposed,
    opposed_at,
)
from citecore.ground.judges.negation import (
    CUES,
    NEGATIONS_PROPER,
    denied,
    denies_anything,
    negated_in_source,
)
from citecore.ground.judges.placing import DISCOURSE, SIGNALS, displaced, same_word
from citecore.ground.judges.words import is_number, number_value, quote, stem
from citecore.ground.lexicon import Lexicon
from citecore.ground.tokens import content_tokens, named_entities, tokens

_OPPOSITE_PREFIXES = ("in", "un", "non", "dis", "im", "ir", "il", "anti")
_STOPS = frozenset("of the a an and or to in on for with by at as".split())
_MAX_GAP = 3  # tokens on either side of a difference between two aligned stretches
_NUMBER_GAP = 5  # a difference that holds numbers on both sides may be a little longer


@dataclass(frozen=True, slots=True)
class Comparison:
    """How a source sentence reads against a claim: what conflicts ("" when nothing does) and
    what the sentence puts in place of a claim's word without the judge knowing whether they
    mean the same ("" when nothing)."""

    conflict: str
    substitution: str


def compare(claim: str, sentence: str, lexicon: Lexicon) -> Comparison:
    """The conflicts and substitutions of a claim against one source sentence (both as
    `comparable` gives them)."""
    aligned, substitution = _aligned(claim, sentence, lexicon)
    conflict = (
        swapped_contrast(claim, sentence)
        or aligned
        or _number_conflict(claim, sentence)
        or direction_conflict(claim, sentence)
        or denied(claim, sentence)
        or negated_in_source(claim, sentence)
    )
    if conflict:
        return Comparison(conflict, "")
    return Comparison(
        "", substitution or displaced(claim, sentence, lexicon) or direction_doubt(claim, sentence)
    )


def _opposites(a: str, b: str, lexicon: Lexicon) -> bool:
    if opposed(a, b):
        return True
    short, long = sorted((a, b), key=len)
    if any(long == prefix + short for prefix in _OPPOSITE_PREFIXES) and len(short) >= 4:
        return True
    return lexicon.opposite(a, b)


def _slot_cues(words: list[str], start: int, length: int, facing: Counter[str]) -> set[str]:
    """The negation and contrast words of an aligned slot (`length` words of `words` from
    `start`), less those that set a case aside where the other side never speaks of it
    ("premenopausal, but not postmenopausal, cancer" denies nothing of premenopausal cancer;
    "but not on pushing results" against "but on pushing results" does)."""
    found = set()
    for i in range(start, start + length):
        word = words[i]
        if not (word in CUES or word.endswith("n't")):
            continue
        following = words[i + 1] if i + 1 < len(words) else ""
        if i and words[i - 1] == "but" and not facing[stem(following)]:
            continue
        found.add(word)
    return found


@dataclass(frozen=True, slots=True)
class _Slot:
    """One aligned difference: the claim's words, the sentence's words in their place, and the
    stems of the whole claim and the whole sentence."""

    claimed: list[str]
    stated: list[str]
    claim_words: list[str]
    sentence_words: list[str]
    claim_stems: Counter[str]
    sentence_stems: Counter[str]
    claim_start: int = 0  # where the slot's words begin in the claim, and in the sentence
    sentence_start: int = 0

    def claim_place(self, word: str) -> int:
        """Where a word of the slot stands in the claim."""
        return self.claim_start + self.claimed.index(word)

    def sentence_place(self, word: str) -> int:
        """Where a word of the slot stands in the sentence."""
        return self.sentence_start + self.stated.index(word)


def _difference(slot: _Slot, entities: set[str], lexicon: Lexicon) -> tuple[str, str]:
    """What one aligned difference says: a conflict — a changed number, a negation or contrast
    on one side, an entity or an opposite put in a word's place — or a doubt (a negation on one
    side that the other side may say in other words); ("", "") when it is only wording. A word
    is not put in another's place when the claim uses it too, or the source the other: "DCs and
    ILCs" against "ILCs and DCs" is word order, not a substitution."""
    conflict = _changed_number(slot)
    cue, doubt = _one_sided_cue(slot) if not conflict else ("", "")
    conflict = conflict or cue or _word_replaced(slot, entities, lexicon)
    return conflict, "" if conflict else doubt


def _changed_number(slot: _Slot) -> str:
    """A number of the claim the source gives another value in its place. A number the
    sentence states elsewhere is not changed here ("in 1925 he gave the hill … and in 1943 the
    park"); numbers compare by value ("08" is "8")."""
    values_stated = {number_value(t) for t in slot.sentence_words if is_number(t)}
    values_claimed = {number_value(t) for t in slot.claim_words if is_number(t)}
    numbers_claimed = [
        t for t in slot.claimed if is_number(t) and number_value(t) not in values_stated
    ]
    numbers_stated = [
        t for t in slot.stated if is_number(t) and number_value(t) not in values_claimed
    ]
    if not (numbers_claimed and numbers_stated):
        return ""
    return (
        f"the source says {', '.join(numbers_stated)} where the claim says "
        f"{', '.join(numbers_claimed)}"
    )


def _one_sided_cue(slot: _Slot) -> tuple[str, str]:
    """A negation or contrast on one side of the slot only: a conflict, or a doubt where the
    other side may deny it in other words. A contrast on one side is no conflict where the
    other side contrasts too: "X rather than Y" against "X matters more than Y" says it
    otherwise."""
    cues_claimed = _slot_cues(
        slot.claim_words, slot.claim_start, len(slot.claimed), slot.sentence_stems
    )
    cues_stated = _slot_cues(
        slot.sentence_words, slot.sentence_start, len(slot.stated), slot.claim_stems
    )
    if bool(cues_claimed) == bool(cues_stated):
        return "", ""
    cue = sorted(cues_claimed or cues_stated)[0]
    side = "the claim" if cues_claimed else "the source"
    facing = slot.sentence_words if cues_claimed else slot.claim_words
    said = f"'{cue}' in {side} only"
    if _negates_the_opposite(slot, bool(cues_claimed)):
        # "was not higher" against "was lower": not the opposite, and not the same either
        return "", f"{said}, before the opposite of the other's word"
    if cue in NEGATIONS_PROPER or cue.endswith("n't"):
        # Both deny, in other places or other words ("lack" against "were absent", "does not
        # support" against "no clinical data exist"): they may say it alike; no evidence
        # against the claim, and none for it.
        if denies_anything(facing) or CONTRAST.search(" ".join(facing)):
            # ("rather than files" sets files aside as "files are not written" denies them)
            return "", f"{said}, where the other denies in other words"
        return said, ""
    if CONTRAST.search(" ".join(facing)) or (cues_claimed and denies_anything(facing)):
        return "", ""  # the other side sets something aside too, or denies it
    if not _states_what_is_set_aside(slot, in_claim=bool(cues_claimed)):
        # "came from Europe rather than Asia" sets aside what a claim that never names Asia
        # does not say; a paraphrase's "rather than B" says nothing against a source silent
        # on B.
        return "", ""
    return said, ""


def _negates_the_opposite(slot: _Slot, in_claim: bool) -> bool:
    """Whether the negation of one side of the slot is said of a direction word that opposes
    one of the other side's ("not higher" where the other says "lower")."""
    words, start = (
        (slot.claim_words, slot.claim_start)
        if in_claim
        else (slot.sentence_words, slot.sentence_start)
    )
    others, other_start = (
        (slot.sentence_words, slot.sentence_start)
        if in_claim
        else (slot.claim_words, slot.claim_start)
    )
    length = len(slot.claimed if in_claim else slot.stated)
    other_length = len(slot.stated if in_claim else slot.claimed)
    return any(
        opposed_at(words, i, others, j)
        for i in range(start, start + length)
        if negated(words, i)
        for j in range(other_start, other_start + other_length)
    )


def _states_what_is_set_aside(slot: _Slot, in_claim: bool) -> bool:
    """Whether the other side states what one side's contrast sets aside ("rather than Asia"
    against a claim of Asia)."""
    text, other = (
        (slot.claim_words, slot.sentence_stems)
        if in_claim
        else (slot.sentence_words, slot.claim_stems)
    )
    roles = contrast_roles(" ".join(text))
    if roles is None:
        return True
    aside, stated = roles
    return bool((aside - stated) & set(other))


def _word_replaced(slot: _Slot, entities: set[str], lexicon: Lexicon) -> str:
    """An opposite, or another entity, in the place of a word of the claim."""
    for word, other in _replacements(slot):
        # Direction words are read where they stand: "induced significant reductions" states
        # the claim's "reduced"; "was not higher" does not state the opposite of "lower".
        claim_at, sentence_at = slot.claim_place(word), slot.sentence_place(other)
        directions = opposed_at(slot.claim_words, claim_at, slot.sentence_words, sentence_at)
        if directions is False:
            continue
        # Before the test for one word inside the other: "ineffective" holds "effective".
        if directions or (directions is None and _opposites(word, other, lexicon)):
            if negated(slot.claim_words, claim_at) != negated(slot.sentence_words, sentence_at):
                continue  # "not higher" against "lower": a reader cannot call it the opposite
            return f"the source says '{other}' where the claim says '{word}'"
        if word in other or other in word:
            continue
        if word in entities and other in entities:
            return f"the source says '{other}' where the claim says '{word}'"
    return ""


def _replacements(slot: _Slot) -> list[tuple[str, str]]:
    """(claim word, sentence word) pairs of a slot where each side says its word more often
    than the other side does: "DCs and ILCs" against "ILCs and DCs" is word order, but
    "unnecessarily small for this small dataset" against "unnecessarily large for this small
    dataset" puts 'large' in the place of one 'small'."""
    claimed, stated = slot.claim_stems, slot.sentence_stems
    return [
        (word, other)
        for word in slot.claimed
        if claimed[stem(word)] > stated[stem(word)]
        for other in slot.stated
        if stated[stem(other)] > claimed[stem(other)] and stem(word) != stem(other)
    ]


def _substituted(slot: _Slot, lexicon: Lexicon) -> str:
    """A content word of the claim that the sentence does not state, with content words of the
    sentence in its place none of which the lexicon knows as meaning the same (a synonym, a
    word one step more general or specific, a direction word of the same scale and way) or
    abbreviates: "" when the slot is only wording."""
    content = set(content_tokens(" ".join(slot.claimed))) - SIGNALS
    # A sentence word the claim uses elsewhere still stands in this word's place ("The LTR
    # pixel performs" against "The LTR model performs", "model" being in the claim later on).
    stated = [w for w in content_tokens(" ".join(slot.stated)) if w not in DISCOURSE]
    if not stated:
        return ""
    context = (slot.claim_words, slot.sentence_words)
    for word in slot.claimed:
        if word not in content or stem(word) in slot.sentence_stems or is_number(word):
            continue
        if any(same_word(word, other, context, lexicon) for other in stated):
            continue
        return f"the source says '{' '.join(stated)}' where the claim says '{word}'"
    return ""


def _aligned(claim: str, sentence: str, lexicon: Lexicon) -> tuple[str, str]:
    """The claim aligned to the sentence word by word: the first difference between stretches
    they share that says something else (a conflict), and the first word put in another's
    place that the lexicon cannot place (a substitution)."""
    entities = named_entities(claim) | named_entities(sentence)
    conflict, substitution = _slots(tokens(claim), tokens(sentence), entities, lexicon)
    if conflict:
        return f"{conflict}: {quote(sentence)}", ""
    return "", substitution


def _slots(
    claim_words: list[str], sentence_words: list[str], entities: set[str], lexicon: Lexicon
) -> tuple[str, str]:
    """The first conflict and the first substitution among the aligned slots of two word
    sequences."""
    claim_stems = [stem(t) for t in claim_words]
    sentence_stems = [stem(t) for t in sentence_words]
    content = {stem(t) for t in content_tokens(" ".join(claim_words))}
    opcodes = SequenceMatcher(None, claim_stems, sentence_stems, autojunk=False).get_opcodes()
    substitution = ""
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        numbers = any(map(is_number, claim_words[i1:i2])) and any(
            map(is_number, sentence_words[j1:j2])
        )
        gap = _NUMBER_GAP if numbers else _MAX_GAP
        if tag == "equal" or i2 - i1 > gap or j2 - j1 > gap:
            continue
        before = opcodes[index - 1] if index > 0 else None
        after = opcodes[index + 1] if index + 1 < len(opcodes) else None
        sides = [
            # an aligned stretch holding a content word, not only "of the"
            op is not None and op[0] == "equal" and bool(content & set(claim_stems[op[1] : op[2]]))
            for op in (before, after)
        ]
        if not any(sides):
            continue
        slot = _Slot(
            claim_words[i1:i2],
            sentence_words[j1:j2],
            claim_words,
            sentence_words,
            Counter(claim_stems),
            Counter(sentence_stems),
            i1,
            j1,
        )
        found, doubt = _difference(slot, entities, lexicon)
        if found:
            return found, ""
        if not substitution:
            substitution = doubt or (_substituted(slot, lexicon) if tag == "replace" else "")
    return "", substitution


def _number_conflict(claim: str, sentence: str) -> str:
    """A number of the claim that the sentence gives otherwise for the same thing: the same
    word right after it ("750 million", "35 percent") with another number before it."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    stated = {number_value(t) for t in sentence_words if is_number(t)}
    claimed = {number_value(t) for t in claim_words if is_number(t)}
    for index, word in enumerate(claim_words[:-1]):
        unit = claim_words[index + 1]
        if not is_number(word) or number_value(word) in stated or is_number(unit) or unit in _STOPS:
            continue
        for position, other in enumerate(sentence_words[:-1]):
            # A number the claim states too is no other value of this one: "from 25,000 to
            # 5,000 years ago" against "25,000 years ago".
            if number_value(other) in claimed:
                continue
            if is_number(other) and sentence_words[position + 1] == unit:
                return (
                    f"the source says {other} {unit} where the claim says {word} {unit}: "
                    f"{quote(sentence)}"
                )
    return ""
