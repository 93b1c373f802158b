"""What words mean to each other: WordNet's synonyms and antonyms, read from its own files.

The local judge asks two questions of a pair of words: do they name the same thing
("rise"/"increase": one synset), and are they opposites ("effective"/"ineffective",
"rise"/"fall": WordNet's antonym pointers, and for an adjective that WordNet lists as similar to
a head word, that head's antonyms: "damp" is opposed to "dry" through "wet")?

The database is the one Debian's `wordnet-base` installs (`/usr/share/wordnet`), or wherever
`WNSEARCHDIR` (WordNet's own variable) points. Its files are read as WordNet's own library reads
them: the sorted index searched by bisection, a synset read at the byte offset the index gives,
irregular forms from the exception lists. Nothing is loaded up front, so a judge that asks about
a few dozen words pays for a few dozen look-ups. Without the database, `lexicon()` is the
rules-only lexicon that knows no words, and says so.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Protocol

_POS = ("n", "v", "a", "r")
_FILE_POS = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# WordNet's detachment rules ("morphy"): inflected ending → base ending, per part of speech.
_DETACH = {
    "n": (
        ("s", ""),
        ("ses", "s"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ),
    "v": (
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
# Pointers to a synset one step away in meaning: hypernym, instance hypernym, similar to, verb
# group ("rise" is a kind of "change magnitude"; "damp" is similar to "wet").
_NEAR = frozenset({"@", "@i", "&", "$"})
_DEFAULT_DIRS = ("/usr/share/wordnet", "/usr/local/WordNet-3.0/dict", "/usr/share/wordnet/dict")


class Lexicon(Protocol):
    """Synonymy and antonymy of English words, as far as the lexicon knows them."""

    @property
    def description(self) -> str:
        """What the lexicon is, for a judge's reasons ("WordNet 3.0 at …", or why there is none)."""
        ...

    @property
    def known(self) -> bool:
        """Whether the lexicon knows any words at all."""
        ...

    def same_meaning(self, a: str, b: str) -> bool:
        """True when a sense of `a` and a sense of `b` are one synset or one step apart."""
        ...

    def opposite(self, a: str, b: str) -> bool:
        """True when a sense of `a` is the antonym of a sense of `b`."""
        ...


@dataclass(frozen=True, slots=True)
class _Synset:
    words: tuple[str, ...]
    # (source word number, 0 for the whole synset; target synset's pos and offset; target
    # word number, 0 for the whole synset) per antonym pointer.
    antonyms: tuple[tuple[int, str, int, int], ...]
    # Heads of a satellite adjective ("similar to"), as (pos, offset).
    heads: tuple[tuple[str, int], ...]
    # Synsets one step away in meaning: hypernyms, "similar to", verb groups, as (pos, offset).
    near: tuple[tuple[str, int], ...]


class WordNet:
    """WordNet's database files, read on demand."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._index = {pos: self._map(f"index.{_FILE_POS[pos]}") for pos in _POS}
        self._data = {pos: self._map(f"data.{_FILE_POS[pos]}") for pos in _POS}
        self._exceptions = {pos: self._read_exceptions(pos) for pos in _POS}

    @property
    def description(self) -> str:
        """The database's name and folder."""
        return f"WordNet 3.0 ({self.folder})"

    @property
    def known(self) -> bool:
        """A database knows words."""
        return True

    def _map(self, name: str) -> mmap.mmap:
        with (self.folder / name).open("rb") as stream:
            return mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)

    def _read_exceptions(self, pos: str) -> dict[str, tuple[str, ...]]:
        path = self.folder / f"{_FILE_POS[pos]}.exc"
        found: dict[str, tuple[str, ...]] = {}
        if path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                inflected, *bases = line.split()
                if bases:
                    found[inflected] = tuple(bases)
        return found

    def _offsets(self, lemma: str, pos: str) -> tuple[int, ...]:
        """The synset offsets of `lemma` as `pos`, by bisection of the sorted index."""
        index = self._index[pos]
        key = lemma.encode("utf-8") + b" "
        low, high = 0, len(index)
        while low < high:
            middle = (low + high) // 2
            start = index.rfind(b"\n", 0, middle) + 1
            end = index.find(b"\n", start)
            end = len(index) if end < 0 else end
            line = index[start:end]
            if line.startswith(b"  "):  # the licence at the top sorts before every lemma
                low = end + 1
                continue
            if line.startswith(key):
                fields = line.decode("utf-8").split()
                senses = int(fields[2])
                return tuple(int(offset) for offset in fields[-senses:])
            if line < key:
                low = end + 1
            else:
                high = start
        return ()

    def _bases(self, word: str, pos: str) -> list[str]:
        """The base forms of `word` as `pos` that the index holds (morphy)."""
        word = word.lower().replace(" ", "_")
        candidates = [word, *self._exceptions[pos].get(word, ())]
        candidates += [
            word[: len(word) - len(ending)] + base
            for ending, base in _DETACH[pos]
            if word.endswith(ending) and len(word) > len(ending) + 1
        ]
        return [c for c in dict.fromkeys(candidates) if self._offsets(c, pos)]

    def _senses(self, word: str) -> Iterator[tuple[str, int, str]]:
        """(pos, offset, base form) of every sense of `word`."""
        for pos in _POS:
            for base in self._bases(word, pos):
                for offset in self._offsets(base, pos):
                    yield pos, offset, base

    def _synset(self, pos: str, offset: int) -> _Synset:
        return _read_synset(self._data[pos], offset)

    def same_meaning(self, a: str, b: str) -> bool:
        """Whether some sense of each is one synset, or one step from it (a hypernym, a
        similar adjective, a verb of the same group): "kinases" is said of "enzymes"."""
        return bool(_near(self, a) & _synsets(self, b) or _near(self, b) & _synsets(self, a))

    def opposite(self, a: str, b: str) -> bool:
        """Whether a sense of either is an antonym of a sense of the other."""
        forms_a, forms_b = _forms(self, a), _forms(self, b)
        return bool(_antonyms(self, a) & forms_b or _antonyms(self, b) & forms_a)


def _read_synset(data: mmap.mmap, offset: int) -> _Synset:
    end = data.find(b"\n", offset)
    fields = data[offset : end if end >= 0 else len(data)].decode("utf-8").split(" | ")[0].split()
    count = int(fields[3], 16)
    # An adjective may carry a syntactic marker: "big(a)".
    words = tuple(w.split("(")[0].lower() for w in fields[4 : 4 + 2 * count : 2])
    at = 4 + 2 * count
    pointers = int(fields[at])
    antonyms, heads, near = [], [], []
    for i in range(pointers):
        symbol, target, pos, numbers = fields[at + 1 + 4 * i : at + 5 + 4 * i]
        pos = "a" if pos == "s" else pos
        if symbol == "!":
            antonyms.append((int(numbers[:2], 16), pos, int(target), int(numbers[2:], 16)))
        elif symbol == "&" and fields[2] == "s":
            heads.append((pos, int(target)))
        if symbol in _NEAR:
            near.append((pos, int(target)))
    return _Synset(words, tuple(antonyms), tuple(heads), tuple(near))


@lru_cache(maxsize=8192)
def _synsets(wordnet: WordNet, word: str) -> frozenset[tuple[str, int]]:
    return frozenset((pos, offset) for pos, offset, _ in wordnet._senses(word))


@lru_cache(maxsize=8192)
def _near(wordnet: WordNet, word: str) -> frozenset[tuple[str, int]]:
    """The word's synsets and those one step away from them."""
    found = set(_synsets(wordnet, word))
    for pos, offset in list(found):
        found.update(wordnet._synset(pos, offset).near)
    return frozenset(found)


@lru_cache(maxsize=8192)
def _forms(wordnet: WordNet, word: str) -> frozenset[str]:
    """The word and its base forms."""
    return frozenset({word.lower(), *(base for _, _, base in wordnet._senses(word))})


@lru_cache(maxsize=8192)
def _antonyms(wordnet: WordNet, word: str) -> frozenset[str]:
    """Every word WordNet opposes to a sense of `word`: its direct antonyms, and for a
    satellite adjective the antonyms of its head."""
    found: set[str] = set()
    for pos, offset, base in wordnet._senses(word):
        synset = wordnet._synset(pos, offset)
        number = synset.words.index(base) + 1 if base in synset.words else 0
        pointers = [(p, synset) for p in synset.antonyms if p[0] in (0, number)]
        for head_pos, head_offset in synset.heads:
            head = wordnet._synset(head_pos, head_offset)
            pointers += [(p, head) for p in head.antonyms]
        for (_, target_pos, target_offset, target_number), _source in pointers:
            target = wordnet._synset(target_pos, target_offset)
            if target_number:
                found.add(target.words[target_number - 1])
            else:
                found.update(target.words)
    return frozenset(w.replace("_", " ") for w in found)


@dataclass(frozen=True, slots=True)
class RulesOnly:
    """No lexicon: the judge's own rules alone decide."""

    reason: str

    @property
    def description(self) -> str:
        """Why there is no lexicon."""
        return self.reason

    @property
    def known(self) -> bool:
        """No words known."""
        return False

    def same_meaning(self, a: str, b: str) -> bool:
        """Unknown: never."""
        del a, b
        return False

    def opposite(self, a: str, b: str) -> bool:
        """Unknown: never."""
        del a, b
        return False


def wordnet_folder() -> Path | None:
    """Where WordNet's database is: `WNSEARCHDIR`, else the places packages install it."""
    named = os.environ.get("WNSEARCHDIR")
    for folder in (named,) if named else _DEFAULT_DIRS:
        if folder and (Path(folder) / "index.noun").is_file():
            return Path(folder)
    return None


@cache
def lexicon() -> Lexicon:
    """WordNet where it is installed, else the rules-only lexicon that says why not."""
    folder = wordnet_folder()
    if folder is None:
        return RulesOnly(
            "rules only: WordNet is not installed (Debian: apt-get install wordnet-base)"
        )
    try:
        return WordNet(folder)
    except (OSError, ValueError) as error:
        return RulesOnly(f"rules only: WordNet at {folder} could not be read ({error})")
