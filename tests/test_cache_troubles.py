"""The cache in the troubles a writer's machine has: a cache file that is no database, a folder
that cannot be written, a disk gone read-only mid-run, entries that expire, several builds at
once. Whatever happens, a build goes on (a cache that cannot be used behaves as empty) and the
trouble is said once per file, not once per entry."""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from pathlib import Path

import pytest

import citecore.cache as cache_module
from citecore.cache import Cache, content_key


@pytest.fixture(autouse=True)
def _forget_reported() -> None:
    cache_module._reported.clear()


def test_a_value_comes_back_until_it_expires(tmp_path: Path) -> None:
    with Cache(tmp_path / "c.sqlite3") as cache:
        cache.put("http", "k", "v", ttl=0.2)
        cache.put("http", "forever", "w")
        assert cache.get("http", "k") == "v"
        assert cache.get("verdict", "k") is None  # another namespace
        time.sleep(0.3)
        assert cache.get("http", "k") is None
        assert cache.get_many("http", ["k", "forever", "absent"]) == {"forever": "w"}


def test_many_keys_are_read_in_batches(tmp_path: Path) -> None:
    with Cache(tmp_path / "c.sqlite3") as cache:
        for number in range(1234):
            cache.put("verdict", f"k{number}", str(number))
        found = cache.get_many("verdict", [f"k{n}" for n in range(1300)])
    assert len(found) == 1234 and found["k1233"] == "1233"


def test_a_file_that_is_no_database_is_an_empty_cache_said_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "c.sqlite3"
    path.write_bytes(b"this is not SQLite at all " * 100)
    with caplog.at_level(logging.WARNING, logger="citecore.cache"):
        for _ in range(3):
            with Cache(path) as cache:
                cache.put("http", "k", "v")
                assert cache.get("http", "k") is None
                assert cache.get_many("http", ["k"]) == {}
    said = [r.getMessage() for r in caplog.records if str(path) in r.getMessage()]
    assert len(said) == 1
    assert "continuing without caching" in said[0]


def test_a_place_where_no_folder_can_be_made_is_an_empty_cache(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    with Cache(blocker / "citecheck" / "c.sqlite3") as cache:
        cache.put("http", "k", "v")
        assert cache.get("http", "k") is None


def test_a_cache_that_breaks_mid_run_goes_on_as_empty(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cache = Cache(tmp_path / "c.sqlite3")
    cache.put("http", "k", "v")

    class Broken:
        def execute(self, *_args: object) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        def close(self) -> None:
            pass

    cache._connection = Broken()  # type: ignore[assignment]
    with caplog.at_level(logging.WARNING, logger="citecore.cache"):
        cache.put("http", "k2", "v2")
        assert cache.get("http", "k") is None
        assert cache.get_many("http", ["k"]) == {}
    assert len(caplog.records) == 1  # one line for the file, whatever was asked of it
    cache.close()
    assert cache.get("http", "k") is None  # closed: empty, never an error


def test_the_cache_is_in_wal_mode(tmp_path: Path) -> None:
    with Cache(tmp_path / "c.sqlite3") as cache:
        cache.put("http", "k", "v")
    connection = sqlite3.connect(tmp_path / "c.sqlite3")
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    connection.close()


def test_builds_started_together_share_one_new_cache(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    failures: list[BaseException] = []

    def build(number: int) -> None:
        try:
            with Cache(path) as cache:
                for item in range(50):
                    cache.put("verdict", f"{number}-{item}", "x")
        except BaseException as exc:  # any failure fails the test below
            failures.append(exc)

    threads = [threading.Thread(target=build, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with Cache(path) as cache:
        keys = [f"{n}-{i}" for n in range(6) for i in range(50)]
        assert len(cache.get_many("verdict", keys)) == 300


def test_a_content_key_separates_its_parts() -> None:
    assert content_key("ab", "c") != content_key("a", "bc")
    assert content_key("a") == content_key("a")
    assert len(content_key("\udcff")) == 64  # a lone surrogate from a mis-decoded file is a part
