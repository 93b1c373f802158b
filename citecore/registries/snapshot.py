"""A local snapshot of registry records: SQLite with full-text title search.

`citecheck snapshot build` imports the registries' dumps (`snapshot_build`); `--snapshot FILE`
then answers DOI, arXiv-id, PMID and title lookups before any registry is asked, with no
network.

A snapshot built with `complete=True` declares itself a complete copy of the registries it
holds (a full dump). Run offline, it is then the one source consulted for the references it
covers — a DOI of a registrant it holds works of, an arXiv id or PMID when it holds such
records, a title cited in a venue it holds works of — and a work of that kind it lacks is not
found. A reference of another kind, and everything a snapshot without the declaration lacks, is
asked of the registries, or left unverifiable offline.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rapidfuzz import fuzz

from citecore.errors import InputError
from citecore.model import Reference
from citecore.normalize import fold
from citecore.registries.record import WorkRecord
from citecore.registries.snapshot_build import doi_prefix, unversioned, venue_key
from citecore.registries.snapshot_search import (
    Row,
    holding,
    one_changed,
    title_count,
    title_words,
    word_counts,
)
from citecore.serialize import record_from_data

MANIFEST = "manifest.json"
_SNAPSHOT_SUFFIXES = (".sqlite3", ".sqlite", ".db")
# The copies that can speak for identifiers: DOI registries' dumps, and the indexes of PMIDs.
_DOI_REGISTRIES = ("crossref", "datacite", "openalex")
_PMID_INDEXES = ("openalex", "pubmed")


def _unfinished_shards(folder: Path) -> bool:
    """A folder of shards whose manifest was never written: no snapshot, however many of its
    shards are there (a half-built copy must never pass for a complete one)."""
    return folder.is_dir() and any(folder.glob("shard-*.sqlite3"))


# Where a subtitle begins: a title cited with a subtitle the record lacks is looked for by its
# main title too.
_SUBTITLE = re.compile(r"\s*[:?!]\s+|\s+[-–—]+\s+")


def _stored_columns(connection: sqlite3.Connection) -> str:
    """What a query selects of a work: its record, and the title of the proceedings volume it
    is in (snapshots built before volumes were kept have none)."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(works)")}
    volume = "(SELECT title FROM volumes WHERE volumes.id = works.volume)"
    return f"record, {volume if 'volume' in columns else 'NULL'}"


def write_manifest(folder: Path, shards: list[str], records: int, complete: bool) -> None:
    """Declare the shards in `folder` one snapshot (written last: a folder without it is not
    a snapshot, so an interrupted build is never read)."""
    data = {"shards": shards, "records": records, "complete": complete}
    partial = folder / f".{MANIFEST}.partial"
    partial.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    partial.replace(folder / MANIFEST)


@dataclass(frozen=True, slots=True)
class SnapshotInfo:
    """What a snapshot holds: its declaration, when it was built, records per source, the
    files they came from (path, records, works without a title, lines skipped), and how many
    DOI registrants and venues its works belong to (shards' counts added up)."""

    path: str
    complete: bool
    built: list[str]
    sources: dict[str, int]
    files: list[tuple[str, int, int, int]]
    prefixes: int
    venues: int
    newest: int  # the latest year of its works (0 when none has a year)


@dataclass(frozen=True, slots=True)
class RegistryCopy:
    """A registry that snapshots declared complete hold a copy of: the files holding it, as
    messages name them, and the latest year of its works (the copy's date: it was dumped before
    that year ended, so it answers for the years before it)."""

    source: str
    files: str
    newest: int


class Snapshot:
    """Read access to built snapshots, all asked: one SQLite file; a folder of shards that
    `snapshot build --shards` wrote (each a snapshot of part of the dumps, declared together by
    its manifest); or a folder of snapshots (DBLP, arXiv and Crossref side by side), each with
    its own declaration, so that a complete one speaks only for the kinds of work it holds."""

    def __init__(self, path: Path | Sequence[Path]) -> None:
        """The snapshot at `path`, or the snapshots at each of several paths, asked together."""
        targets = [path] if isinstance(path, Path) else list(path)
        if not targets:
            raise InputError("no snapshot given")
        self.path = targets[0]
        self.name = ", ".join(t.name for t in targets)  # as messages name it
        files: list[Path] = []
        declared: list[bool | None] = []
        for target in targets:
            found = self._files_of(target)
            files += [file for file, _ in found]
            declared += [declaration for _, declaration in found]
        self._connections: list[sqlite3.Connection] = []
        self._about: list[dict[str, str]] = []
        self._complete: list[bool] = []
        self._titles: list[int] = []  # how many titles each file holds
        self._stored: list[str] = []  # what each file's queries select: a record and its volume
        self._venue_hits: dict[tuple[str, ...], bool] = {}
        self._names = [file.name for file in files]
        for file, declaration in zip(files, declared, strict=True):
            try:
                connection = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
                self._connections.append(connection)
                connection.execute("SELECT pmid FROM works LIMIT 1")
                connection.execute("SELECT name FROM venues LIMIT 1")
                connection.execute("SELECT docs FROM title_words LIMIT 1")
                self._titles.append(title_count(connection))
                self._stored.append(_stored_columns(connection))
                about = dict(connection.execute("SELECT name, value FROM about").fetchall())
                self._about.append(about)
            except sqlite3.Error as exc:
                self.close()
                raise InputError(
                    f"{file}: not a citecheck snapshot, or one built by an older version "
                    f"({exc}); build it again with `citecheck snapshot build`"
                ) from exc
            whole = about.get("complete") == "yes" if declaration is None else declaration
            self._complete.append(whole)
        self.complete = any(self._complete)
        # The registries each file is a complete copy of (none for a file not declared so).
        self._copy_of = [
            set(json.loads(about.get("sources", "{}"))) if whole else set()
            for about, whole in zip(self._about, self._complete, strict=True)
        ]

    @classmethod
    def _files_of(cls, path: Path) -> list[tuple[Path, bool | None]]:
        """The snapshot files at `path`, each with its declaration when the place gives it (a
        sharded snapshot's manifest), else None (each file's own)."""
        if (path.is_dir() and (path / MANIFEST).exists()) or _unfinished_shards(path):
            shards, sharded = cls._manifest(path)
            return [(shard, sharded) for shard in shards]
        if path.is_dir():
            files = sorted(f for f in path.iterdir() if f.suffix in _SNAPSHOT_SUFFIXES)
            if not files:
                raise InputError(f"{path}: a folder holding no snapshot (*.sqlite3)")
            return [(file, None) for file in files]
        if path.is_file():
            return [(path, None)]
        raise InputError(f"{path}: no such snapshot (build one with `citecheck snapshot build`)")

    @staticmethod
    def _manifest(folder: Path) -> tuple[list[Path], bool]:
        try:
            data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
            shards = [folder / str(name) for name in data["shards"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise InputError(
                f"{folder}: not a sharded snapshot (no readable {MANIFEST}: an unfinished "
                "build?); build it again with `citecheck snapshot build --shards`"
            ) from exc
        return shards, data.get("complete") is True

    @staticmethod
    def _records(rows: Iterable[tuple[str, str | None]]) -> list[WorkRecord]:
        """Stored records read back, each with its proceedings volume's title as a name of its
        venue (a DBLP paper's; None for every other record)."""
        records = []
        for text, volume in rows:
            data = json.loads(text)
            if volume:
                data["venue_names"] = [*data.get("venue_names", ()), volume]
            records.append(record_from_data(WorkRecord, data))
        return records

    def registry_copies(self) -> dict[str, RegistryCopy]:
        """The registries the snapshots declared complete are copies of, by source name
        ("dblp", "arxiv", "crossref"); several files of one registry (shards) are one copy, of
        the earliest date among them."""
        held: dict[str, list[int]] = {}
        for number, sources in enumerate(self._copy_of):
            for source in sources:
                held.setdefault(source, []).append(number)
        return {
            source: RegistryCopy(
                source,
                ", ".join(dict.fromkeys(self._names[n] for n in numbers)),
                min(int(self._about[n].get("newest") or 0) for n in numbers),
            )
            for source, numbers in held.items()
        }

    def _files_of_copy(self, source: str) -> list[int]:
        """The files declared complete that hold `source`'s records; every file when "" ."""
        every = range(len(self._connections))
        return [number for number in every if not source or source in self._copy_of[number]]

    def _everywhere(self, column: str, value: str, source: str = "") -> list[WorkRecord]:
        found = []
        for number in self._files_of_copy(source):
            sql = f"SELECT {self._stored[number]} FROM works WHERE {column} = ?"
            found.extend(self._records(self._connections[number].execute(sql, (value,))))
        return [r for r in found if not source or r.source.value == source]

    def by_doi(self, doi: str, source: str = "") -> list[WorkRecord]:
        """Records with this DOI (only the complete copy of `source`'s, when named)."""
        return self._everywhere("doi", doi.lower(), source)

    def by_arxiv(self, arxiv_id: str, source: str = "") -> list[WorkRecord]:
        """Records with this arXiv id, any version (only the complete copy of `source`'s, when
        named)."""
        return self._everywhere("arxiv", unversioned(arxiv_id), source)

    def by_pmid(self, pmid: str, source: str = "") -> list[WorkRecord]:
        """Records with this PubMed id (only the complete copy of `source`'s, when named)."""
        return self._everywhere("pmid", pmid, source)

    def holds_prefix(self, doi: str, source: str) -> bool:
        """Whether the complete copy of `source` holds works of the DOI's registrant."""
        sql = "SELECT 1 FROM prefixes WHERE prefix = ?"
        return any(
            self._connections[number].execute(sql, (doi_prefix(doi),)).fetchone()
            for number in self._files_of_copy(source)
        )

    def search(self, title: str, limit: int = 5) -> list[WorkRecord]:
        """Records whose title holds the title's rarest words, the most alike first (across
        shards, every shard's matches together; `snapshot_search`). Case, punctuation and LaTeX
        commands do not count, nor a word the snapshot holds nowhere (a typo); a title cited
        with a subtitle the record lacks is found by its main title; a title with one of its
        rarest words changed is found by the others; the caller's fuzzy comparison decides
        among everything found."""
        words = title_words(title)
        if not words:
            return []
        # Each file's counts of the title's words, read once: the main title's are among them.
        counted = [word_counts(connection, words) for connection in self._connections]
        files = list(enumerate(zip(self._connections, self._titles, counted, strict=True)))
        main_title = title_words(_SUBTITLE.split(title, maxsplit=1)[0])
        found: list[tuple[int, Row]] = []  # (snapshot file, row)
        for held in (words, main_title) if len(main_title) < len(words) else (words,):
            wanted_words = {fold(w) for w in held}
            for number, (connection, titles, counts) in files:
                held_counts = [count for count in counts if count[1] in wanted_words]
                found.extend((number, row) for row in holding(connection, titles, held_counts))
            # Titles holding the rarest words may be other works: done once one holds them all.
            if any(wanted_words <= set(fold(row[1]).split()) for _, row in found):
                break
        else:
            for number, (connection, titles, counts) in files:
                found.extend((number, row) for row in one_changed(connection, titles, counts))
        wanted = fold(title)
        best = sorted(dict.fromkeys(found), key=lambda hit: -fuzz.ratio(wanted, fold(hit[1][1])))
        return self._records_of(best[:limit])

    def _records_of(self, hits: list[tuple[int, Row]]) -> list[WorkRecord]:
        """The records of `hits` (snapshot file, row), in their order: one query a file."""
        stored: dict[tuple[int, int], tuple[str, str | None]] = {}
        for number in {number for number, _ in hits}:
            ids = [row_id for file, (row_id, _) in hits if file == number]
            marks = ",".join("?" * len(ids))
            sql = f"SELECT id, {self._stored[number]} FROM works WHERE id IN ({marks})"
            for row_id, text, volume in self._connections[number].execute(sql, ids):
                stored[number, row_id] = (text, volume)
        return self._records(stored[number, row_id] for number, (row_id, _) in hits)

    def _declared_complete(
        self, sources: Sequence[str] = (), year: int | None = None
    ) -> list[tuple[sqlite3.Connection, dict[str, str]]]:
        """The snapshots declared complete that hold records of one of `sources` (if named) and
        works of a year after `year` (a copy cannot deny a work of its own last year or later:
        it was dumped before that year ended)."""
        return [
            (connection, about)
            for connection, about, whole in zip(
                self._connections, self._about, self._complete, strict=True
            )
            if whole
            and (not sources or set(sources) & set(json.loads(about["sources"])))
            and (year is None or int(about.get("newest") or 0) > year)
        ]

    def _holds(self, sql: str, value: str, sources: Sequence[str], year: int | None) -> bool:
        """Whether a snapshot declared complete (of one of `sources`, newer than `year`) holds
        a row for `value`."""
        return any(
            c.execute(sql, (value,)).fetchone() for c, _ in self._declared_complete(sources, year)
        )

    def covers(self, reference: Reference, venue_patterns: Sequence[str] = ()) -> bool:
        """Whether a snapshot declared complete can say this reference's work does not exist,
        as a librarian would grant it: a DOI, when it is a complete copy of a DOI registry
        (Crossref, DataCite, OpenAlex) holding works of the DOI's registrant; an arXiv id, when
        it is a complete copy of arXiv's own metadata; a PMID, of OpenAlex or PubMed; a title
        alone, when it holds works of the cited venue (by the venue's name, or by
        `venue_patterns`, which find a conference under its other names and acronyms). A
        complete DBLP copy says nothing of a medical journal's article, nor of an arXiv id."""
        year = reference.year
        if reference.doi:
            prefix = doi_prefix(reference.doi)
            sql = "SELECT 1 FROM prefixes WHERE prefix = ?"
            return self._holds(sql, prefix, _DOI_REGISTRIES, year)
        if reference.arxiv_id:
            return bool(self._declared_complete(("arxiv",), year))
        if reference.pmid:
            return any(
                json.loads(about.get("identified", "{}")).get("pmid")
                for _, about in self._declared_complete(_PMID_INDEXES, year)
            )
        venue = venue_key(reference.venue)
        if venue and self._holds("SELECT 1 FROM venues WHERE name = ?", venue, (), year):
            return True
        return bool(venue_patterns) and self._holds_venue_like(tuple(venue_patterns), year)

    def _holds_venue_like(self, patterns: tuple[str, ...], year: int | None) -> bool:
        """Whether any venue of the snapshot matches one of `patterns` (each venue list read
        once per set of patterns in a run: a bibliography cites few conferences)."""
        asked = (*patterns, str(year))
        if asked not in self._venue_hits:
            found = re.compile("|".join(f"(?:{p})" for p in patterns))
            self._venue_hits[asked] = any(
                found.search(name)
                for connection, _ in self._declared_complete((), year)
                for (name,) in connection.execute("SELECT name FROM venues")
            )
        return self._venue_hits[asked]

    def info(self) -> SnapshotInfo:
        """What the snapshot holds, summed over its shards."""
        sources: dict[str, int] = {}
        files: list[tuple[str, int, int, int]] = []
        built: set[str] = set()
        prefixes = venues = 0
        for connection, about in zip(self._connections, self._about, strict=True):
            for source, count in json.loads(about.get("sources", "{}")).items():
                sources[source] = sources.get(source, 0) + int(count)
            files += [tuple(f) for f in json.loads(about.get("files", "[]"))]
            built.add(about.get("built", ""))
            prefixes += connection.execute("SELECT count(*) FROM prefixes").fetchone()[0]
            venues += connection.execute("SELECT count(*) FROM venues").fetchone()[0]
        newest = max((int(a.get("newest") or 0) for a in self._about), default=0)
        return SnapshotInfo(
            str(self.path), self.complete, sorted(b for b in built if b), sources, files,
            prefixes, venues, newest,
        )  # fmt: skip

    def close(self) -> None:
        """Close the database files."""
        for connection in self._connections:
            connection.close()
