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

from citecore.ground.lexicon import Lexicon
from citecore.ground.tokens import NEGATIONS, content_tokens, named_entities, tokens

_STEM = 5  # words agreeing on their first letters count as the same word ("learned"/"learning")
_OPPOSITE_PREFIXES = ("in", "un", "non", "dis", "im", "ir", "il", "anti")
# Words that state a direction (English, closed class), on one scale each: up (+1) or down (-1).
# Words on different scales never oppose each other ("later" is not the opposite of "increased").
_SCALES = {
    # how much of something there is, or how active it is
    "amount": (
        """increase increases increased increasing raise raises raised higher more greater larger
        enhance enhances enhanced induce induces induced promote promotes promoted elevate
        elevates elevated upregulate upregulates upregulated activate activates activated
        stimulate stimulates stimulated gain gains rise rises rose above maximum majority""",
        """decrease decreases decreased decreasing reduce reduces reduced reducing lower less
        fewer smaller inhibit inhibits inhibited suppress suppresses suppressed diminish
        diminishes diminished downregulate downregulates downregulated loss losses fall falls fell
        decline declines declined attenuate attenuates attenuated below minimum minority prevent
        prevents prevented""",
    ),
    "quality": (
        "improve improves improved strong stronger benefit benefits positive positively",
        "impair impairs impaired worsen worsens worsened weak weaker weaken weakens weakened harm "
        "harms negative negatively",
    ),
    "speed": ("faster", "slower"),
    "time": ("before early earlier", "after late later"),
    "presence": ("present", "absent"),
    "acceptance": ("accept accepts accepted", "reject rejects rejected"),
}
_POLARITY = {
    word: (scale, sign)
    for scale, (up, down) in _SCALES.items()
    for sign, words in ((1, up), (-1, down))
    for word in words.split()
}
_DIRECTION_REACH = 6  # words next to a direction word that count as what it is said of
_COPULAS = frozenset("is are was were be been being become became remain remained".split())
_SUFFIXES = (
    ("ies", "y"),
    ("ied", "y"),
    ("ations", ""),
    ("ation", ""),
    ("ings", ""),
    ("ing", ""),
    ("ed", ""),
    ("es", ""),
    ("ly", ""),
    ("s", ""),
)
_STOPS = frozenset("of the a an and or to in on for with by at as".split())
_CUES = NEGATIONS | {"rather", "instead", "unlike", "lacking", "neither", "opposed"}
_MAX_GAP = 3  # tokens on either side of a difference between two aligned stretches
_NUMBER_GAP = 5  # a difference that holds numbers on both sides may be a little longer
# Number words read as the numbers they are ("two years" is "2 years"); "one" is left alone, as
# it is as often a pronoun ("one of the") as a number.
_NUMBER_WORDS = {
    word: str(value)
    for value, word in enumerate(
        "zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
    if word != "_"
} | {
    word: str(10 * tens)
    for tens, word in enumerate("_ _ _ thirty forty fifty sixty seventy eighty ninety".split())
    if word != "_"
}
_NUMBER_WORD = re.compile(r"\b(" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)


def stem(word: str) -> str:
    """A crude stem: a common suffix off ("relies", "relying" → "rely"), then the first letters
    ("learned"/"learning")."""
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.isdigit():
            word = word[: len(word) - len(suffix)] + replacement
            break
    return word[:_STEM] if len(word) > _STEM + 1 else word


# By stem, so that the nouns count too ("suppression", "reduction").
_STEM_POLARITY = {stem(word): polarity for word, polarity in _POLARITY.items()}


def _opposed(a: str, b: str) -> bool:
    """Two direction words on one scale, pointing opposite ways."""
    (scale_a, sign_a), (scale_b, sign_b) = _POLARITY.get(a, ("", 0)), _POLARITY.get(b, ("", 0))
    return scale_a == scale_b and sign_a * sign_b < 0


def _along(a: str, b: str) -> bool:
    """Two direction words on one scale, pointing the same way ("decreased"/"declined")."""
    (scale_a, sign_a), (scale_b, sign_b) = _POLARITY.get(a, ("", 0)), _POLARITY.get(b, ("", 0))
    return bool(scale_a) and scale_a == scale_b and sign_a == sign_b


def is_number(token: str) -> bool:
    """Whether a token is a number ("2017", "0.1", "1,000")."""
    return bool(re.fullmatch(r"\d+(?:[.,]\d+)*", token))


def comparable(text: str) -> str:
    """The text as the rules compare it: number words as digits, so that "two years" and "16
    years" compare, and the chemists' "NO" (nitric oxide) kept apart from the negation."""
    text = re.sub(r"\bNO\b", "nitricoxide", text)
    return _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], text)


def _quote(sentence: str) -> str:
    return f'the source says "{" ".join(sentence.split())}"'


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
        or _direction_conflict(claim, sentence)
        or _denied(claim, sentence, passage or sentence)
        or _negated_in_source(claim, sentence)
    )
    return Comparison(conflict, "" if conflict else substitution)


def _opposites(a: str, b: str, lexicon: Lexicon) -> bool:
    if _opposed(a, b):
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
    furthermore here thus therefore background methods results conclusions conclusion objective
    objectives design setting findings interpretation""".split()
)


def _abbreviates(short: str, words: list[str], word: str) -> bool:
    """Whether `short` abbreviates a run of `words` that holds `word`: the initials of two to
    five consecutive words ("hscs" for "hematopoietic stem cells", "kpd" for "kidney paired
    donation"), or two or three letters of one long word, its first among them ("il" for
    "interleukin")."""
    short = short[:-1] if short.endswith("s") and len(short) > 2 else short
    if not 2 <= len(short) <= 6 or not short.isalpha():
        return False
    if len(word) >= 8 and len(short) <= 3 and short[0] == word[0]:
        letters = iter(word[1:])
        if all(letter in letters for letter in short[1:]):
            return True
    for start in range(len(words) - len(short) + 1):
        run = words[start : start + len(short)]
        if word in run and "".join(w[0] for w in run) == short:
            return True
    return False


def _substituted(slot: _Slot, lexicon: Lexicon) -> str:
    """A content word of the claim that the sentence does not state, with content words of the
    sentence in its place none of which the lexicon knows as meaning the same (a synonym, a
    word one step more general or specific or a part of it, a direction word of the same scale
    and way) or abbreviates: "" when the slot is only wording."""
    content = set(content_tokens(" ".join(slot.claimed))) - set(_STOPS)
    stated = [
        w
        for w in content_tokens(" ".join(slot.stated))
        if stem(w) not in slot.claim_stems and w not in _DISCOURSE and not w.endswith("ly")
    ]
    if not stated:
        return ""
    for word in slot.claimed:
        if word not in content or stem(word) in slot.sentence_stems or is_number(word):
            continue
        if any(
            word in other
            or other in word
            or _along(word, other)
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
        return f"{conflict}: {_quote(sentence)}", ""
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
        f"states, and the other way round: {_quote(sentence)}"
    )


def _cue_words(text: str) -> set[str]:
    return {t for t in tokens(text) if t in _CUES or t.endswith("n't")}


def _denied(claim: str, sentence: str, passage: str) -> str:
    """A claim that negates what the sentence states without any negation or contrast ("X is
    not associated with Y" against "X was associated with Y"), where the passage states what
    the claim's negation is said of ("without any improvement" against a passage that reports
    the improvement)."""
    if _cue_words(sentence):
        return ""
    words = tokens(claim)
    stated = {stem(t) for t in content_tokens(passage)}
    for index, word in enumerate(words):
        if word not in _CUES and not word.endswith("n't"):
            continue
        scope = {stem(t) for t in content_tokens(" ".join(words[index + 1 : index + 1 + _SCOPE]))}
        if scope & stated:
            return f"'{word}' in the claim only: {_quote(sentence)}"
    return ""


_SCOPE = 5  # words after a negation that it is said of
# Negations that deny nothing ("not only X but also Y", "no doubt").
_COMPOUND_NEGATION = re.compile(r"[\w-]*\b(?:not|no)-[\w-]*|[\w-]*-(?:not|no)\b")
_NOT_DENYING = re.compile(r"\b(not only|not just|not least|not surprisingly|no doubt|no longer)\b")


def _negated_in_source(claim: str, sentence: str) -> str:
    """What the claim states plainly and the source denies: a negation of the sentence's own
    statement ("was not associated with an increased risk", "evidence was lacking for
    cognitive impairment") followed by at least two of the claim's words, where the claim has
    no negation or contrast at all. A negation that sets a case aside ("in premenopausal, but
    not postmenopausal, women") or names an absence ("patients with no hypoglycemia") denies
    nothing the claim states."""
    if _cue_words(claim):
        return ""
    wanted = {stem(t) for t in content_tokens(claim)}
    # A negation inside a compound ("not-deficient", "treatment-not-increased") names a group.
    plain = _COMPOUND_NEGATION.sub(" ", _NOT_DENYING.sub(" ", sentence.lower()))
    words = tokens(plain)
    for index, word in enumerate(words):
        if word not in NEGATIONS and word != "lacking" and not word.endswith("n't"):
            continue
        before = words[index - 1] if index else ""
        if before in ("but", "and", "or", "with", "of", "if", "whether") or word == "without":
            continue
        scope = {stem(t) for t in content_tokens(" ".join(words[index + 1 : index + 1 + _SCOPE]))}
        if len(scope & wanted) >= 2:
            return (
                f"the source denies it ('{word}' before the claim's own words): {_quote(sentence)}"
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
                    f"{_quote(sentence)}"
                )
    return ""


def _said_of(stems: list[str], position: int) -> set[str]:
    """The stems a direction word at `position` is said of: the words after it ("reduces
    energy expenditure"), or before it when it follows a form of "be" ("energy expenditure
    was also increased", "rates were higher"), up to another direction word."""
    previous = stems[max(0, position - 2) : position]
    if any(word in _COPULAS for word in previous):
        span = stems[max(0, position - _DIRECTION_REACH) : position]
        cut = [i for i, word in enumerate(span) if word in _STEM_POLARITY]
        return set(span[cut[-1] + 1 :] if cut else span)
    span = stems[position + 1 : position + 1 + _DIRECTION_REACH]
    cut = [i for i, word in enumerate(span) if word in _STEM_POLARITY]
    return set(span[: cut[0]] if cut else span)


def _direction_conflict(claim: str, sentence: str) -> str:
    """A direction the claim states of something the sentence states the other way on the same
    scale ("reduces IL-10 production" against "induced IL-10 production", "reduces energy
    expenditure" against "energy expenditure was increased"): each direction word of the claim
    is read against the sentence's direction words said of most of the same words. A sentence
    that says the claim's own direction of those words as clearly states no conflict."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    content = {stem(t) for t in content_tokens(claim)}
    claim_stems = [stem(t) for t in claim_words]
    sentence_stems = [stem(t) for t in sentence_words]
    for index, word in enumerate(claim_words):
        scale, sign = _POLARITY.get(word, ("", 0))
        if not sign:
            continue
        targets = _said_of(claim_stems, index) & content
        best: dict[int, tuple[int, str]] = {1: (0, ""), -1: (0, "")}
        for position, word_stem in enumerate(sentence_stems):
            other_scale, other = _STEM_POLARITY.get(word_stem, ("", 0))
            if not other or other_scale != scale:
                continue
            score = len(targets & _said_of(sentence_stems, position))
            if score > best[other][0]:
                best[other] = (score, sentence_words[position])
        (against, said), (along, _) = best[-sign], best[sign]
        # One shared word is no evidence that two statements are about the same thing.
        if against >= min(2, len(targets)) and against > along:
            return f"the source says '{said}' where the claim says '{word}': {_quote(sentence)}"
    return ""
