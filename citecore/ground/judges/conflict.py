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
from dataclasses import dataclass
from difflib import SequenceMatcher

from citecore.ground.judges.directions import along, direction_conflict, on_one_scale, opposed
from citecore.ground.judges.words import is_number, quote, stem
from citecore.ground.lexicon import Lexicon
from citecore.ground.tokens import NEGATIONS, content_tokens, named_entities, normalize, tokens

_OPPOSITE_PREFIXES = ("in", "un", "non", "dis", "im", "ir", "il", "anti")
_STOPS = frozenset("of the a an and or to in on for with by at as".split())
_CUES = NEGATIONS | {"rather", "instead", "unlike", "lacking", "neither", "opposed"}
_MAX_GAP = 3  # tokens on either side of a difference between two aligned stretches
_NUMBER_GAP = 5  # a difference that holds numbers on both sides may be a little longer


@dataclass(frozen=True, slots=True)
class Comparison:
    """How a source sentence reads against a claim: what conflicts ("" when nothing does) and
    what the sentence puts in place of a claim's word without the judge knowing whether they
    mean the same ("" when nothing)."""

    conflict: str
    substitution: str


def compare(claim: str, sentence: str, lexicon: Lexicon, passage: str = "") -> Comparison:
    """The conflicts and substitutions of a claim against one source sentence of `passage`
    (all as `comparable` gives them)."""
    aligned, substitution = _aligned(claim, sentence, lexicon)
    conflict = (
        _swapped_contrast(claim, sentence)
        or aligned
        or _number_conflict(claim, sentence)
        or direction_conflict(claim, sentence)
        or _denied(claim, sentence, passage or sentence)
        or _negated_in_source(claim, sentence)
    )
    if conflict:
        return Comparison(conflict, "")
    return Comparison("", substitution or _displaced(claim, sentence, lexicon))


def _same(word: str, other: str, lexicon: Lexicon) -> bool:
    """Whether the lexicon, the direction scales or the stems know two words as one."""
    return (
        stem(word) == stem(other)
        or word in other
        or other in word
        or along(word, other)
        or lexicon.same_meaning(word, other)
    )


# Prepositions that the tokens' stop list leaves in: they relate words, never stand for one.
_PREPOSITIONS = frozenset(
    """during after before among between within across against versus vs upon without under
    over through toward towards despite""".split()
)


def _displaced(claim: str, sentence: str, lexicon: Lexicon) -> str:
    """A content word of the claim that the sentence does not state, next to a content word
    they share, where the sentence has another content word next to that one: "breast dimer"
    against "breast cancer", "thyroid lifetime" against "thyroid volume". The alignment of the
    whole sentence misses it when the claim is worded otherwise around it."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    sentence_stems = {stem(t) for t in sentence_words}
    claim_stems = {stem(t) for t in claim_words}
    content = set(content_tokens(claim))
    stated_content = set(content_tokens(sentence))
    for index, word in enumerate(claim_words):
        if word not in content or is_number(word) or stem(word) in sentence_stems:
            continue
        if word in _PREPOSITIONS or any(
            _same(word, other, lexicon)
            or on_one_scale(word, other)
            or _abbreviates(other, claim_words, word)
            or _abbreviates(word, sentence_words, other)
            for other in stated_content
        ):
            continue
        for side in (-1, 1):
            at = index + side
            if not 0 <= at < len(claim_words) or claim_words[at] not in content:
                continue
            anchor = claim_words[at]
            for position, said in enumerate(sentence_words):
                neighbour = position - side
                if said != anchor or not 0 <= neighbour < len(sentence_words):
                    continue
                other = sentence_words[neighbour]
                if (
                    other in stated_content
                    and other not in _PREPOSITIONS
                    and stem(other) not in claim_stems
                    and not is_number(other)
                ):
                    theirs = " ".join((anchor, other)[::-side])
                    mine = " ".join((anchor, word)[::-side])
                    return f"the source says '{theirs}' where the claim says '{mine}'"
    return ""


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
        if (t in _CUES or t.endswith("n't")) and not (i and words[i - 1] == "but")
    }


@dataclass(frozen=True, slots=True)
class _Slot:
    """One aligned difference: the claim's words, the sentence's words in their place, and the
    stems of the whole claim and the whole sentence."""

    claimed: list[str]
    stated: list[str]
    claim_words: list[str]
    sentence_words: list[str]
    claim_stems: set[str]
    sentence_stems: set[str]


def _difference(slot: _Slot, entities: set[str], lexicon: Lexicon) -> str:
    """What one aligned difference says: a changed number, a negation or contrast on one side,
    an entity or an opposite put in a word's place; "" when it is only wording. A word is not
    put in another's place when the claim uses it too, or the source the other: "DCs and
    ILCs" against "ILCs and DCs" is word order, not a substitution."""
    numbers_claimed = [t for t in slot.claimed if is_number(t)]
    numbers_stated = [t for t in slot.stated if is_number(t) and t not in slot.claim_stems]
    if numbers_claimed and numbers_stated and set(numbers_claimed) != set(numbers_stated):
        return (
            f"the source says {', '.join(numbers_stated)} where the claim says "
            f"{', '.join(numbers_claimed)}"
        )
    cues_claimed, cues_stated = _slot_cues(slot.claimed), _slot_cues(slot.stated)
    if bool(cues_claimed) != bool(cues_stated):
        cue = sorted(cues_claimed or cues_stated)[0]
        side = "the claim" if cues_claimed else "the source"
        return f"'{cue}' in {side} only"
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
    """(claim word, sentence word) pairs of a slot where each is absent from the other side."""
    return [
        (word, other)
        for word in slot.claimed
        if stem(word) not in slot.sentence_stems
        for other in slot.stated
        if stem(other) not in slot.claim_stems and stem(word) != stem(other)
    ]


# Words of a sentence that say how it is said, not what: they never stand in a claim word's place.
_DISCOURSE = frozenset(
    """although though however whereas while compared additionally respectively moreover
    furthermore here thus therefore""".split()
)


def _spells(short: str, run: list[str]) -> bool:
    """Whether `short` is spelled by letters of the run's words in order, each word's first
    letter among them ("cdca": Chenodeoxycholic Acid; "sno": S-NitrOsylated; "hsc":
    Hematopoietic Stem Cells)."""
    if not short:
        return not run
    if not run or short[0] != run[0][0]:
        return False
    word, rest = run[0], short[1:]
    # The letters this word gives after its first: as many as lead to a spelling of the rest.
    for taken in range(len(rest) + 1):
        letters = iter(word[1:])
        if all(letter in letters for letter in rest[:taken]) and _spells(rest[taken:], run[1:]):
            return True
    return False


def _abbreviates(short: str, words: list[str], word: str | None = None) -> bool:
    """Whether `short` abbreviates a run of one to five of `words` (one that holds `word`, when
    given), spelled by their letters in order with each word's first letter among them: "hscs"
    for "hematopoietic stem cells", "il" for "interleukin", "cdca" for "chenodeoxycholic
    acid". One word is abbreviated by at most four letters, and only a long word."""
    short = short[:-1] if short.endswith("s") and len(short) > 2 else short
    if not 2 <= len(short) <= 6 or not short.isalpha():
        return False
    for start in range(len(words)):
        for end in range(start + 1, min(start + 6, len(words) + 1)):
            run = words[start:end]
            if word is not None and word not in run:
                continue
            if len(run) == 1 and (len(short) > 4 or len(run[0]) < 8):
                continue
            if len(run) > len(short):
                break
            if _spells(short, run):
                return True
    return False


# A name: a word with letters and digits ("TMEM27", "p53"), three capitals or more ("HPV", not
# "US" or "IV"), or a capitalized word inside a sentence ("Okazaki"); the name part of a compound
# ("IP3R" of "IP3R-mediated").
_NAME = re.compile(
    r"^(?:[a-z]*[A-Za-z][a-z]*\d\w*|\w*\d\w*[A-Za-z]\w*|\w*[A-Z]\w*[A-Z]\w*[A-Z]\w*|[A-Z][a-z]{2,})$"
)


def _names(claim: str) -> set[str]:
    """The names a claim gives, folded as tokens are; an alias in parentheses ("zidovudine
    (AZT)") is not another name, and a headline in title case or capitals names nothing by its
    capitals."""
    plain = re.sub(r"\([^()]*\)", " ", claim)
    words = plain.split()
    headline = sum(w[:1].isupper() for w in words) * 2 >= len(words)
    names = set()
    for index, word in enumerate(words):
        for part in re.split(r"[-/]", word.strip(".,;:!?'\"")):
            capitals_only = part.isalpha() and (part.istitle() or part.isupper())
            if not _NAME.match(part) or (capitals_only and (headline or index == 0)):
                continue
            names.add(normalize(part))
    return names


def unnamed(claim: str, passage: str) -> list[str]:
    """The names the claim gives that the passage never gives, in full or abbreviated: a
    reader cannot find support for a claim about "TMEM27" in a passage about "SVCT2"."""
    stated = tokens(passage)
    present = set(stated)
    claim_words = tokens(claim)
    short_forms = [t for t in present if t.isalpha() and len(t) <= 6]
    return sorted(
        name
        for name in _names(claim)
        if name not in present
        and not _abbreviates(name, stated)
        and not any(_abbreviates(short, claim_words, name) for short in short_forms)
    )


def _substituted(slot: _Slot, lexicon: Lexicon) -> str:
    """A content word of the claim that the sentence does not state, with content words of the
    sentence in its place none of which the lexicon knows as meaning the same (a synonym, a
    word one step more general or specific, a direction word of the same scale and way) or
    abbreviates: "" when the slot is only wording."""
    content = set(content_tokens(" ".join(slot.claimed)))
    # A sentence word the claim uses elsewhere still stands in this word's place ("The LTR
    # pixel performs" against "The LTR model performs", "model" being in the claim later on).
    stated = [w for w in content_tokens(" ".join(slot.stated)) if w not in _DISCOURSE]
    if not stated:
        return ""
    for word in slot.claimed:
        if word not in content or stem(word) in slot.sentence_stems or is_number(word):
            continue
        if any(
            word in other
            or other in word
            or along(word, other)
            or lexicon.same_meaning(word, other)
            or _abbreviates(other, slot.claim_words, word)
            or _abbreviates(word, slot.sentence_words, other)
            for other in stated
        ):
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
            set(claim_stems),
            set(sentence_stems),
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


def _cue_words(text: str) -> set[str]:
    return {t for t in tokens(text) if t in _CUES or t.endswith("n't")}


_SCOPE = 12  # words after a negation, within its clause, that it is said of
_CLAUSE = re.compile(r"[,;:()]|\b(?:but|whereas|while|although|and that|which)\b", re.I)
# Negations that deny nothing ("not only X but also Y", "no doubt").
_COMPOUND_NEGATION = re.compile(r"[\w-]*\b(?:not|no)-[\w-]*|[\w-]*-(?:not|no)\b")
_NOT_DENYING = re.compile(r"\b(not only|not just|not least|not surprisingly|no doubt|no longer)\b")
# Words before a negation that make it name a group or a case, not deny a statement
# ("patients with no hypoglycemia", "whether or not").
_NAMING = frozenset("but and or with of if whether".split())


def _negations(text: str) -> list[tuple[str, set[str]]]:
    """Each negation or contrast of the text that denies a statement, with the content stems
    of what it is said of: the rest of its clause, up to `_SCOPE` words ("found no convincing
    association between CHEK2 and breast cancer"). A negation inside a compound
    ("not-deficient") or naming a group ("patients with no hypoglycemia") denies nothing."""
    plain = _COMPOUND_NEGATION.sub(" ", _NOT_DENYING.sub(" ", text.lower()))
    found = []
    for clause in _CLAUSE.split(plain):
        words = tokens(clause)
        for index, word in enumerate(words):
            if word not in _CUES and not word.endswith("n't"):
                continue
            if index and words[index - 1] in _NAMING:
                continue
            said = " ".join(words[index + 1 : index + 1 + _SCOPE])
            found.append((word, {stem(t) for t in content_tokens(said)}))
    return found


def _denied(claim: str, sentence: str, passage: str) -> str:
    """A claim that negates what the sentence states ("X is not associated with Y" against "X
    was associated with Y"): the passage states some of what the claim's negation is said of
    in its clause ("without any improvement" against a passage that reports the improvement;
    "is not easy, and that X" is no conflict with a passage that says only X), and no negation
    of the sentence is said of the same words."""
    stated = {stem(t) for t in content_tokens(passage)}
    sentence_negations = _negations(sentence)
    for word, said in _negations(claim):
        if not said & stated:
            continue
        wanted = min(2, len(said))
        if not any(len(said & other) >= wanted for _, other in sentence_negations):
            return f"'{word}' in the claim only: {quote(sentence)}"
    return ""


def _negated_in_source(claim: str, sentence: str) -> str:
    """What the claim states plainly and the source denies: a negation of the sentence's own
    statement ("was not associated with an increased risk", "evidence was lacking for
    cognitive impairment") said of at least two of the claim's words, where the claim has no
    negation or contrast at all. A negation that sets a case aside ("in premenopausal, but
    not postmenopausal, women") or names an absence ("patients with no hypoglycemia") denies
    nothing the claim states."""
    if _cue_words(claim):
        return ""
    wanted = {stem(t) for t in content_tokens(claim)}
    for word, said in _negations(sentence):
        # "without" names a group in a source ("patients without diabetes") more often than not
        denies = word != "without" and (word in NEGATIONS | {"lacking"} or word.endswith("n't"))
        if denies and len(said & wanted) >= 2:
            return (
                f"the source denies it ('{word}' before the claim's own words): {quote(sentence)}"
            )
    return ""


def _number_conflict(claim: str, sentence: str) -> str:
    """A number of the claim that the sentence gives otherwise for the same thing: the same
    word right after it ("750 million", "35 percent") with another number before it."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    stated = {t for t in sentence_words if is_number(t)}
    for index, word in enumerate(claim_words[:-1]):
        unit = claim_words[index + 1]
        if not is_number(word) or word in stated or is_number(unit) or unit in _STOPS:
            continue
        for position, other in enumerate(sentence_words[:-1]):
            if is_number(other) and sentence_words[position + 1] == unit:
                return (
                    f"the source says {other} {unit} where the claim says {word} {unit}: "
                    f"{quote(sentence)}"
                )
    return ""
