"""The cache against a model (a dict), by a hypothesis state machine: any sequence of puts,
gets, expiries and reopenings (a rebuild in a new process) answers as the model does, across
namespaces, for any text."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from citecore.cache import Cache, content_key

NAMESPACES = st.sampled_from(["bibtex", "http", "verdict", "grounding"])
KEYS = st.text(max_size=20)
VALUES = st.text(max_size=200)


class CacheAgainstADict(RuleBasedStateMachine):
    """What was put is got back (until it expires), in its namespace only, after any reopen."""

    def __init__(self) -> None:
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        self.path = Path(self.folder.name) / "cache.sqlite3"
        self.cache = Cache(self.path)
        self.model: dict[tuple[str, str], str] = {}

    @rule(namespace=NAMESPACES, key=KEYS, value=VALUES)
    def put(self, namespace: str, key: str, value: str) -> None:
        self.cache.put(namespace, key, value)
        self.model[(namespace, key)] = value

    @rule(namespace=NAMESPACES, key=KEYS, value=VALUES)
    def put_already_expired(self, namespace: str, key: str, value: str) -> None:
        self.cache.put(namespace, key, value, ttl=-1.0)
        self.model.pop((namespace, key), None)  # an expired entry is an absent one

    @rule(namespace=NAMESPACES, key=KEYS)
    def get(self, namespace: str, key: str) -> None:
        assert self.cache.get(namespace, key) == self.model.get((namespace, key))

    @rule(namespace=NAMESPACES, keys=st.lists(KEYS, max_size=8))
    def get_many(self, namespace: str, keys: list[str]) -> None:
        expected = {k: self.model[(namespace, k)] for k in keys if (namespace, k) in self.model}
        assert self.cache.get_many(namespace, keys) == expected

    @rule()
    def reopen(self) -> None:
        self.cache.close()
        self.cache = Cache(self.path)

    @invariant()
    def everything_put_is_there(self) -> None:
        for (namespace, key), value in self.model.items():
            assert self.cache.get(namespace, key) == value

    def teardown(self) -> None:
        self.cache.close()
        self.folder.cleanup()


TestCacheAgainstADict = CacheAgainstADict.TestCase
TestCacheAgainstADict.settings = settings(max_examples=40, stateful_step_count=20, deadline=None)


def test_content_keys_separate_their_parts_and_take_any_text() -> None:
    assert content_key("ab", "c") != content_key("a", "bc")
    assert content_key("a", "") != content_key("a")
    # A file name decoded with surrogateescape (os.fsdecode of non-UTF-8 bytes) still keys.
    assert len(content_key("caf\udce9.bib")) == 64


def test_a_file_that_is_not_a_database_is_an_empty_cache(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite3"
    path.write_bytes(b"this is not SQLite" * 100)
    with Cache(path) as cache:
        cache.put("http", "k", "v")  # said once, never raised
        assert cache.get("http", "k") is None
    assert path.read_bytes().startswith(b"this is not SQLite")  # nothing of the user's destroyed


def test_many_keys_are_read_in_chunks(tmp_path: Path) -> None:
    with Cache(tmp_path / "cache.sqlite3") as cache:
        for i in range(1200):
            cache.put("verdict", f"k{i}", str(i))
        found = cache.get_many("verdict", [f"k{i}" for i in range(0, 1300)])
    assert len(found) == 1200 and found["k1199"] == "1199"
