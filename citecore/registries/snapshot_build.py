"""Building a snapshot from the registries' dumps: Crossref and OpenAlex JSON lines (one work per
line, as their bulk dumps and APIs give them, gzipped or not), arXiv's metadata snapshot (JSON
lines), citecheck's own normalized JSON lines, and DBLP's XML dump (`dblp_dump`).

A build reads what it is given or says it cannot, file by file: a file that gives no record, or
whose unreadable lines pass a small share (`max_skipped`, 5% unless asked otherwise), stops the
build with the first lines skipped and why, and nothing replaces the snapshot there. A readable
work without a title (Crossref registers figures and components under DOIs of their own) is no
reading failure: it is counted apart. The snapshot records what it holds — records per source,
the files they came from, the DOI prefixes and venues of its works — so that a snapshot declared
complete speaks only for the kinds of work it holds (`snapshot.Snapshot.covers`).
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
import os
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from citecore.errors import InputError
from citecore.identifiers import arxiv_from_doi
from citecore.model import Source
from citecore.normalize import fold
from citecore.registries import arxiv, crossref, openalex
from citecore.registries.dblp_dump import DblpWork, dblp_works, is_dblp_dump, volume_name
from citecore.registries.record import WorkRecord
from citecore.registries.snapshot_rows import stored_dblp_work, stored_record
from citecore.serialize import record_from_data

SCHEMA = (
    # `volume`: the proceedings volume a DBLP paper is in (its `crossref`), whose title names
    # the venue in full beside DBLP's acronym ("30th IEEE International Symposium on Software
    # Reliability Engineering, ISSRE 2019, …" for "ISSRE"). The volume may come anywhere in the
    # dump: it is numbered when first named, its title kept when read, and the two joined when
    # a record is read back (rewriting its papers' records at the end cost a sixth of an import).
    "CREATE TABLE works (id INTEGER PRIMARY KEY, doi TEXT, arxiv TEXT, pmid TEXT, "
    "title TEXT NOT NULL, record TEXT NOT NULL, volume INTEGER)",
    "CREATE TABLE volumes (id INTEGER PRIMARY KEY, title TEXT NOT NULL)",
    "CREATE VIRTUAL TABLE titles USING fts5 (title, content='works', content_rowid='id')",
    # Titles are indexed 64 MB at a time (FTS5's default is 1 MB): a word's titles then lie in
    # few segments of the index, and a search reads each word's list in a few places, not in
    # hundreds (searches in a DBLP-sized copy a third faster; the build no slower).
    "INSERT INTO titles (titles, rank) VALUES ('hashsize', 67108864)",
    # How many titles hold each word: a title not found whole is looked for by its rarest words.
    # Counted once at the end of the build (FTS5's own vocabulary table counts a word by reading
    # its whole posting list, milliseconds for a common word, at every search).
    "CREATE TABLE title_words (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE about (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
    # What kinds of work the snapshot holds: the registrants of its DOIs, and its venues.
    "CREATE TABLE prefixes (prefix TEXT PRIMARY KEY, works INTEGER NOT NULL)",
    "CREATE TABLE venues (name TEXT PRIMARY KEY, works INTEGER NOT NULL)",
)
# The identifiers' indexes, made once every row is in (faster than keeping them while loading).
INDEXES = (
    "CREATE INDEX works_doi ON works (doi)",
    "CREATE INDEX works_arxiv ON works (arxiv)",
    "CREATE INDEX works_pmid ON works (pmid)",
)
# Unreadable lines a dump may hold before the build stops: a real dump has the odd damaged
# line; a file of another format has nothing else.
MAX_SKIPPED = 0.05
_SHOWN = 3  # skipped lines named, per file
_BATCH = 5_000  # rows written at once


def unversioned(arxiv_id: str) -> str:
    """An arXiv id without its version (`2104.12255v1` → `2104.12255`)."""
    return re.sub(r"v\d+$", "", arxiv_id)


def doi_prefix(doi: str) -> str:
    """The registrant part of a DOI (`10.1371` of `10.1371/journal.pone.1`), lower case."""
    return doi.lower().split("/", 1)[0] if "/" in doi else ""


_NUMBERS = re.compile(r"\b\d+(?:st|nd|rd|th)?\b|\bvol(?:ume)?\b")
_PROCEEDINGS = re.compile(r"^(?:proceedings|proc)(?: of)?(?: the)? ")


@lru_cache(maxsize=65_536)  # a dump names few venues, millions of times
def venue_key(name: str) -> str:
    """A venue's name as the snapshot files it: folded, without the numbers of its volumes,
    editions and years ("Advances in Neural Information Processing Systems 35" and "… Systems"
    are one venue), without a leading "Proceedings of the"."""
    folded = " ".join(_NUMBERS.sub(" ", fold(name.replace("&", " and "))).split())
    return _PROCEEDINGS.sub("", folded)


def read_line(line: str) -> WorkRecord | str:
    """One JSON line as a WorkRecord — a Crossref work, an OpenAlex work, or a normalized record
    (citecheck's own form) — or why it is none."""
    try:
        data: Any = json.loads(line)
    except ValueError:
        return "not JSON"
    if not isinstance(data, dict):
        return "JSON, but not an object"
    if "message" in data and isinstance(data["message"], dict):
        data = data["message"]
    if "source" in data and "title" in data and isinstance(data["title"], str):
        try:
            return record_from_data(WorkRecord, data)
        except (ValueError, KeyError, TypeError):
            return "a normalized record with fields of the wrong kind"
    try:
        if "authors_parsed" in data:
            return arxiv.parse_metadata(data)
        if "DOI" in data:
            return crossref.parse_item(data)
        if str(data.get("id", "")).startswith("https://openalex.org/"):
            return openalex.parse_work(json.dumps(data))
    except ValueError:
        return "a Crossref, OpenAlex or arXiv work that cannot be read"
    return "not a Crossref, OpenAlex, arXiv or normalized work"


def parse_line(line: str) -> WorkRecord | None:
    """One JSON line as a WorkRecord, or None for a line that is none (`read_line` says why)."""
    read = read_line(line)
    return None if isinstance(read, str) else read


@dataclass(frozen=True, slots=True)
class DumpFile:
    """What one dump file gave: its records, its works without a title, its unreadable lines
    and the first of them with why."""

    path: str
    records: int = 0
    untitled: int = 0
    skipped: int = 0
    first_skipped: tuple[str, ...] = ()

    @property
    def lines(self) -> int:
        """Every non-blank line read."""
        return self.records + self.untitled + self.skipped


@dataclass(frozen=True, slots=True)
class SnapshotBuild:
    """What a build imported: each file's account, and records per source."""

    files: tuple[DumpFile, ...]
    sources: dict[str, int] = field(default_factory=dict)

    @property
    def imported(self) -> int:
        """Records imported from every file."""
        return sum(f.records for f in self.files)

    @property
    def skipped(self) -> int:
        """Unreadable lines of every file."""
        return sum(f.skipped for f in self.files)


def _numbered_lines(path: Path) -> Iterator[tuple[int, str]]:
    opened = gzip.open if path.suffix.lower() == ".gz" else open
    try:
        with opened(path, "rt", encoding="utf-8", errors="replace") as stream:
            yield from ((n, line) for n, line in enumerate(stream, 1) if line.strip())
    except (OSError, EOFError) as exc:  # a truncated or non-gzip .gz
        raise InputError(f"{path}: cannot be read as JSON lines ({exc})") from exc


def _shown(line: str) -> str:
    text = " ".join(line.split())
    return text[:60] + ("…" if len(text) > 60 else "")


class _Writer:
    """Rows into a new snapshot database, with the counts of what it holds."""

    def __init__(self, connection: sqlite3.Connection, dtd: Path | None = None) -> None:
        self.connection = connection
        self.dtd = dtd
        self.sources: Counter[str] = Counter()
        self.prefixes: Counter[str] = Counter()
        self.venues: Counter[str] = Counter()
        self.identified: Counter[str] = Counter()  # records with an arXiv id, with a PMID
        self.newest = 0  # the latest year of its works: a copy knows nothing of later ones
        self._this_year = dt.date.today().year
        self._rows: list[tuple[int, str, str, str, str, str, int | None]] = []
        self._written = 0
        # DBLP's proceedings volumes by key, numbered when first named (by a paper or by the
        # volume's own record): as many as the dump has volumes, not records.
        self._volume_numbers: dict[str, int] = {}
        self._volumes: list[tuple[int, str]] = []  # (number, title) read since the last flush

    def add(self, record: WorkRecord) -> None:
        """Keep a record read from JSON lines."""
        venues = (record.venue, *record.venue_names)
        row = (record.doi, record.arxiv_id, record.pmid, record.title, stored_record(record))
        self._keep(row, record.source.value, record.year, venues, None)

    def add_dblp(self, work: DblpWork) -> None:
        """Keep a work of DBLP's dump (stored from its fields: `snapshot_rows`)."""
        row = (work.doi, work.arxiv_id, "", work.title, stored_dblp_work(work))
        volume = self._volume_number(work.volume) if work.volume else None
        venues: tuple[str, ...] = (work.venue,)
        if work.kind == "proceedings" and work.key:
            self._volumes.append((self._volume_number(work.key), work.title))
            # A copy holds a conference's works under the name its volumes give it too: a
            # reference citing the name written out is then one the copy speaks for.
            venues += volume_name(work.title)
        self._keep(row, Source.DBLP.value, work.year, venues, volume)

    def _volume_number(self, key: str) -> int:
        return self._volume_numbers.setdefault(key, len(self._volume_numbers) + 1)

    def _keep(
        self,
        row: tuple[str, str, str, str, str],
        source: str,
        year: int | None,
        venues: tuple[str, ...],
        volume: int | None,
    ) -> None:
        """Gather a row (doi, arXiv id, PMID, title, stored record; the number of the volume it
        is in) and count what it holds."""
        doi, arxiv, pmid, title, stored = row
        doi = doi.lower()
        arxiv = arxiv or (arxiv_from_doi(doi) if doi else "")
        if arxiv:
            arxiv = unversioned(arxiv)
            self.identified["arxiv"] += 1
        if pmid:
            self.identified["pmid"] += 1
        number = self._written + len(self._rows) + 1
        self._rows.append((number, doi, arxiv, pmid, title, stored, volume))
        if len(self._rows) >= _BATCH:
            self.flush()
        self.sources[source] += 1
        if year and self.newest < year <= self._this_year:
            self.newest = year
        if prefix := doi_prefix(doi):
            self.prefixes[prefix] += 1
        for name in {venue_key(v) for v in venues} - {""}:
            self.venues[name] += 1

    def flush(self) -> None:
        """Write the rows gathered so far (in batches: one statement a row is slower)."""
        self.connection.executemany(
            "INSERT INTO works (id, doi, arxiv, pmid, title, record, volume) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            self._rows,
        )
        self.connection.executemany(
            "INSERT INTO titles (rowid, title) VALUES (?, ?)",
            [(row[0], row[4]) for row in self._rows],
        )
        # A volume listed twice is the same volume: its first title stands.
        self.connection.executemany("INSERT OR IGNORE INTO volumes VALUES (?, ?)", self._volumes)
        self._written += len(self._rows)
        self._rows = []
        self._volumes = []

    def _entries(self, path: Path) -> Iterator[tuple[int, WorkRecord | DblpWork | str, str]]:
        """(line, record or why it is none, what the line holds) of a dump of either format."""
        if is_dblp_dump(path):
            yield from ((number, work, work.key) for number, work in dblp_works(path, self.dtd))
            return
        for number, line in _numbered_lines(path):
            yield number, read_line(line), _shown(line)

    def read(self, path: Path) -> DumpFile:
        """Keep every work of a dump, and say what it gave."""
        records = untitled = skipped = 0
        first: list[str] = []
        for number, read, shown in self._entries(path):
            if isinstance(read, str):
                skipped += 1
                if len(first) < _SHOWN:
                    first.append(f"line {number}: {read} ({shown})")
            elif not read.title:
                untitled += 1
            elif isinstance(read, DblpWork):
                self.add_dblp(read)
                records += 1
            else:
                self.add(read)
                records += 1
        return DumpFile(str(path), records, untitled, skipped, tuple(first))

    def finish(self, complete: bool, files: list[DumpFile]) -> None:
        self.flush()
        for statement in INDEXES:
            self.connection.execute(statement)
        self.connection.execute(
            "CREATE VIRTUAL TABLE temp.terms USING fts5vocab (main, titles, row)"
        )
        self.connection.execute("INSERT INTO title_words SELECT term, doc FROM temp.terms")
        self.connection.execute("DROP TABLE temp.terms")
        about = {
            "complete": "yes" if complete else "no",
            "built": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d"),
            "sources": json.dumps(dict(self.sources)),
            "identified": json.dumps(dict(self.identified)),
            "newest": str(self.newest),
            "files": json.dumps([[f.path, f.records, f.untitled, f.skipped] for f in files]),
        }
        self.connection.executemany("INSERT INTO about VALUES (?, ?)", about.items())
        self.connection.executemany("INSERT INTO prefixes VALUES (?, ?)", self.prefixes.items())
        self.connection.executemany("INSERT INTO venues VALUES (?, ?)", self.venues.items())


def refusal(files: Iterable[DumpFile], max_skipped: float) -> str:
    """Why the files cannot make a snapshot ("" when they can): each file that gave no record,
    or whose unreadable lines pass `max_skipped` of its lines, with its first skipped lines."""
    said = []
    for dump in files:
        why = "; ".join(dump.first_skipped)
        if dump.records == 0 and dump.untitled == 0:
            said.append(f"{dump.path}: no record read ({dump.skipped} lines skipped: {why})")
        elif dump.lines and dump.skipped / dump.lines > max_skipped:
            share = dump.skipped / dump.lines
            said.append(
                f"{dump.path}: {dump.skipped} of {dump.lines} lines ({share:.0%}) could not be "
                f"read, more than {max_skipped:.0%} ({why}); give --max-skipped {share:.2f} to "
                "import the rest anyway"
            )
    if said:
        said.append(
            "snapshot build reads JSON lines of Crossref works, OpenAlex works, arXiv's metadata "
            "snapshot or citecheck's normalized records, and DBLP's XML dump"
        )
    return "\n".join(said)


def build_snapshot(
    sources: Iterable[Path],
    target: Path,
    complete: bool = False,
    max_skipped: float = MAX_SKIPPED,
    dtd: Path | None = None,
) -> SnapshotBuild:
    """A new snapshot at `target` of every work in the dumps (JSON lines, or DBLP's XML with its
    DTD `dtd`, else the `dblp.dtd` beside it), replacing one there only once every file was
    read; `complete` declares it a full copy of the registries it holds. Raises InputError
    naming each file that cannot be imported (`refusal`), and when a snapshot declared complete
    would hold no record."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    try:
        with sqlite3.connect(partial) as connection:
            # A partial file replaces the snapshot only once whole: no journal to keep.
            connection.execute("PRAGMA journal_mode=OFF")
            connection.execute("PRAGMA synchronous=OFF")
            for statement in SCHEMA:
                connection.execute(statement)
            writer = _Writer(connection, dtd)
            files = [writer.read(path) for path in sources]
            refused = refusal(files, max_skipped)
            if refused:
                raise InputError(refused)
            if complete and not writer.sources:
                raise InputError(
                    f"{target}: no record imported: a snapshot with no record cannot be "
                    "declared complete (--complete)"
                )
            writer.finish(complete, files)
        connection.close()
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return SnapshotBuild(tuple(files), dict(writer.sources))
