"""One persistent store for everything expensive to recompute: SQLite in WAL mode.

Entries live under a namespace ("bibtex", later "http", "verdict" …) and a key that callers build
from the content they depend on (a file's SHA-256 and a logic version), so a changed input or a
changed rule simply misses. An entry may expire. A cache that cannot be opened or written is
logged and then behaves as empty: it never breaks a build.
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
import time
from pathlib import Path
from types import TracebackType

from platformdirs import user_cache_dir

logger = logging.getLogger(__name__)

_SCHEMA = """CREATE TABLE IF NOT EXISTS entries (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    expires REAL,
    PRIMARY KEY (namespace, key)
)"""


# Trouble with a cache file is said once per process and file: a run opens the cache several
# times, and a read-only or full disk would otherwise repeat itself on every entry.
_reported: set[str] = set()


def _report_once(path: Path, message: str, exc: Exception) -> None:
    if str(path) not in _reported:
        _reported.add(str(path))
        logger.warning("%s %s; continuing without caching: %s", message, path, exc)


# Builds started together may find the cache file new: turning it to WAL takes a lock the
# busy timeout does not wait for, so its setup is tried again, briefly.
_SETUP_ATTEMPTS = 8


def _opened(path: Path) -> sqlite3.Connection:
    """A connection to the cache at `path`, in WAL mode with its table; raises sqlite3.Error
    when it cannot be had (the last attempt's error says why)."""
    for attempt in range(1, _SETUP_ATTEMPTS):
        try:
            return _set_up(path)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc):
                raise
            time.sleep(0.05 * attempt)
    return _set_up(path)


def _set_up(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, timeout=5.0, isolation_level=None)
    try:
        # WAL is a property of the file: only its first user has to set it.
        if connection.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
        connection.execute(_SCHEMA)
    except sqlite3.Error:
        connection.close()
        raise
    return connection


def default_cache_path() -> Path:
    """The per-user cache file (platformdirs' user cache folder)."""
    return Path(user_cache_dir("citecheck", appauthor=False)) / "cache.sqlite3"


def content_key(*parts: str) -> str:
    """A cache key: the SHA-256 of the parts (each part separated, so ("ab","c") ≠ ("a","bc"))."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogatepass"))
        digest.update(b"\0")
    return digest.hexdigest()


class Cache:
    """A namespaced key-value store with optional expiry; use as a context manager."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_cache_path()
        self._connection: sqlite3.Connection | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._connection = _opened(self.path)
        except (OSError, sqlite3.Error) as exc:
            _report_once(self.path, "cache unavailable:", exc)

    def get(self, namespace: str, key: str) -> str | None:
        """The stored value, or None when absent, expired or unreadable."""
        if self._connection is None:
            return None
        try:
            row = self._connection.execute(
                "SELECT value, expires FROM entries WHERE namespace = ? AND key = ?",
                (namespace, key),
            ).fetchone()
        except sqlite3.Error as exc:
            _report_once(self.path, "cache unreadable:", exc)
            return None
        if row is None or (row[1] is not None and row[1] < time.time()):
            return None
        value: str = row[0]
        return value

    def get_many(self, namespace: str, keys: list[str]) -> dict[str, str]:
        """The stored, unexpired values of those `keys` that have one, in one query per 500
        keys (a rebuild reads every cited entry's verdict at once)."""
        if self._connection is None or not keys:
            return {}
        found: dict[str, str] = {}
        now = time.time()
        try:
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                rows = self._connection.execute(
                    "SELECT key, value, expires FROM entries WHERE namespace = ? AND key IN "
                    f"({','.join('?' * len(chunk))})",
                    (namespace, *chunk),
                ).fetchall()
                found.update((k, v) for k, v, expires in rows if expires is None or expires >= now)
        except sqlite3.Error as exc:
            _report_once(self.path, "cache unreadable:", exc)
            return {}
        return found

    def put(self, namespace: str, key: str, value: str, ttl: float | None = None) -> None:
        """Store `value`, replacing any earlier one; it expires after `ttl` seconds if given."""
        if self._connection is None:
            return
        expires = time.time() + ttl if ttl is not None else None
        try:
            self._connection.execute(
                "INSERT OR REPLACE INTO entries (namespace, key, value, expires) "
                "VALUES (?, ?, ?, ?)",
                (namespace, key, value, expires),
            )
        except sqlite3.Error as exc:
            _report_once(self.path, "cache not writable:", exc)

    def close(self) -> None:
        """Close the database (further calls behave as an empty cache)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> Cache:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
