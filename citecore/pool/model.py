"""The literature pool as records: the pool file read, checked and fixed.

A pool is `{"papers": [...], "min_cite_paper_count": n}`; each paper has a title, year,
authors, venue, abstract, externalIds (DOI, ArXiv), paperId, `discovered_for` tags and optionally
a `bibtex_key`. Papers without a key get the deterministic one BibTeX export would give them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from citecore.errors import InputError
from citecore.model import Severity
from citecore.normalize import fold, normalized_title

_STOP_TITLE = frozenset(
    "a an the of on in for to and with from by at is are towards toward".split()
)


@dataclass(frozen=True, slots=True)
class PoolPaper:
    """One paper of a literature pool."""

    key: str
    title: str
    year: int | None
    authors: tuple[str, ...]
    venue: str
    abstract: str
    doi: str
    arxiv_id: str
    paper_id: str
    discovered_for: tuple[str, ...]
    # How well the registry record matched the candidate title (0-100), for built pools.
    match_score: float | None = None


@dataclass(frozen=True, slots=True)
class PoolProblem:
    """A schema problem of one pool paper (error or warning), and whether --fix can fix it."""

    index: int
    severity: Severity
    message: str
    fixable: bool = False


@dataclass(frozen=True, slots=True)
class Pool:
    """A loaded pool: its papers, by key, and what it asks of a document."""

    path: str
    papers: tuple[PoolPaper, ...]
    min_cite_paper_count: int | None

    def by_key(self) -> dict[str, PoolPaper]:
        """The papers by their citation key."""
        return {p.key: p for p in self.papers}


def generate_key(authors: Sequence[str], year: int | None, title: str, taken: set[str]) -> str:
    """First author's family name + year + first significant title word, lower-case ASCII, with
    a letter suffix on collision (`smith2020deep`, `smith2020deepa`)."""
    names = fold(authors[0]).split() if authors else []
    family = re.sub(r"[^a-z0-9]", "", names[-1]) if names else ""
    words = [w for w in fold(title).split() if w not in _STOP_TITLE]
    # A name in a script that folds to nothing ("李四") still gets a key.
    base = re.sub(r"[^a-z0-9]", "", f"{family or 'anon'}{year or ''}{words[0] if words else ''}")
    return _unique(base, taken)


def _unique(base: str, taken: set[str]) -> str:
    """`base`, or `base` with a letter suffix (a, b, …, aa) that no key in `taken` has; the key
    returned is added to `taken`."""
    key, suffix = base, 0
    while key in taken:
        key = base + chr(ord("a") + suffix % 26) * (suffix // 26 + 1)
        suffix += 1
    taken.add(key)
    return key


def _authors(value: Any, index: int, problems: list[PoolProblem]) -> tuple[str, ...]:
    names = []
    for author in value if isinstance(value, list) else []:
        if isinstance(author, Mapping) and _text(author.get("name")):
            names.append(_text(author["name"]))
        elif isinstance(author, str) and _text(author):
            names.append(_text(author))
            problems.append(
                PoolProblem(
                    index,
                    Severity.WARNING,
                    f'author {author!r} is a plain string; expected {{"name": …}}',
                    fixable=True,
                )
            )
    return tuple(dict.fromkeys(names))


def _text(value: Any) -> str:
    """A field's text: strings and numbers as written; anything else (a list, an object) is
    not text and reads as absent."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return ""
    return " ".join(str(value).split())


def _number(value: Any) -> int | None:
    """A whole number written in ASCII digits ("2020", 2020), else None ("n.d.", "²")."""
    text = _text(value)
    return int(text) if re.fullmatch(r"[0-9]{1,9}", text) else None


def _keys(items: Sequence[Any], problems: list[PoolProblem]) -> list[str]:
    """Each paper's key: its own `bibtex_key`, else one generated so as not to collide with
    any other paper's; a key two papers claim is an error, and the later one is told apart."""
    own = [_text(item.get("bibtex_key")) for item in items]
    taken = set(filter(None, own))
    keys: list[str] = []
    for (index, item), key in zip(enumerate(items), own, strict=True):
        if key and key in keys:
            other = keys.index(key)
            problems.append(
                PoolProblem(index, Severity.ERROR, f"bibtex_key {key!r} is paper {other + 1}'s too")
            )
            key = _unique(key, taken)
        elif not key:
            authors = _authors(item.get("authors"), index, [])
            key = generate_key(authors, _number(item.get("year")), _text(item.get("title")), taken)
        keys.append(key)
    return keys


def parse_pool(data: Any, path: str) -> tuple[Pool, list[PoolProblem]]:
    """A pool from its JSON data, and the schema problems found (missing title or year: error;
    missing abstract, venue, authors or paperId: warning). Every paper gets a key, no two the
    same."""
    if not isinstance(data, Mapping) or not isinstance(data.get("papers"), list):
        raise InputError(f'{path}: not a pool file (expected {{"papers": [...]}})')
    problems: list[PoolProblem] = []
    indexed = [(i, item) for i, item in enumerate(data["papers"]) if isinstance(item, Mapping)]
    problems += [
        PoolProblem(i, Severity.ERROR, "not an object")
        for i, item in enumerate(data["papers"])
        if not isinstance(item, Mapping)
    ]
    keys = _keys([item for _, item in indexed], problems)
    papers = []
    for (index, item), key in zip(indexed, keys, strict=True):
        title = _text(item.get("title"))
        year = _number(item.get("year"))
        if not title:
            problems.append(PoolProblem(index, Severity.ERROR, "missing title"))
        if year is None:
            problems.append(PoolProblem(index, Severity.ERROR, "missing year"))
        for field in ("abstract", "venue", "authors", "paperId"):
            if not item.get(field):
                problems.append(PoolProblem(index, Severity.WARNING, f"missing {field}"))
        authors = _authors(item.get("authors"), index, problems)
        ids = item.get("externalIds")
        ids = ids if isinstance(ids, Mapping) else {}
        tags = item.get("discovered_for") or []
        papers.append(
            PoolPaper(
                key=key,
                title=title,
                year=year,
                authors=authors,
                venue=_text(item.get("venue")),
                abstract=_text(item.get("abstract")),
                doi=_text(ids.get("DOI")).lower(),
                arxiv_id=_text(ids.get("ArXiv")),
                paper_id=_text(item.get("paperId")),
                discovered_for=tuple(
                    _text(t) for t in (tags if isinstance(tags, list) else [tags]) if _text(t)
                ),
            )
        )
    count = _number(data.get("min_cite_paper_count"))
    return Pool(path, tuple(papers), count), sorted(problems, key=lambda p: p.index)


def paper_data(paper: PoolPaper) -> dict[str, Any]:
    """A paper as a pool file stores it (what `parse_pool` reads back)."""
    ids = {name: value for name, value in (("DOI", paper.doi), ("ArXiv", paper.arxiv_id)) if value}
    data: dict[str, Any] = {
        "title": paper.title,
        "year": paper.year,
        "authors": [{"name": name} for name in paper.authors],
        "venue": paper.venue,
        "abstract": paper.abstract,
        "externalIds": ids,
        "paperId": paper.paper_id,
        "discovered_for": list(paper.discovered_for),
    }
    if paper.key:
        data["bibtex_key"] = paper.key
    if paper.match_score is not None:
        data["match_score"] = paper.match_score
    return data


def load_pool(path: Path) -> tuple[Pool, list[PoolProblem]]:
    """Read a pool file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"{path}: cannot read pool: {exc.strerror}") from exc
    except ValueError as exc:
        raise InputError(f"{path}: not valid JSON: {exc}") from exc
    return parse_pool(data, str(path))


def fix_pool(path: Path) -> int:
    """Fix what can be fixed in place (plain-string authors become `{"name": …}`, missing keys
    are written as `bibtex_key`); the number of papers changed. What is not a paper object is
    left as it is."""
    data = json.loads(path.read_text(encoding="utf-8"))
    pool, _ = parse_pool(data, str(path))
    objects = [item for item in data["papers"] if isinstance(item, dict)]
    changed = 0
    for item, paper in zip(objects, pool.papers, strict=True):
        before = json.dumps(item, sort_keys=True)
        if isinstance(item.get("authors"), list):
            item["authors"] = [{"name": a} if isinstance(a, str) else a for a in item["authors"]]
        if not _text(item.get("bibtex_key")):
            item["bibtex_key"] = paper.key
        changed += json.dumps(item, sort_keys=True) != before
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return changed


def title_score(first: str, second: str) -> float:
    """How alike two titles are, 0-100: the Levenshtein ratio of their normalized forms (case,
    accents, punctuation and LaTeX markup ignored). Every pool rule that compares titles uses it."""
    return float(fuzz.ratio(normalized_title(first), normalized_title(second)))
