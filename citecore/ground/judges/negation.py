"""What a text denies, and of what: the negation rules the local judge's conflicts and its
support rule share.

A negation is said of the rest of its clause ("found no convincing association between CHEK2
and breast cancer"); one inside a compound ("not-deficient") or naming a group ("patients with no
hypoglycemia") denies nothing. A source may deny in words that are no negation ("is unlikely
to", "missed"): `DENIALS` holds them.
"""

from __future__ import annotations

import re

from citecore.ground.judges.directions import negated, opposed_at, polarity_of
from citecore.ground.judges.words import quote, stem
from citecore.ground.tokens import DENIALS, NEGATIONS, content_tokens, tokens

CUES = NEGATIONS | {"rather", "instead", "unlike", "lacking", "neither", "opposed"}
# Negations proper: a contrast ("rather", "instead") is one only where the other side does not
# contrast too.
NEGATIONS_PROPER = NEGATIONS | {"lacking"}


# Words that deny in what they mean, with no negation: a claim that "X is ineffective" says
# what a source's "no benefit of X" says.
_DENYING_WORDS = frozenset(
    """ineffective inefficacious unsuccessful refuse refuses refused refusing failure""".split()
)


# Negations that name a group more often than they deny ("patients without diabetes", "cells
# lacking avb8").
_NAMING_NEGATIONS = frozenset({"without", "lacking"})


def denies_anything(words: list[str]) -> bool:
    """Whether words hold a negation, a denial or a word that denies in what it means (not one
    that names a group: "cells lacking avb8")."""
    return any(
        (w in DENIALS or w in NEGATIONS_PROPER or w in _DENYING_WORDS or w.endswith("n't"))
        and w not in _NAMING_NEGATIONS
        for w in words
    )


def _cue_words(text: str) -> set[str]:
    return {t for t in tokens(text) if t in CUES or t.endswith("n't")}


_SCOPE = 12  # words after a negation, within its clause, that it is said of
_CLAUSE = re.compile(r"[,;:()]|\b(?:but|whereas|while|although|and that|which)\b", re.I)
# Negations that deny nothing ("not only X but also Y", "no doubt").
_COMPOUND_NEGATION = re.compile(r"[\w-]*\b(?:not|no)-[\w-]*|[\w-]*-(?:not|no)\b")
_NOT_DENYING = re.compile(r"\b(not only|not just|not least|not surprisingly|no doubt|no longer)\b")
# Words before a negation that make it name a group or a case, not deny a statement
# ("patients with no hypoglycemia", "whether or not").
_NAMING = frozenset("but and or with of if whether".split())
_VERBS_AFTER = frozenset("is are was were has have had".split())


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
            if word not in CUES and word not in DENIALS and not word.endswith("n't"):
                continue
            if index and words[index - 1] in _NAMING:
                continue
            following = words[index + 1 : index + 1 + _SCOPE]
            # A negation inside the subject ends at its verb: "cells lacking avb8 are adept".
            verb = next((i for i, t in enumerate(following) if t in _VERBS_AFTER), len(following))
            said = " ".join(following[: verb if verb else len(following)])
            found.append((word, {stem(t) for t in content_tokens(said)}))
    return found


def denies_alike(claim: str, sentence: str) -> bool:
    """Whether every negation of the claim has one in the sentence said of the same words (two
    of them, or all where it is said of fewer): "is not associated with Y" and "showed no
    association with Y" deny alike; "there was no evidence of it with other agents" does not
    deny "there is not an inverse relationship between X and Y"."""
    sentence_negations = _negations(sentence)
    return all(
        any(len(said & other) >= min(2, len(said)) for _, other in sentence_negations)
        for word, said in _negations(claim)
        if word in DENIALS or word.endswith("n't")
    )


def denied(claim: str, sentence: str) -> str:
    """A claim that negates what the sentence states ("X is not associated with Y" against "X
    was associated with Y"): the sentence states at least half of what the claim's negation is
    said of in its clause ("without any improvement" against a sentence that reports the
    improvement; "is not easy, and that X" is no conflict with a sentence that says only X), and
    the clause of the sentence that states them denies nothing (a source that denies in its own
    words, "did not demonstrate a benefit of X", "is unlikely to", may say what the claim
    says)."""
    clauses = [c for c in _CLAUSE.split(sentence.lower()) if c and c.strip()]
    for word, said in _negations(claim):
        # "… in blood but not airways" against a source that never speaks of airways: the
        # source is silent on what the claim denies, which is no conflict.
        if word not in NEGATIONS_PROPER and not word.endswith("n't"):
            continue
        # The clauses of the sentence that state at least half of what the negation is said of:
        # a conflict where none of them denies anything.
        stating = [
            clause
            for clause in clauses
            if (stated := said & {stem(t) for t in content_tokens(clause)})
            and 2 * len(stated) >= len(said)
        ]
        if stating and not any(_denies(clause) for clause in stating):
            return f"'{word}' in the claim only: {quote(sentence)}"
    return ""


def _negates_an_opposite(claim: str, sentence: str) -> bool:
    """Whether the sentence negates a direction word that opposes one of the claim's."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    return any(
        negated(sentence_words, j) and opposed_at(claim_words, i, sentence_words, j)
        for i in range(len(claim_words))
        for j in range(len(sentence_words))
        if polarity_of(sentence_words[j]) and polarity_of(claim_words[i])
    )


def _denies(text: str) -> bool:
    """Whether a text holds a negation or a word that denies."""
    return any(t in DENIALS or t.endswith("n't") for t in tokens(text))


def negated_in_source(claim: str, sentence: str) -> str:
    """What the claim states plainly and the source denies: a negation of the sentence's own
    statement ("was not associated with an increased risk", "evidence was lacking for
    cognitive impairment") said of at least two of the claim's words, where no negation of the
    claim is said of the same words. A negation that sets a case aside ("in premenopausal, but
    not postmenopausal, women") or names an absence ("patients with no hypoglycemia") denies
    nothing the claim states."""
    if _cue_words(claim) & NEGATIONS_PROPER or _DENYING_WORDS & set(tokens(claim)):
        # A claim that negates something itself ("people with no symptoms"), or denies it in
        # its words ("is ineffective", "are refusing"), is compared by the aligned slots, not
        # by what a negation of the source is said of.
        return ""
    if _negates_an_opposite(claim, sentence):
        return ""  # "was not higher" against "was lower": the source neither denies nor agrees
    wanted = {stem(t) for t in content_tokens(claim)}
    needed = max(2, (len(wanted) + 1) // 2)
    claim_negations = _negations(claim)
    for word, said in _negations(sentence):
        # "without" names a group in a source ("patients without diabetes") more often than not
        denies = word != "without" and (word in NEGATIONS | {"lacking"} or word.endswith("n't"))
        # ... and a claim that negates the same words says what the source says.
        matched = any(len(said & other) >= 2 for _, other in claim_negations)
        if denies and not matched and len(said & wanted) >= needed:
            return (
                f"the source denies it ('{word}' before the claim's own words): {quote(sentence)}"
            )
    return ""
