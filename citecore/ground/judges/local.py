"""The local judge: transparent lexical rules, fully offline, and honest about being lexical.

It reads the claim against the passage sentence that shares most of its words and says:

- SUPPORTED when that sentence states most of the claim's content words and every number the
  claim states, with no conflict;
- UNSUPPORTED only with positive evidence of a conflict, shown as what the source says: a
  changed number, a negation or contrast on one side only ("rather than", "instead of",
  "without", "unlike", "no longer", "not"), or a substituted word — a named entity, a word turned
  to its opposite by a prefix (effective/ineffective) or a direction word (increase/decrease),
  found by aligning the claim to the sentence;
- PARTIAL when about half of the claim is there and nothing conflicts;
- UNCONFIRMED otherwise: finding neither support nor conflict is not evidence against the writer.

Its precision is measured (`bench/local_judge.py` on the labelled claim/evidence pairs), not
assumed; every reason it gives says that it is a lexical judge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from citecore.ground.evidence import RankedPassage
from citecore.ground.judges import JudgeVerdict
from citecore.ground.tokens import NEGATIONS, content_tokens, named_entities, tokens
from citecore.model import GroundingStatus

SUPPORTED_SHARE = 0.65
PARTIAL_SHARE = 0.45
# How much of the claim must be in the sentence before a difference in it is a conflict rather
# than a sign that the sentence is about something else.
CONFLICT_SHARE = 0.40
_STEM = 5  # words agreeing on their first letters count as the same word ("learned"/"learning")
_CONTRASTS = ("rather than", "instead of", "unlike", "no longer", "as opposed to")
_OPPOSITE_PREFIXES = ("in", "un", "non", "dis", "im", "ir", "il", "anti")
# Words that state a direction (English, closed class): up (+1) or down (-1).
_UP = """increase increases increased increasing raise raises raised higher more greater larger
    faster enhance enhances enhanced induce induces induced promote promotes promoted improve
    improves improved elevate elevates elevated upregulate upregulates upregulated activate
    activates activated stimulate stimulates stimulated gain gains rise rises rose above
    maximum majority strong stronger benefit benefits positive positively before early earlier
    present accept accepts accepted""".split()
_DOWN = """decrease decreases decreased decreasing reduce reduces reduced reducing lower less
    fewer smaller slower weaken weakens weakened inhibit inhibits inhibited suppress suppresses
    suppressed impair impairs impaired diminish diminishes diminished downregulate
    downregulates downregulated worsen worsens worsened loss losses fall falls fell decline
    declines declined attenuate attenuates attenuated below minimum minority weak weaker harm
    harms negative negatively after late later absent reject rejects rejected""".split()
_POLARITY = {word: 1 for word in _UP} | {word: -1 for word in _DOWN}
_DIRECTION_REACH = 6  # words after a direction word that count as what it is said of


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


def _stem(word: str) -> str:
    """A crude stem: a common suffix off ("relies", "relying" → "rely"), then the first letters
    ("learned"/"learning")."""
    for suffix, replacement in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.isdigit():
            word = word[: len(word) - len(suffix)] + replacement
            break
    return word[:_STEM] if len(word) > _STEM + 1 else word


# By stem, so that the nouns count too ("suppression", "reduction").
_STEM_POLARITY = {_stem(word): polarity for word, polarity in _POLARITY.items()}


def _sentences(text: str) -> list[str]:
    """The sentences of a passage; a paragraph break or a heading (`#` in the Markdown the PDF
    reader writes) ends a sentence too, so that a passage never runs into the next section."""
    blocks = re.split(r"\n\s*\n|\n(?=#)|\s(?=#{1,6} )", text.strip())
    parts = [
        part for block in blocks for part in re.split(r"(?<=[.!?;])\s+(?=[A-Z(\[])", block.strip())
    ]
    return [p for p in parts if p.strip()] or [text]


def _is_number(token: str) -> bool:
    return bool(re.fullmatch(r"\d+(?:[.,]\d+)*", token))


def _numerals(text: str) -> str:
    """The text with number words as digits, so that "two years" and "16 years" compare."""
    return _NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group(1).lower()], text)


@dataclass(frozen=True, slots=True)
class _Reading:
    """How one passage sentence reads against the claim."""

    sentence: str
    share: float
    matched: int
    wanted: int
    conflict: str  # what the source says against the claim, "" when nothing does
    missing_numbers: frozenset[str]
    # Numbers the sentence gives that the claim does not, when the claim's own are not there.
    other_numbers: frozenset[str] = frozenset()


def _share(claim: str, sentence: str) -> tuple[float, int, int]:
    wanted = {_stem(w) for w in content_tokens(claim) if not _is_number(w)}
    present = {_stem(w) for w in content_tokens(sentence)}
    matched = len(wanted & present)
    return (matched / len(wanted) if wanted else 0.0), matched, len(wanted)


def _opposites(a: str, b: str) -> bool:
    if _POLARITY.get(a, 0) * _POLARITY.get(b, 0) < 0:
        return True
    short, long = sorted((a, b), key=len)
    return any(long == prefix + short for prefix in _OPPOSITE_PREFIXES) and len(short) >= 4


def _slot_cues(words: list[str]) -> set[str]:
    """The negation and contrast words of an aligned slot, less those that set a case aside
    ("premenopausal, but not postmenopausal, cancer" denies nothing of premenopausal cancer)."""
    return {
        t
        for i, t in enumerate(words)
        if (t in _CUES or t.endswith("n't")) and not (i and words[i - 1] == "but")
    }


def _difference(
    claimed: list[str], stated: list[str], entities: set[str], both: tuple[set[str], set[str]]
) -> str:
    """What one aligned difference says: a changed number, a negation or contrast on one side,
    an entity or an opposite put in a word's place; "" when it is only wording. A word is not
    put in another's place when the claim uses it too, or the source the other (`both`: the
    stems of the whole claim and of the whole sentence): "DCs and ILCs" against "ILCs and
    DCs" is word order, not a substitution."""
    claim_stems, sentence_stems = both
    numbers_claimed = [t for t in claimed if _is_number(t)]
    numbers_stated = [t for t in stated if _is_number(t) and t not in claim_stems]
    if numbers_claimed and numbers_stated and set(numbers_claimed) != set(numbers_stated):
        return (
            f"the source says {', '.join(numbers_stated)} where the claim says "
            f"{', '.join(numbers_claimed)}"
        )
    cues_claimed = _slot_cues(claimed)
    cues_stated = _slot_cues(stated)
    if bool(cues_claimed) != bool(cues_stated):
        cue = sorted(cues_claimed or cues_stated)[0]
        side = "the claim" if cues_claimed else "the source"
        return f"'{cue}' in {side} only"
    for word in claimed:
        if _stem(word) in sentence_stems:
            continue
        for other in stated:
            if _stem(other) in claim_stems or _stem(word) == _stem(other):
                continue
            # Before the test for one word inside the other: "ineffective" holds "effective".
            if _opposites(word, other):
                return f"the source says '{other}' where the claim says '{word}'"
            if word in other or other in word:
                continue
            if word in entities and other in entities:
                return f"the source says '{other}' where the claim says '{word}'"
    return ""


def _conflict(claim: str, sentence: str) -> str:
    """The claim aligned to the sentence word by word: a difference that sits between
    stretches they share (so it is about the same statement) and says something else."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    claim_stems = [_stem(t) for t in claim_words]
    sentence_stems = [_stem(t) for t in sentence_words]
    content = {_stem(t) for t in content_tokens(claim)}
    entities = named_entities(claim) | named_entities(sentence)
    opcodes = SequenceMatcher(None, claim_stems, sentence_stems, autojunk=False).get_opcodes()
    for index, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        numbers = any(map(_is_number, claim_words[i1:i2])) and any(
            map(_is_number, sentence_words[j1:j2])
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
        found = _difference(
            claim_words[i1:i2],
            sentence_words[j1:j2],
            entities,
            (set(claim_stems), set(sentence_stems)),
        )
        if found:
            return f'{found}: the source says "{" ".join(sentence.split())}"'
    return ""


_CONTRAST = re.compile(r"\b(rather than|instead of|unlike|as opposed to|in contrast to)\b", re.I)


def _contrast_roles(text: str) -> tuple[set[str], set[str]] | None:
    """The two sides of a contrast as content stems: what is set aside ("rather than X", "unlike
    X", "instead of X": the words after the connective, to the comma or the end) and what is
    stated (the rest of the sentence); None without a contrast connective."""
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
        {_stem(t) for t in content_tokens(aside)},
        {_stem(t) for t in content_tokens(stated)},
    )


def _swapped_contrast(claim: str, sentence: str) -> str:
    """A contrast whose two sides the claim has swapped ("rather than relying on SymPy, unyt
    implements its own algebra" against "rather than implementing algebra, we rely on SymPy"):
    what each side sets aside is what the other states, and the two never set aside the same."""
    claimed, stated = _contrast_roles(claim), _contrast_roles(sentence)
    if claimed is None or stated is None:
        return ""
    (claim_aside, claim_said), (source_aside, source_said) = claimed, stated
    if claim_aside & source_aside or not (claim_aside & source_said and source_aside & claim_said):
        return ""
    return (
        "the claim swaps the sides of the contrast: what the source sets aside the claim "
        f'states, and the other way round: the source says "{" ".join(sentence.split())}"'
    )


def _cue_words(text: str) -> set[str]:
    return {t for t in tokens(text) if t in _CUES or t.endswith("n't")}


def _denied(claim: str, sentence: str) -> str:
    """A claim that negates what a sentence about the same thing states without any negation
    or contrast ("X is not associated with Y" against "X was associated with Y")."""
    cues = _cue_words(claim)
    if not cues or _cue_words(sentence):
        return ""
    return (
        f"'{sorted(cues)[0]}' in the claim only: the source says \"{' '.join(sentence.split())}\""
    )


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
    wanted = {_stem(t) for t in content_tokens(claim)}
    # A negation inside a compound ("not-deficient", "treatment-not-increased") names a group.
    plain = _COMPOUND_NEGATION.sub(" ", _NOT_DENYING.sub(" ", sentence.lower()))
    words = tokens(plain)
    for index, word in enumerate(words):
        if word not in NEGATIONS and word != "lacking" and not word.endswith("n't"):
            continue
        before = words[index - 1] if index else ""
        if before in ("but", "and", "or", "with", "of", "if", "whether") or word == "without":
            continue
        scope = {_stem(t) for t in content_tokens(" ".join(words[index + 1 : index + 1 + _SCOPE]))}
        if len(scope & wanted) >= 2:
            return (
                f"the source denies it ('{word}' before the claim's own words): the source says "
                f'"{" ".join(sentence.split())}"'
            )
    return ""


def _number_conflict(claim: str, sentence: str) -> str:
    """A number of the claim that the sentence gives otherwise for the same thing: the same
    word right after it ("750 million", "35 percent") with another number before it."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    stated = {t for t in sentence_words if _is_number(t)}
    for index, word in enumerate(claim_words[:-1]):
        unit = claim_words[index + 1]
        if not _is_number(word) or word in stated or _is_number(unit) or unit in _STOPS:
            continue
        for position, other in enumerate(sentence_words[:-1]):
            if _is_number(other) and sentence_words[position + 1] == unit:
                return (
                    f"the source says {other} {unit} where the claim says {word} {unit}: "
                    f'the source says "{" ".join(sentence.split())}"'
                )
    return ""


def _direction_conflict(claim: str, sentence: str) -> str:
    """A direction the claim states of something the sentence states the other way
    ("reduces IL-10 production" against "induced IL-10 production"): each direction word of
    the claim is read against the sentence's direction words followed by most of the same
    words. A sentence that says the claim's own direction of those words as clearly ("enhanced
    suppression of p53" for "suppresses p53") states no conflict."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    sentence_stems = [_stem(t) for t in sentence_words]
    for index, word in enumerate(claim_words):
        polarity = _POLARITY.get(word, 0)
        if not polarity:
            continue
        following = claim_words[index + 1 : index + 1 + _DIRECTION_REACH]
        targets = {_stem(t) for t in content_tokens(" ".join(following))}
        best: dict[int, tuple[int, str]] = {1: (0, ""), -1: (0, "")}
        for position, stem in enumerate(sentence_stems):
            other = _STEM_POLARITY.get(stem, 0)
            if not other:
                continue
            window = set(sentence_stems[position + 1 : position + 1 + _DIRECTION_REACH])
            score = len(targets & window)
            if score > best[other][0]:
                best[other] = (score, sentence_words[position])
        (against, said), (along, _) = best[-polarity], best[polarity]
        if against >= 1 and against > along:
            return (
                f"the source says '{said}' where the claim says '{word}': the source says "
                f'"{" ".join(sentence.split())}"'
            )
    return ""


def _read(claim: str, sentence: str) -> _Reading:
    original = sentence
    claim, sentence = _numerals(claim), _numerals(sentence)
    share, matched, wanted = _share(claim, sentence)
    claim_numbers = {t for t in tokens(claim) if _is_number(t)}
    stated_numbers = {t for t in tokens(sentence) if _is_number(t)}
    missing = frozenset(claim_numbers - stated_numbers)
    conflict = ""
    if share >= CONFLICT_SHARE:
        conflict = (
            _swapped_contrast(claim, sentence)
            or _conflict(claim, sentence)
            or _number_conflict(claim, sentence)
            or _direction_conflict(claim, sentence)
            or _denied(claim, sentence)
            or _negated_in_source(claim, sentence)
        )
        # The quote is of the source as written ("sixteen", not "16").
        conflict = conflict.replace(
            f'"{" ".join(sentence.split())}"', f'"{" ".join(original.split())}"'
        )
    others = frozenset(stated_numbers - claim_numbers) if missing else frozenset()
    return _Reading(original, share, matched, wanted, conflict, missing, others)


class LocalJudge:
    """Lexical agreement between claim and passage, with conflict evidence for UNSUPPORTED."""

    name = "local"
    model = "lexical-rules-v5"

    def judge(
        self, claim: str, evidence: Sequence[RankedPassage], keys: Sequence[str] = ()
    ) -> JudgeVerdict:
        """SUPPORTED, PARTIAL, UNSUPPORTED (with the conflict) or UNCONFIRMED, with the passage
        and the rule that decided."""
        del keys  # the evidence already comes from the cited keys' sources
        readings = [
            (_read(claim, sentence), ranked)
            for ranked in evidence
            for sentence in _sentences(ranked.passage.text)
        ]
        if not readings:
            return self._verdict(GroundingStatus.UNCONFIRMED, "", "no passage shares its words")
        reading = max(readings, key=lambda pair: (pair[0].share, pair[1].score))[0]
        words = f"{reading.matched}/{reading.wanted} content words of the claim in the passage"
        conflicting = [r for r, _ in readings if r.conflict and r.share >= CONFLICT_SHARE]
        if conflicting and not (reading.share >= SUPPORTED_SHARE and not reading.conflict):
            worst = max(conflicting, key=lambda r: r.share)
            return self._verdict(GroundingStatus.UNSUPPORTED, worst.sentence, worst.conflict)
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
        return JudgeVerdict(status, passage, f"lexical judge: {reason}", self.name, self.model)
