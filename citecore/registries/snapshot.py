"""A local snapshot of registry records: SQLite with full-text title search.

`citecheck snapshot build` imports Crossref and OpenAlex JSON-lines dumps (one work per line,
as their bulk dumps and APIs give them, gzipped or not) and citecheck's own normalized
JSON-lines; `--snapshot FILE` then answers DOI, arXiv-id, PMID and title lookups before any
registry is asked, with no network.

A snapshot built with `complete=True` declares itself a complete copy of the registries (a full
dump): run offline, it is then the one source consulted, and a work it lacks is not found. A
snapshot without that declaration only ever adds evidence: what it lacks is asked of the
registries, or left unverifiable offline.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz

from citecore.errors import InputError
from citecore.identifiers import arxiv_from_doi
from citecore.normalize import fold
from citecore.registries import crossref, openalex
from citecore.registries.record import WorkRecord
from citecore.serialize import record_from_data, to_compact_data

_SCHEMA = (
    "CREATE TABLE works (id INTEGER PRIMARY KEY, doi TEXT, arxiv TEXT, pmid TEXT, "
    "title TEXT NOT NULL, record TEXT NOT NULL)",
    "CREATE INDEX works_doi ON works (doi)",
    "CREATE INDEX works_arxiv ON works (arxiv)",
    "CREATE INDEX works_pmid ON works (pmid)",
    "CREATE VIRTUAL TABLE titles USING fts5 (title, content='works', content_rowid='id')",
    "CREATE TABLE about (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
)


def _unversioned(arxiv_id: str) -> str:
    return re.sub(r"v\d+$", "", arxiv_id)


def parse_line(line: str) -> WorkRecord | None:
    """One JSON line as a WorkRecord: a Crossref work, an OpenAlex work, or a normalized record
    (citecheck's own form); None for a line that is none of these."""
    try:
        data: Any = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    if "message" in data and isinstance(data["message"], dict):
        data = data["message"]
    if "source" in data and "title" in data and isinstance(data["title"], str):
        try:
            return record_from_data(WorkRecord, data)
        except (ValueError, KeyError, TypeError):
            return None
    try:
        if "DOI" in data:
            return crossref.parse_item(data)
        if str(data.get("id", "")).startswith("https://openalex.org/"):
            return openalex.parse_work(json.dumps(data))
    except ValueError:  # a damaged line in a dump is skipped and counted, never fatal
        return None
    return None


def _lines(paths: Iterable[Path]) -> Iterator[str]:
    for path in paths:
        opened = gzip.open if path.suffix.lower() == ".gz" else open
        try:
            with opened(path, "rt", encoding="utf-8", errors="replace") as stream:
                yield from (line for line in stream if line.strip())
        except (OSError, EOFError) as exc:  # a truncated or non-gzip .gz
            raise InputError(f"{path}: cannot be read as JSON lines ({exc})") from exc


def build_snapshot(
    sources: Iterable[Path], target: Path, complete: bool = False
) -> tuple[int, int]:
    """A new snapshot at `target` (replacing one there only once the import succeeded) of
    every work in the JSON-lines files; `complete` declares it a full copy of the registries.
    Returns (records imported, lines skipped)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    partial.unlink(missing_ok=True)
    imported = skipped = 0
    try:
        with sqlite3.connect(partial) as connection:
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.execute(
                "INSERT INTO about VALUES ('complete', ?)", ("yes" if complete else "no",)
            )
            for line in _lines(sources):
                record = parse_line(line)
                if record is None or not record.title:
                    skipped += 1
                    continue
                cursor = connection.execute(
                    "INSERT INTO works (doi, arxiv, pmid, title, record) VALUES (?, ?, ?, ?, ?)",
                    (
                        record.doi.lower(),
                        _unversioned(record.arxiv_id or arxiv_from_doi(record.doi)),
                        record.pmid,
                        record.title,
                        json.dumps(to_compact_data(record), separators=(",", ":")),
                    ),
                )
                connection.execute(
                    "INSERT INTO titles (rowid, title) VALUES (?, ?)",
                    (cursor.lastrowid, record.title),
                )
                imported += 1
        connection.close()
        partial.replace(target)
    finally:
        partial.unlink(missing_ok=True)
    return imported, skipped


MANIFEST = "manifest.json"
# How many title matches are compared one by one before BM25 is asked to pick the best.
_COMPARED = 200


def write_manifest(folder: Path, shards: list[str], records: int, complete: bool) -> None:
    """Declare the shards in `folder` one snapshot (written last: a folder without it is not
    a snapshot, so an interrupted build is never read)."""
    data = {"shards": shards, "records": records, "complete": complete}
    partial = folder / f".{MANIFEST}.partial"
    partial.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    partial.replace(folder / MANIFEST)


class Snapshot:
    """Read access to a built snapshot: one SQLite file, or a folder of shards that
    `snapshot build --shards` wrote (each a snapshot of part of the dumps, all asked)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if path.is_dir():
            files, self.complete = self._manifest(path)
        elif path.is_file():
            files, self.complete = [path], False
        else:
            raise InputError(
                f"{path}: no such snapshot (build one with `citecheck snapshot build`)"
            )
        self._connections: list[sqlite3.Connection] = []
        for file in files:
            try:
                connection = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
                self._connections.append(connection)
                connection.execute("SELECT pmid FROM works LIMIT 1")
                about = dict(connection.execute("SELECT name, value FROM about").fetchall())
            except sqlite3.Error as exc:
                self.close()
                raise InputError(
                    f"{file}: not a citecheck snapshot, or one built by an older version "
                    f"({exc}); build it again with `citecheck snapshot build`"
                ) from exc
            if path.is_file():
                self.complete = about.get("complete") == "yes"

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

    def _records(self, rows: Iterable[tuple[str]]) -> list[WorkRecord]:
        records = []
        for (text,) in rows:
            record = record_from_data(WorkRecord, json.loads(text))
            records.append(record)
        return records

    def _everywhere(self, sql: str, value: str) -> list[WorkRecord]:
        found = []
        for connection in self._connections:
            found.extend(self._records(connection.execute(sql, (value,))))
        return found

    def by_doi(self, doi: str) -> list[WorkRecord]:
        """Records with this DOI."""
        return self._everywhere("SELECT record FROM works WHERE doi = ?", doi.lower())

    def by_arxiv(self, arxiv_id: str) -> list[WorkRecord]:
        """Records with this arXiv id (any version)."""
        return self._everywhere("SELECT record FROM works WHERE arxiv = ?", _unversioned(arxiv_id))

    def by_pmid(self, pmid: str) -> list[WorkRecord]:
        """Records with this PubMed id."""
        return self._everywhere("SELECT record FROM works WHERE pmid = ?", pmid)

    def search(self, title: str, limit: int = 5) -> list[WorkRecord]:
        """Records whose title contains the title's words, the most alike first (across
        shards, every shard's matches together)."""
        words = re.findall(r"\w+", title)
        if not words:
            return []
        query = " ".join(f'"{w}"' for w in words)
        matches: list[tuple[str, str]] = []
        for connection in self._connections:
            matches.extend(self._matches(connection, query, limit))
        wanted = fold(title)
        matches.sort(key=lambda match: -fuzz.ratio(wanted, fold(match[0])))
        return self._records((record,) for _, record in matches[:limit])

    @staticmethod
    def _matches(connection: sqlite3.Connection, query: str, limit: int) -> list[tuple[str, str]]:
        """(title, record) of the rows whose title holds every word of `query`. BM25 ranking
        reads the whole posting list of every word (130 ms a search on 5 M records): only
        when the words match more rows than can be compared one by one is it asked to choose."""
        sql = (
            "SELECT works.title, works.record FROM titles JOIN works ON works.id = titles.rowid "
            "WHERE titles MATCH ?"
        )
        rows = connection.execute(f"{sql} LIMIT ?", (query, _COMPARED + 1)).fetchall()
        if len(rows) <= _COMPARED:
            return rows
        return connection.execute(f"{sql} ORDER BY rank LIMIT ?", (query, limit)).fetchall()

    def close(self) -> None:
        """Close the database files."""
        for connection in self._connections:
            connection.close()
