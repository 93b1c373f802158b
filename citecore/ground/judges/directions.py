"""Direction words: the scales they lie on, and a direction the source states the other way.

"increase"/"decrease", "improve"/"worsen", "before"/"after" are each on a scale of their own;
words on different scales never oppose each other ("later" is not the opposite of "increased").
"""

from __future__ import annotations

from collections.abc import Iterator

from citecore.ground.judges.words import quote, stem
from citecore.ground.tokens import content_tokens, tokens

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
_COPULAS = frozenset("is are was were be been being become became remain remained".split())
# By stem, so that the nouns count too ("suppression", "reduction").
_STEM_POLARITY = {stem(word): polarity for word, polarity in _POLARITY.items()}


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
    cut = [i for i, word in enumerate(span) if ends(word)]
    return set(span[: cut[0]] if cut else span)


# Words that turn a direction round when they stand just before it: "CX3CR1-blocking reagents
# prevented inflammation" says that CX3CR1 promotes it.
_INVERTERS = frozenset(
    """blocking blocked blockade deficient deficiency knockout inhibitor inhibitors inhibition
    antagonist antagonists depletion depleted loss lack absence""".split()
)
_INVERTER_REACH = 3


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
        for scale, sign in _POLARITY.get(word, {}).items():
            targets = _said_of(claim_stems, index, scale) & content
            sign = _sign(claim_words, index, sign)
            best: dict[int, tuple[int, str]] = {1: (0, ""), -1: (0, "")}
            for position, word_stem in enumerate(sentence_stems):
                other = _STEM_POLARITY.get(word_stem, {}).get(scale, 0)
                if not other:
                    continue
                other = _sign(sentence_words, position, other)
                score = len(targets & _said_of(sentence_stems, position, scale))
                if score > best[other][0]:
                    best[other] = (score, sentence_words[position])
            (against, said), (agreeing, _) = best[-sign], best[sign]
            if against and against > agreeing:
                yield word, said, against, len(targets)
