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

    def says(self, said: str, claimed: str) -> bool:
        """True when a sense of `said` is a sense of `claimed` or one step below it in meaning
        (a kind of it, an adjective similar to it, a verb of its group): a source that says
        "kinases" says "enzymes", one that says "enzymes" does not say "kinases"."""
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
    """WordNet's database files, read on demand; each word's look-ups remembered."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._index = {pos: self._map(f"index.{_FILE_POS[pos]}") for pos in _POS}
        self._data = {pos: self._map(f"data.{_FILE_POS[pos]}") for pos in _POS}
        self._exceptions = {pos: self._read_exceptions(pos) for pos in _POS}
        # Bound per instance, so that each database keeps its own memory of what it was asked.
        self._senses = lru_cache(maxsize=16384)(self._read_senses)
        self._synset = lru_cache(maxsize=16384)(self._read_synset)
        self._antonyms = lru_cache(maxsize=8192)(self._read_antonyms)
        self._near = lru_cache(maxsize=8192)(self._read_near)
        # A folder of other files, or damaged ones, fails here rather than inside a judgment.
        if not self.opposite("good", "bad"):
            raise ValueError("'good' and 'bad' are not antonyms in it: not a WordNet 3 database")

    @property
    def description(self) -> str:
        """The database's name and folder."""
        return f"WordNet 3.0 ({self.folder})"

    @property
    def known(self) -> bool:
        """A database knows words."""
        return True

    def same_meaning(self, a: str, b: str) -> bool:
        """Whether some sense of each is one synset, or one step from it (a hypernym, a
        similar adjective, a verb of the same group): "kinases" is said of "enzymes"."""
        synsets_a = {(pos, offset) for pos, offset, _ in self._senses(a)}
        synsets_b = {(pos, offset) for pos, offset, _ in self._senses(b)}
        return bool(self._near(a) & synsets_b or self._near(b) & synsets_a)

    def says(self, said: str, claimed: str) -> bool:
        """Whether some sense of `said` is a sense of `claimed`, or a kind of it one step down
        (its hypernym is `claimed`), an adjective similar to it, or a verb of its group."""
        if said == claimed:
            return True
        return bool(self._near(said) & {(pos, offset) for pos, offset, _ in self._senses(claimed)})

    def opposite(self, a: str, b: str) -> bool:
        """Whether a sense of either is an antonym of a sense of the other."""
        return bool(self._antonyms(a) & self._forms(b) or self._antonyms(b) & self._forms(a))

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

    def _read_senses(self, word: str) -> tuple[tuple[str, int, str], ...]:
        """(pos, offset, base form) of every sense of `word`."""
        return tuple(
            (pos, offset, base)
            for pos in _POS
            for base in self._bases(word, pos)
            for offset in self._offsets(base, pos)
        )

    def _forms(self, word: str) -> set[str]:
        """The word and its base forms."""
        return {word.lower(), *(base for _, _, base in self._senses(word))}

    def _read_synset(self, pos: str, offset: int) -> _Synset:
        """The synset at `offset` of the data file of `pos` (wndb(5WN))."""
        data = self._data[pos]
        end = data.find(b"\n", offset)
        line = data[offset : end if end >= 0 else len(data)].decode("utf-8")
        fields = line.split(" | ")[0].split()
        count = int(fields[3], 16)
        # An adjective may carry a syntactic marker: "big(a)".
        words = tuple(w.split("(")[0].lower() for w in fields[4 : 4 + 2 * count : 2])
        at = 4 + 2 * count
        antonyms, heads, near = [], [], []
        for i in range(int(fields[at])):
            symbol, target, target_pos, numbers = fields[at + 1 + 4 * i : at + 5 + 4 * i]
            target_pos = "a" if target_pos == "s" else target_pos
            if symbol == "!":
                antonyms.append(
                    (int(numbers[:2], 16), target_pos, int(target), int(numbers[2:], 16))
                )
            elif symbol == "&" and fields[2] == "s":
                heads.append((target_pos, int(target)))
            if symbol in _NEAR:
                near.append((target_pos, int(target)))
        return _Synset(words, tuple(antonyms), tuple(heads), tuple(near))

    def _read_near(self, word: str) -> frozenset[tuple[str, int]]:
        """The word's synsets and those one step away from them."""
        found = {(pos, offset) for pos, offset, _ in self._senses(word)}
        for pos, offset in list(found):
            found.update(self._synset(pos, offset).near)
        return frozenset(found)

    def _read_antonyms(self, word: str) -> frozenset[str]:
        """Every word WordNet opposes to a sense of `word`: its direct antonyms, and for a
        satellite adjective the antonyms of its head."""
        found: set[str] = set()
        for pos, offset, base in self._senses(word):
            synset = self._synset(pos, offset)
            number = synset.words.index(base) + 1 if base in synset.words else 0
            pointers = [p for p in synset.antonyms if p[0] in (0, number)]
            for head_pos, head_offset in synset.heads:
                pointers += self._synset(head_pos, head_offset).antonyms
            for _, target_pos, target_offset, target_number in pointers:
                target = self._synset(target_pos, target_offset)
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

    def says(self, said: str, claimed: str) -> bool:
        """Unknown: only a word says itself."""
        return said == claimed


def wordnet_folder() -> Path | None:
    """Where WordNet's database is: `WNSEARCHDIR`, else the places packages install it."""
    named = os.environ.get("WNSEARCHDIR")
    for folder in (named,) if named else _DEFAULT_DIRS:
        if folder and (Path(folder) / "index.noun").is_file():
            return Path(folder)
    return None


def open_lexicon(folder: Path | None) -> Lexicon:
    """WordNet in `folder`, or the rules-only lexicon saying why there is none there."""
    if folder is None:
        return RulesOnly(
            "rules only: WordNet is not installed (Debian: apt-get install wordnet-base)"
        )
    try:
        return WordNet(folder)
    except (OSError, ValueError, IndexError) as error:
        return RulesOnly(f"rules only: WordNet at {folder} could not be read ({error})")


@cache
def lexicon() -> Lexicon:
    """The lexicon of this machine, opened once: WordNet where it is installed, else rules only."""
    return open_lexicon(wordnet_folder())
