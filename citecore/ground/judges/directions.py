"""Direction words: the scales they lie on, and a direction the source states the other way.

"increase"/"decrease", "improve"/"worsen", "before"/"after" are each on a scale of their own;
words on different scales never oppose each other ("later" is not the opposite of "increased").
"""

from __future__ import annotations

from collections.abc import Iterator

from citecore.ground.judges.words import quote, stem
from citecore.ground.tokens import NEGATIONS, content_tokens, tokens

# Words that state a direction (English, closed class) on a scale: up (+1) or down (-1). A word
# may lie on two scales ("impairs survival" lowers it and worsens it).
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
        prevents prevented impair impairs impaired""",
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
_POLARITY: dict[str, dict[str, int]] = {}
for _scale, (_up, _down) in _SCALES.items():
    for _sign_of, _words in ((1, _up), (-1, _down)):
        for _word in _words.split():
            _POLARITY.setdefault(_word, {})[_scale] = _sign_of
_DIRECTION_REACH = 6  # words next to a direction word that count as what it is said of
_COORDINATORS = frozenset("and or nor".split())
_COPULAS = frozenset("is are was were be been being become became remain remained".split())
# By stem, so that the nouns count too ("suppression", "reduction").
_STEM_POLARITY = {stem(word): polarity for word, polarity in _POLARITY.items()}
# The nouns made from direction verbs, each with its verb ("activation" is "activate", but
# "activity" and "active" state no direction, and "position" is no "positive").
_NOUNS = {
    "reduction": "reduce", "suppression": "suppress", "inhibition": "inhibit",
    "activation": "activate", "elevation": "elevate", "impairment": "impair",
    "improvement": "improve", "enhancement": "enhance", "attenuation": "attenuate",
    "stimulation": "stimulate", "promotion": "promote", "induction": "induce",
    "upregulation": "upregulate", "downregulation": "downregulate", "prevention": "prevent",
    "diminution": "diminish", "worsening": "worsen", "weakening": "weaken",
}  # fmt: skip


def polarity_of(word: str) -> dict[str, int]:
    """The scales a word states a direction on, and which way: a listed direction word, or a
    noun made from one ("reductions", "impairment")."""
    if word in _POLARITY:
        return _POLARITY[word]
    verb = _NOUNS.get(word) or _NOUNS.get(word.removesuffix("s"), "")
    return _POLARITY.get(verb, {})


# Verbs that say what is brought about, not which way: followed closely by a direction word,
# they state its direction ("induced significant reductions in the cytokine storm" reduces it).
_CAUSATIVES = frozenset(
    """induce induces induced inducing cause causes caused causing produce produces produced
    producing lead leads led leading result results resulted resulting yield yields yielded
    trigger triggers triggered""".split()
)
_CAUSED_REACH = 3


def direction_at(words: list[str], position: int, inferred: bool = True) -> dict[str, int]:
    """The scales and signs of the word at `position` as its neighbours make it read: a
    causative verb takes the direction of what it brings about; an inverter just before a word
    turns it round ("blocking reagents prevented" lets a reader infer "promotes"), unless only
    what is `inferred` is left out — what a sentence states, for support."""
    polarity = polarity_of(words[position])
    if words[position] in _CAUSATIVES:
        for word in words[position + 1 : position + 1 + _CAUSED_REACH]:
            if caused := polarity_of(word):
                polarity = caused
                break
    if not inferred:
        return dict(polarity)
    return {scale: _sign(words, position, sign) for scale, sign in polarity.items()}


def opposed_at(words: list[str], position: int, others: list[str], at: int) -> bool | None:
    """Whether the word at `position` of `words` and the word at `at` of `others` state
    opposite directions on a scale they share, each as its neighbours make it read; None when
    they share no scale (no direction words, or of different scales)."""
    mine, theirs = direction_at(words, position), direction_at(others, at)
    if not set(mine) & set(theirs):
        return None
    return any(sign * theirs[scale] < 0 for scale, sign in mine.items() if scale in theirs)


def along_at(words: list[str], position: int, others: list[str], at: int) -> bool:
    """Whether the word at `position` of `words` and the word at `at` of `others` state the same
    direction on a scale they share, each as its neighbours make it read (without what an
    inverter lets a reader infer: a sentence carries a direction only by stating it)."""
    mine = direction_at(words, position, inferred=False)
    theirs = direction_at(others, at, inferred=False)
    return any(sign == theirs[scale] for scale, sign in mine.items() if scale in theirs)


def _pairs(a: str, b: str) -> list[tuple[int, int]]:
    """The signs of two words on each scale they share."""
    scales_a, scales_b = _POLARITY.get(a, {}), _POLARITY.get(b, {})
    return [(sign, scales_b[scale]) for scale, sign in scales_a.items() if scale in scales_b]


def opposed(a: str, b: str) -> bool:
    """Two direction words on one scale, pointing opposite ways."""
    return any(x * y < 0 for x, y in _pairs(a, b))


def along(a: str, b: str) -> bool:
    """Two direction words on one scale, pointing the same way ("decreased"/"declined")."""
    return any(x == y for x, y in _pairs(a, b))


def on_one_scale(a: str, b: str) -> bool:
    """Two direction words on one scale, either way: whether they conflict is
    `direction_conflict`'s to say, with the words they are said of."""
    return bool(_pairs(a, b))


def _said_of(stems: list[str], position: int, scale: str) -> set[str]:
    """The stems a direction word at `position` is said of: the words after it ("reduces
    energy expenditure"), or before it when it follows a form of "be" ("energy expenditure
    was also increased", "rates were higher"), up to another direction word on its `scale`
    (one on another scale is part of what it is said of: "higher rates of rejection")."""

    def ends(word: str) -> bool:
        return scale in _STEM_POLARITY.get(word, {})

    previous = stems[max(0, position - 2) : position]
    if any(word in _COPULAS for word in previous):
        span = stems[max(0, position - _DIRECTION_REACH) : position]
        cut = [i for i, word in enumerate(span) if ends(word)]
        return set(span[cut[-1] + 1 :] if cut else span)
    span = stems[position + 1 : position + 1 + _DIRECTION_REACH]
    if len(span) > 1 and span[0] in _COORDINATORS and ends(span[1]):
        # "positive and negative PCR results": both are said of what the second is said of.
        return _said_of(stems, position + 2, scale)
    cut = [i for i, word in enumerate(span) if ends(word)]
    return set(span[: cut[0]] if cut else span)


# Words that turn a direction round when they stand just before it: "CX3CR1-blocking reagents
# prevented inflammation" says that CX3CR1 promotes it.
_INVERTERS = frozenset(
    """blocking blocked blockade deficient deficiency knockout inhibitor inhibitors inhibition
    antagonist antagonists depletion depleted loss lack absence""".split()
)
_INVERTER_REACH = 3


_NEGATION_REACH = 2


def negated(words: list[str], position: int) -> bool:
    """Whether a negation stands just before the word at `position` ("not higher")."""
    before = words[max(0, position - _NEGATION_REACH) : position]
    return any(w in NEGATIONS or w.endswith("n't") for w in before)


def _sign(words: list[str], position: int, sign: int) -> int:
    """The direction of the word at `position`, turned round by an inverter just before it."""
    before = words[max(0, position - _INVERTER_REACH) : position]
    return -sign if any(word in _INVERTERS for word in before) else sign


def direction_conflict(claim: str, sentence: str) -> str:
    """A direction the claim states of something the sentence states the other way on the same
    scale ("reduces IL-10 production" against "induced IL-10 production", "reduces energy
    expenditure" against "energy expenditure was increased"): each direction word of the claim
    is read against the sentence's direction words said of most of the same words, each turned
    round by an inverter just before it ("blocking", "deficient", "loss"). A sentence that says
    the claim's own direction of those words as clearly states no conflict."""
    for word, said, against, targets in _opposed_directions(claim, sentence):
        # One shared word is no evidence that two statements are about the same thing.
        if against >= min(2, targets):
            return f"the source says '{said}' where the claim says '{word}': {quote(sentence)}"
    return ""


def direction_doubt(claim: str, sentence: str) -> str:
    """A direction the sentence states the other way of one word the claim's direction is said
    of ("higher rates of rejection" against "lower incidence of acute rejection"): too little
    to accuse the claim, too much to call it supported."""
    for word, said, _, _ in _opposed_directions(claim, sentence):
        return f"the source says '{said}' where the claim says '{word}'"
    return ""


def _opposed_directions(claim: str, sentence: str) -> Iterator[tuple[str, str, int, int]]:
    """Each direction word of the claim that a direction word of the sentence opposes on its
    scale, said of more of the same words than any agreeing one: the claim's word, the
    sentence's, how many of the words they are said of are shared, and how many the claim's
    word is said of."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    content = {stem(t) for t in content_tokens(claim)}
    claim_stems = [stem(t) for t in claim_words]
    sentence_stems = [stem(t) for t in sentence_words]
    for index, word in enumerate(claim_words):
        for scale, sign in direction_at(claim_words, index).items():
            targets = _said_of(claim_stems, index, scale) & content
            best: dict[int, tuple[int, str]] = {1: (0, ""), -1: (0, "")}
            for position in range(len(sentence_stems)):
                other = direction_at(sentence_words, position).get(scale, 0)
                if not other or negated(sentence_words, position):
                    continue  # "was not higher" states neither way
                score = len(targets & _said_of(sentence_stems, position, scale))
                if score > best[other][0]:
                    best[other] = (score, sentence_words[position])
            (against, said), (agreeing, _) = best[-sign], best[sign]
            if against and against > agreeing:
                yield word, said, against, len(targets)
