"""Claims with one slot changed: what a careless or invented citation does to a true sentence.

From a sentence its source states, one thing is changed — a number, a named entity, a direction
word for its opposite, the two sides of a contrast or comparison swapped, a content word swapped
for another word of the same corpus (as COVID-Fact's counter-claims swap a salient word), or a
negation put in or taken out — and the source then says otherwise. Each changed claim must come
out `unsupported` or `unconfirmed`, never `supported` or `partial`.

The changes are written as a reader would make them, from the sentence alone: they know nothing
of the judge's rules or lexicon.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from citecore.ground.evidence import EvidenceIndex, RankedPassage, passages
from citecore.ground.text import read_source
from tests.paths import CORPUS

# Pairs of words that state opposite directions or values (either way round).
_OPPOSITES = (
    ("increase", "decrease"),
    ("increases", "decreases"),
    ("increased", "decreased"),
    ("increasing", "decreasing"),
    ("higher", "lower"),
    ("high", "low"),
    ("more", "less"),
    ("larger", "smaller"),
    ("large", "small"),
    ("better", "worse"),
    ("best", "worst"),
    ("improves", "worsens"),
    ("improved", "worsened"),
    ("positive", "negative"),
    ("positively", "negatively"),
    ("before", "after"),
    ("early", "late"),
    ("faster", "slower"),
    ("fast", "slow"),
    ("reduces", "increases"),
    ("reduced", "increased"),
    ("rise", "fall"),
    ("above", "below"),
    ("maximum", "minimum"),
    ("first", "last"),
    ("easy", "difficult"),
    ("strong", "weak"),
    ("stronger", "weaker"),
    ("inhibits", "promotes"),
    ("effective", "ineffective"),
    ("significant", "insignificant"),
    ("common", "rare"),
    ("simple", "complex"),
)
_OPPOSITE = {a: b for a, b in _OPPOSITES} | {b: a for a, b in _OPPOSITES}
_NUMBER = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)(?![\w]|[.,]\d)")
_NUMBER_WORDS = "two three four five six seven eight nine ten twelve twenty hundred".split()
_STOP = set(
    """about above after again also among because been before being below between both could
    during each from further have having here into itself more most only other over same should
    some such than that their them then there these they this those through under until very
    were what when where which while whom with would your""".split()
)
# Two things set against each other: "A rather than B", "A instead of B", and a comparison
# between groups: "higher in A than in B".
_PHRASE = r"\w[\w-]*(?:\s+\w[\w-]*){0,2}"
_CONTRASTS = (
    re.compile(rf"\b(?P<a>{_PHRASE})\s+(?P<cue>rather than|instead of)\s+(?P<b>{_PHRASE})"),
    re.compile(
        rf"\b(?P<pre>in|for|among|with|of)\s+(?P<a>{_PHRASE})\s+(?P<cue>than)\s+"
        rf"(?P=pre)\s+(?P<b>{_PHRASE})"
    ),
)


def _swapped(claim: str) -> str:
    """The claim with the two sides of its contrast or comparison swapped, or ""."""
    for pattern in _CONTRASTS:
        match = pattern.search(claim)
        if match and match.group("a").lower() != match.group("b").lower():
            a, b = match.span("a"), match.span("b")
            return (
                claim[: a[0]]
                + match.group("b")
                + claim[a[1] : b[0]]
                + match.group("a")
                + claim[b[1] :]
            )
    return ""


def _replace(claim: str, word: str, other: str) -> str:
    """The claim with its first `word` (a whole word, not part of a compound) as `other`."""
    return re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", other, claim, count=1)


@dataclass(frozen=True, slots=True)
class Changed:
    """A claim with one slot changed, and what kind of change it is."""

    claim: str
    kind: str


def _words(text: str) -> set[str]:
    return set(re.findall(r"[\w.-]+", text.lower()))


def changes(claim: str, evidence: str, vocabulary: Vocabulary, rng: random.Random) -> list[Changed]:
    """Every kind of one-slot change this claim allows, each of something the evidence states
    too (so that the evidence does say otherwise)."""
    stated = _words(evidence)
    made: list[Changed] = []
    for number in _NUMBER.finditer(claim):
        if number.group(1) in stated:
            value = float(number.group(1))
            other = str(int(value) + 7) if 1900 <= value <= 2100 else str(int(value * 2 + 3))
            made.append(Changed(claim[: number.start()] + other + claim[number.end() :], "number"))
            break
    else:
        for word in _NUMBER_WORDS:
            if re.search(rf"\b{word}\b", claim) and word in stated:
                other = _NUMBER_WORDS[(_NUMBER_WORDS.index(word) + 3) % len(_NUMBER_WORDS)]
                made.append(Changed(re.sub(rf"\b{word}\b", other, claim, count=1), "number"))
                break
    entities = [
        m
        for m in re.finditer(r"(?<=\s)([A-Z][A-Za-z0-9-]{2,})\b", claim)
        if m.group(1).lower() in stated
    ]
    if entities:
        match = rng.choice(entities)
        others = [e for e in vocabulary.entities if e.lower() not in stated]
        if others:
            other = rng.choice(others)
            made.append(Changed(claim[: match.start()] + other + claim[match.end() :], "entity"))
    for word in re.findall(r"(?<![\w-])[A-Za-z]+(?![\w-])", claim):
        if word.lower() in _OPPOSITE and word.lower() in stated:
            made.append(Changed(_replace(claim, word, _OPPOSITE[word.lower()]), "direction"))
            break
    swapped = _swapped(claim)
    if swapped:
        made.append(Changed(swapped, "contrast"))
    content = [
        w
        for w in re.findall(r"\b[a-z]{5,}\b", claim)
        if w not in _STOP and w.lower() in stated and w not in _OPPOSITE
    ]
    if content:
        word = rng.choice(content)
        others = [w for w in vocabulary.words if w[-2:] == word[-2:] and w not in stated]
        if others:
            other = rng.choice(others)
            changed = _replace(claim, word, other)
            if changed != claim:
                made.append(Changed(changed, "word"))
    negated = _negation(claim)
    if negated:
        made.append(Changed(negated, "negation"))
    return made


def _negation(claim: str) -> str:
    if re.search(r"\bnot\b", claim):
        return re.sub(r"\s*\bnot\b", "", claim, count=1)
    verb = re.search(r"\b(is|are|was|were|can|does|do|has|have|will|could)\b", claim)
    if verb:
        return claim[: verb.end()] + " not" + claim[verb.end() :]
    return ""


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Words to put in a slot's place: named entities and lower-case content words of a corpus."""

    entities: tuple[str, ...]
    words: tuple[str, ...]


def vocabulary(texts: Iterable[str]) -> Vocabulary:
    """The entities and content words of the texts, in a fixed order."""
    entities: dict[str, None] = {}
    words: dict[str, None] = {}
    for text in texts:
        for entity in re.findall(r"(?<=\s)([A-Z][A-Za-z0-9-]{2,})\b", text):
            entities.setdefault(entity, None)
        for word in re.findall(r"\b[a-z]{5,}\b", text):
            if word not in _STOP and word not in _OPPOSITE:
                words.setdefault(word, None)
    return Vocabulary(tuple(entities), tuple(words))


# Real PDFs whose sentences are the supported claims: the arXiv papers and the publishers' PDFs.
def source_pdfs() -> list[Path]:
    """The real paper PDFs of the corpus."""
    return sorted((CORPUS / "pdfs").glob("*.pdf")) + sorted(
        (CORPUS / "wild" / "pdfs").glob("*/*.pdf")
    )


@dataclass(frozen=True, slots=True)
class SourceClaim:
    """A sentence of a real source, as a claim, with the passages the evidence index gives."""

    source: str
    claim: str
    evidence: tuple[RankedPassage, ...]
    index: EvidenceIndex


_REFERENCES = re.compile(r"^\W*(references|bibliography|works cited|literature cited)\W*$", re.I)


def _body_sentences(text: str) -> Iterator[str]:
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text):
        words = sentence.split()
        letters = sum(w.isalpha() for w in words)
        plain = not re.search(r"[#|*_\[\]{}\\]|https?:|@|et al", sentence)
        if (
            12 <= len(words) <= 40
            and letters >= 0.7 * len(words)
            and sentence.endswith(".")
            and plain
        ):
            yield " ".join(words)


def source_claims(path: Path, per_source: int, rng: random.Random) -> list[SourceClaim]:
    """Up to `per_source` sentences of the body of a real PDF (before its reference list), each
    with the passages the evidence index ranks first for it."""
    source = read_source(path)
    body: list[str] = []
    for page in source.pages:
        lines = page.text.splitlines()
        ended = next((i for i, line in enumerate(lines) if _REFERENCES.match(line.strip())), None)
        body.extend(_body_sentences(" ".join(lines[:ended])))
        if ended is not None:
            break
    # Every sentence with a contrast or comparison to swap, and a sample of the rest.
    chosen = list(
        dict.fromkeys([*rng.sample(body, min(per_source, len(body))), *filter(_swapped, body)])
    )
    index = EvidenceIndex(passages(source))
    name = path.parent.name if path.parent.name != "pdfs" else path.stem
    return [SourceClaim(name, claim, tuple(index.rank(claim)), index) for claim in chosen]
