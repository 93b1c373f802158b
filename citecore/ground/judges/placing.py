"""Whether the judge can place a claim's word in the source: the same word, a synonym, an
abbreviation, or a name the source gives; and where it finds another word in its place.

A word the judge cannot place is no conflict — a paraphrase looks the same to a lexical judge
— but no support either: these rules turn `supported`/`partial` into `unconfirmed`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from citecore.ground.judges.directions import along, on_one_scale
from citecore.ground.judges.words import is_number, stem
from citecore.ground.lexicon import Lexicon
from citecore.ground.tokens import STOP_WORDS as _STOP_WORDS
from citecore.ground.tokens import content_tokens, normalize, tokens

# Words of a sentence that say how it is said, not what: they never stand in a claim word's place.
DISCOURSE = frozenset(
    """although though however whereas while compared additionally respectively moreover
    furthermore here thus therefore""".split()
)


# The signals that introduce a citation ("see @key", "cf. @key"): they point to the source, and
# nothing of the source stands in their place.
SIGNALS = frozenset("see cf compare".split())


# Prepositions that the tokens' stop list leaves in: they relate words, never stand for one.
_PREPOSITIONS = frozenset(
    """during after before among between within across against versus vs upon without under
    over through toward towards despite""".split()
)


def same_word(
    word: str, other: str, context: tuple[list[str], list[str]], lexicon: Lexicon
) -> bool:
    """Whether the judge knows `other` of the source as the claim's `word`: one stem, one
    inside the other, direction words of one scale, the same meaning in the lexicon, or an
    abbreviation of the other side's words (`context`: the claim's and the sentence's
    tokens)."""
    claim_words, sentence_words = context
    return (
        stem(word) == stem(other)
        or word in other
        or other in word
        or along(word, other)
        or lexicon.same_meaning(word, other)
        # A word one side uses as itself abbreviates nothing else there: once the claim says
        # "MSCs" as its source does, the source's "MSCs" is not also the claim's "microscopy".
        or (not _uses(claim_words, other) and abbreviates(other, claim_words, word))
        or (not _uses(sentence_words, word) and abbreviates(word, sentence_words, other))
    )


def _bare(short: str) -> str:
    """An abbreviation without its plural ("hscs" → "hsc")."""
    return short[:-1] if short.endswith("s") and len(short) > 2 else short


def _uses(words: list[str], short: str) -> bool:
    """Whether the words use `short` itself, singular or plural."""
    return _bare(short) in _bare_forms(tuple(words))


@lru_cache(maxsize=4096)
def _bare_forms(words: tuple[str, ...]) -> frozenset[str]:
    return frozenset(_bare(word) for word in words)


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


def _spelled_runs(short: str, words: list[str]) -> Iterator[list[str]]:
    """The runs of one to five of `words` that `short` abbreviates, spelled by their letters in
    order with each word's first letter among them: "hscs" for "hematopoietic stem cells", "il"
    for "interleukin", "cdca" for "chenodeoxycholic acid". One word is abbreviated by at most
    four letters, and only a long word."""
    short = _bare(short)
    if not 2 <= len(short) <= 6 or not short.isalpha():
        return
    for start in range(len(words)):
        for end in range(start + 1, min(start + 6, len(words) + 1)):
            run = words[start:end]
            if len(run) == 1 and (len(short) > 4 or len(run[0]) < 8):
                continue
            if len(run) > len(short):
                break
            if _spells(short, run):
                yield run


def abbreviates(short: str, words: list[str], word: str | None = None) -> bool:
    """Whether `short` abbreviates a run of `words` (one that holds `word`, when given)."""
    return any(word is None or word in run for run in _stands_for(short, tuple(words)))


# An abbreviation as it is written: letters only, two capitals or more ("HSCs", "CBT", "CI").
_WRITTEN_SHORT = re.compile(r"\b(?=[A-Za-z]*[A-Z][A-Za-z]*[A-Z])[A-Za-z]{2,7}\b")


def written_short_forms(text: str) -> set[str]:
    """The abbreviations a text writes ("HSCs", "CBT"), folded as tokens are."""
    return {normalize(short) for short in _WRITTEN_SHORT.findall(text)}


# Remembered: a judgment asks the same abbreviation of the same sentence for every word pair.
@lru_cache(maxsize=16384)
def _stands_for(short: str, words: tuple[str, ...]) -> list[list[str]]:
    """The runs of content words among `words` that an abbreviation stands for: the runs whose
    initials it is, when there are any ("MSCs" is "mesenchymal stem cells", then never
    "microscopy"), else the runs it spells ("IL" for "interleukin", "CDCA")."""
    runs = [run for run in _spelled_runs(short, list(words)) if not set(run) & _STOP_WORDS]
    by_initials = [run for run in runs if _initials(short, run)]
    return by_initials or runs


def _initials(short: str, run: list[str]) -> bool:
    """Whether `short` is the initials of a run of two words or more ("HSCs", "CBT")."""
    return len(run) >= 2 and "".join(word[0] for word in run) == _bare(short)


def _initials_of(short: str, words: list[str]) -> list[str] | None:
    """The run of content words whose initials `short` is: the strict form that lets an
    abbreviation count as the words themselves. Never where the words use `short` itself
    (then it is that), nor a run holding a direction word (an abbreviation names a thing, not
    a change in it: "TCR" is not "T cells reduce")."""
    if _uses(words, short):
        return None
    return next(
        (
            run
            for run in _stands_for(short, tuple(words))
            if _initials(short, run) and not any(on_one_scale(word, word) for word in run)
        ),
        None,
    )


@dataclass(frozen=True, slots=True)
class Abbreviated:
    """A claim and a sentence with one abbreviation where one abbreviates what the other spells
    out, and the claim's words the sentence states by an abbreviation (they count as stated)."""

    claim: str
    sentence: str
    stated: frozenset[str]


def abbreviated_alike(claim: str, sentence: str) -> Abbreviated:
    """The claim and the sentence with one abbreviation for the words it stands for where one
    of them abbreviates what the other spells out: the claim's "hematopoietic stem cells" read
    as the sentence's "HSCs", the sentence's "cognitive behavioural therapy" as the claim's
    "CBT". A reader takes an abbreviation for the words it stands for; every rule then compares
    the same words, and no side grows longer than it was written."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    stated: set[str] = set()
    for short in set(_WRITTEN_SHORT.findall(sentence)):
        run = _initials_of(normalize(short), claim_words)
        if run is not None:
            claim = _shortened(claim, run, short)
            stated.update(run)
    # An alias the claim gives in parentheses ("neutrophil extracellular traps (NETs)") is the
    # claim's own: its words before it are what it claims.
    for short in set(_WRITTEN_SHORT.findall(re.sub(r"\([^()]*\)", " ", claim))):
        run = _initials_of(normalize(short), sentence_words)
        if run is not None:
            sentence = _shortened(sentence, run, short)
    return Abbreviated(claim, sentence, frozenset(stated))


def _shortened(text: str, run: list[str], short: str) -> str:
    """The text with the run of words written as its abbreviation."""
    spelled = r"\W+".join(re.escape(word) for word in run)
    return re.sub(rf"\b{spelled}\b", short, text, flags=re.IGNORECASE)


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
    # An alias is a short parenthesis ("(AZT)", "(HSCT-T)"); a remark in parentheses ("the
    # independent strategy; Figure 1") names what it names.
    plain = re.sub(r"\(\s*[^()\s;,]+(?:\s+[^()\s;,]+){0,2}\s*\)", " ", claim)
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


def names(claim: str) -> set[str]:
    """The names a claim gives ("TMEM27", "HPV", "Okazaki", "Transformer"), folded as tokens
    are."""
    return _names(claim)


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
        and not abbreviates(name, stated)
        and not any(abbreviates(short, claim_words, name) for short in short_forms)
    )


def displaced(claim: str, sentence: str, lexicon: Lexicon) -> str:
    """A content word of the claim that the sentence does not state, next to a content word
    they share, where the sentence has another content word next to that one: "breast dimer"
    against "breast cancer", "thyroid lifetime" against "thyroid volume". The alignment of the
    whole sentence misses it when the claim is worded otherwise around it."""
    claim_words, sentence_words = tokens(claim), tokens(sentence)
    sentence_stems = {stem(t) for t in sentence_words}
    claim_stems = {stem(t) for t in claim_words}
    content = set(content_tokens(claim)) - SIGNALS
    stated_content = set(content_tokens(sentence))
    for index, word in enumerate(claim_words):
        if word not in content or is_number(word) or stem(word) in sentence_stems:
            continue
        # Two direction words of one scale are `direction_conflict`'s to compare.
        if word in _PREPOSITIONS or any(
            same_word(word, other, (claim_words, sentence_words), lexicon)
            or on_one_scale(word, other)
            for other in stated_content
        ):
            continue
        for side in (-1, 1):
            at = index + side
            if not 0 <= at < len(claim_words) or claim_words[at] not in content:
                continue
            anchor = claim_words[at]
            other = _in_its_place(anchor, side, sentence_words, stated_content, claim_stems)
            if other:
                theirs = " ".join((anchor, other)[::-side])
                mine = " ".join((anchor, word)[::-side])
                return f"the source says '{theirs}' where the claim says '{mine}'"
    return ""


def _in_its_place(
    anchor: str,
    side: int,
    sentence_words: list[str],
    stated_content: set[str],
    claim_stems: set[str],
) -> str:
    """The sentence's content word on the `side` of `anchor` where the claim has its own word:
    one the claim never says (no number, no preposition); "" when there is none."""
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
            return other
    return ""
