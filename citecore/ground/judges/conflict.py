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

import re
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

from citecore.ground.judges.directions import direction_conflict, direction_doubt, opposed
from citecore.ground.judges.negation import CUES, NEGATIONS_PROPER, denied, negated_in_source
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
        _swapped_contrast(claim, sentence)
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


def _slot_cues(words: list[str]) -> set[str]:
    """The negation and contrast words of an aligned slot, less those that set a case aside
    ("premenopausal, but not postmenopausal, cancer" denies nothing of premenopausal cancer)."""
    return {
        t
        for i, t in enumerate(words)
        if (t in CUES or t.endswith("n't")) and not (i and words[i - 1] == "but")
    }


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


def _difference(slot: _Slot, entities: set[str], lexicon: Lexicon) -> str:
    """What one aligned difference says: a changed number, a negation or contrast on one side,
    an entity or an opposite put in a word's place; "" when it is only wording. A word is not
    put in another's place when the claim uses it too, or the source the other: "DCs and
    ILCs" against "ILCs and DCs" is word order, not a substitution."""
    return _changed_number(slot) or _one_sided_cue(slot) or _word_replaced(slot, entities, lexicon)


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


def _one_sided_cue(slot: _Slot) -> str:
    """A negation or contrast on one side of the slot only. A contrast on one side is no
    conflict where the other side contrasts too: "X rather than Y" against "X matters more than
    Y" says it otherwise."""
    cues_claimed, cues_stated = _slot_cues(slot.claimed), _slot_cues(slot.stated)
    if bool(cues_claimed) == bool(cues_stated):
        return ""
    cue = sorted(cues_claimed or cues_stated)[0]
    side = "the claim" if cues_claimed else "the source"
    facing = slot.sentence_words if cues_claimed else slot.claim_words
    if cue in NEGATIONS_PROPER or cue.endswith("n't") or not _CONTRAST.search(" ".join(facing)):
        return f"'{cue}' in {side} only"
    return ""


def _word_replaced(slot: _Slot, entities: set[str], lexicon: Lexicon) -> str:
    """An opposite, or another entity, in the place of a word of the claim."""
    for word, other in _replacements(slot):
        # Before the test for one word inside the other: "ineffective" holds "effective".
        if _opposites(word, other, lexicon):
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
        )
        found = _difference(slot, entities, lexicon)
        if found:
            return found, ""
        if not substitution and tag == "replace":
            substitution = _substituted(slot, lexicon)
    return "", substitution


_CONTRAST = re.compile(
    r"\b(rather than|instead of|unlike|as opposed to|in contrast to|"
    # a comparison: "X is faster than Y" sets Y aside as "rather than" does; "more than 600" is
    # a quantity, not a comparison
    r"(?<!more )(?<!less )(?<!fewer )(?<!greater )(?<!other )than(?! \d))\b",
    re.I,
)


def _contrast_roles(text: str) -> tuple[set[str], set[str]] | None:
    """The two sides of a contrast as content stems: what is set aside ("rather than X", "unlike
    X", "instead of X", "faster than X": the words after the connective, to the comma or the
    end) and what is stated (the rest of the sentence); None without a contrast connective."""
    match = _CONTRAST.search(text)
    if match is None:
        return None
    after = text[match.end() :]
    comma = after.find(",")
    if match.start() < 3 and comma >= 0:  # "Rather than X, Y"
        aside, stated = after[:comma], after[comma + 1 :]
    else:  # "Y rather than X", "Y, unlike X, …"
        aside = after[:comma] if comma >= 0 else after
        stated = text[: match.start()] + (after[comma + 1 :] if comma >= 0 else "")
    return (
        {stem(t) for t in content_tokens(aside)},
        {stem(t) for t in content_tokens(stated)},
    )


def _swapped_contrast(claim: str, sentence: str) -> str:
    """A contrast whose two sides the claim has swapped ("rather than relying on SymPy, unyt
    implements its own algebra" against "rather than implementing algebra, we rely on SymPy"):
    what each sets aside and the other does not, the other states."""
    claimed, stated = _contrast_roles(claim), _contrast_roles(sentence)
    if claimed is None or stated is None:
        return ""
    (claim_aside, claim_said), (source_aside, source_said) = claimed, stated
    # The words the two sides do not share ("male"/"female" of "male prisoners" and "female
    # prisoners"): each set aside by one and, at least half of them, stated by the other.
    claim_only, source_only = claim_aside - source_aside, source_aside - claim_aside
    if not all(
        only and 2 * len(only & said) >= len(only)
        for only, said in ((claim_only, source_said), (source_only, claim_said))
    ):
        return ""
    return (
        "the claim swaps the sides of the contrast: what the source sets aside the claim "
        f"states, and the other way round: {quote(sentence)}"
    )


def _number_conflict(claim: str, sentence: str) -> str:
    """A number of the claim that the sentence gives otherwise for the same thing: the same
    word right after it ("750 million", "35 percent") with another number before it."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    stated = {number_value(t) for t in sentence_words if is_number(t)}
    for index, word in enumerate(claim_words[:-1]):
        unit = claim_words[index + 1]
        if not is_number(word) or number_value(word) in stated or is_number(unit) or unit in _STOPS:
            continue
        for position, other in enumerate(sentence_words[:-1]):
            if is_number(other) and sentence_words[position + 1] == unit:
                return (
                    f"the source says {other} {unit} where the claim says {word} {unit}: "
                    f"{quote(sentence)}"
                )
    return ""
