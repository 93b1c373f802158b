"""A local snapshot of registry records: SQLite with full-text title search.

`citecheck snapshot build` imports Crossref and OpenAlex JSON-lines dumps (one work per line,
as their bulk dumps and APIs give them) and citecheck's own normalized JSON-lines; `--snapshot
FILE` then answers DOI, arXiv-id and title lookups before any registry is asked, with no network.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from citecore.errors import InputError
from citecore.registries import crossref, openalex
from citecore.registries.record import WorkRecord
from citecore.serialize import record_from_data, to_data

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS works (id INTEGER PRIMARY KEY, doi TEXT, arxiv TEXT, "
    "title TEXT NOT NULL, record TEXT NOT NULL)",
    "CREATE INDEX IF NOT EXISTS works_doi ON works (doi)",
    "CREATE INDEX IF NOT EXISTS works_arxiv ON works (arxiv)",
    "CREATE VIRTUAL TABLE IF NOT EXISTS titles USING fts5 (title, content='works', "
    "content_rowid='id')",
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
    if "DOI" in data:
        return crossref.parse_item(data)
    if str(data.get("id", "")).startswith("https://openalex.org/"):
        return openalex.parse_work(json.dumps(data))
    return None


def _lines(paths: Iterable[Path]) -> Iterator[tuple[Path, int, str]]:
    for path in paths:
        with path.open(encoding="utf-8") as stream:
            for number, line in enumerate(stream, 1):
                if line.strip():
                    yield path, number, line


def build_snapshot(sources: Iterable[Path], target: Path) -> tuple[int, int]:
    """Import JSON-lines files into the snapshot at `target`; (imported, skipped lines)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    imported = skipped = 0
    with sqlite3.connect(target) as connection:
        for statement in _SCHEMA:
            connection.execute(statement)
        for _, _, line in _lines(sources):
            record = parse_line(line)
            if record is None or not record.title:
                skipped += 1
                continue
            cursor = connection.execute(
                "INSERT INTO works (doi, arxiv, title, record) VALUES (?, ?, ?, ?)",
                (
                    record.doi.lower(),
                    _unversioned(record.arxiv_id),
                    record.title,
                    json.dumps(to_data(record)),
                ),
            )
            connection.execute(
                "INSERT INTO titles (rowid, title) VALUES (?, ?)", (cursor.lastrowid, record.title)
            )
            imported += 1
    return imported, skipped


class Snapshot:
    """Read access to a built snapshot."""

    def __init__(self, path: Path) -> None:
        if not path.is_file():
            raise InputError(
                f"{path}: no such snapshot (build one with `citecheck snapshot build`)"
            )
        try:
            self._connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            self._connection.execute("SELECT 1 FROM works LIMIT 1")
        except sqlite3.Error as exc:
            raise InputError(f"{path}: not a citecheck snapshot ({exc})") from exc

    def _records(self, rows: Iterable[tuple[str]]) -> list[WorkRecord]:
        records = []
        for (text,) in rows:
            record = record_from_data(WorkRecord, json.loads(text))
            records.append(record)
        return records

    def by_doi(self, doi: str) -> list[WorkRecord]:
        """Records with this DOI."""
        rows = self._connection.execute("SELECT record FROM works WHERE doi = ?", (doi.lower(),))
        return self._records(rows)

    def by_arxiv(self, arxiv_id: str) -> list[WorkRecord]:
        """Records with this arXiv id (any version)."""
        rows = self._connection.execute(
            "SELECT record FROM works WHERE arxiv = ?", (_unversioned(arxiv_id),)
        )
        return self._records(rows)

    def search(self, title: str, limit: int = 5) -> list[WorkRecord]:
        """Records whose title contains the title's words, best first."""
        words = re.findall(r"\w+", title)
        if not words:
            return []
        query = " ".join(f'"{w}"' for w in words)
        rows = self._connection.execute(
            "SELECT works.record FROM titles JOIN works ON works.id = titles.rowid "
            "WHERE titles MATCH ? ORDER BY rank LIMIT ?",
            (query, limit),
        )
        return self._records(rows)

    def close(self) -> None:
        """Close the database."""
        self._connection.close()
