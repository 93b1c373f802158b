"""Title search in one snapshot file: the FTS5 queries that find a cited title's record among
millions, fast whatever the title's words.

A title is looked for by its rarest words (the snapshot counts, for every word, the titles that
hold it): few titles hold a title's three rarest words, and the index finds them by reading
short lists, where asking for every word of a title reads the long lists of its common words
(tens of thousands of rows each in a DBLP-sized copy). Words are added, rarest first, until so
few titles are expected to hold them all that each can be compared with the cited title. A
title with one of its rarest words changed is looked for by the others, each left out in turn.
"""

from __future__ import annotations

import re
import sqlite3

from citecore.normalize import fold

# How many title matches are compared one by one before BM25 is asked to pick the best.
COMPARED = 200
# A query's words are taken, rarest first, until fewer titles than this are expected to hold
# them all (counts multiplied as if words fell independently), and never fewer than three —
# unless its rarest word is held by no more titles than are compared one by one: however its
# words fall together, no more can hold them all, and words are taken only until fewer than one
# title is expected (each word more makes the index read its list of titles: tens of thousands
# for "policy", to rule out none).
_EXPECTED = 20
_FEWEST_WORDS = 3
_MOST_WORDS = 500  # words of one title looked up: SQLite builds before 3.32 take 999 values a query

Row = tuple[int, str]  # (row id, title): records are read for the few compared best


def title_words(title: str) -> list[str]:
    """A title's words, its LaTeX commands left out."""
    return re.findall(r"\w+", re.sub(r"\\[A-Za-z]+", " ", title))


def word_counts(connection: sqlite3.Connection, words: list[str]) -> list[tuple[int, str]]:
    """(titles holding it, word) for each word the snapshot holds, rarest first (a word held
    by no title, a typo or a changed word, cannot find anything and is left out)."""
    # A title's words, once each; no title has more than SQLite lets one query name.
    folded = list(dict.fromkeys(fold(w) for w in words))[:_MOST_WORDS]
    marks = ",".join("?" * len(folded))
    found = connection.execute(
        f"SELECT docs, term FROM title_words WHERE term IN ({marks})", folded
    ).fetchall()
    return sorted(found)


def _selective(counts: list[tuple[int, str]], titles: int) -> list[str]:
    """The rarest words, as many as make a query few titles are expected to match."""
    chosen: list[str] = []
    expected = float(titles)
    for docs, word in counts:
        few = bool(chosen) and counts[0][0] <= COMPARED  # no more titles can hold them all
        if (few and expected <= 1) or (len(chosen) >= _FEWEST_WORDS and expected <= _EXPECTED):
            break
        chosen.append(word)
        expected *= docs / max(titles, 1)
    return chosen


def _all_of(words: list[str]) -> str:
    return " AND ".join(f'"{word}"' for word in words)


def title_count(connection: sqlite3.Connection) -> int:
    """How many titles a snapshot holds (its rows are numbered from 1 as they are written)."""
    return int(connection.execute("SELECT coalesce(max(id), 0) FROM works").fetchone()[0])


def holding(
    connection: sqlite3.Connection, titles: int, counts: list[tuple[int, str]]
) -> list[Row]:
    """The rows whose titles hold the rarest of the words counted (`word_counts`), enough of
    them to be few (of the snapshot's `titles`)."""
    if not counts:
        return []
    return matches(connection, _all_of(_selective(counts, titles)), COMPARED)


def one_changed(
    connection: sqlite3.Connection, titles: int, counts: list[tuple[int, str]]
) -> list[Row]:
    """The rows whose titles hold the rarest of the words counted but one of the three rarest,
    whichever: a title cited with one of its rarest words changed. A title of one or two known
    words is looked for by any of them."""
    if len(counts) < _FEWEST_WORDS:
        return (
            matches(connection, " OR ".join(f'"{w}"' for _, w in counts), COMPARED)
            if counts
            else []
        )
    clauses = {
        _all_of(_selective([c for c in counts if c != left_out], titles))
        for left_out in counts[:_FEWEST_WORDS]
    }
    return matches(connection, " OR ".join(f"({clause})" for clause in sorted(clauses)), COMPARED)


def matches(connection: sqlite3.Connection, query: str, limit: int) -> list[Row]:
    """(row id, title) of the rows matching `query`: all of them when they are few enough to
    be compared one by one, else the `limit` BM25 ranks best. BM25 ranking reads the whole
    posting list of every word (130 ms a search on 5 M records): it is asked only then."""
    sql = (
        "SELECT works.id, works.title FROM titles JOIN works ON works.id = titles.rowid "
        "WHERE titles MATCH ?"
    )
    rows: list[Row] = connection.execute(f"{sql} LIMIT ?", (query, COMPARED + 1)).fetchall()
    if len(rows) <= COMPARED:
        return rows
    ranked: list[Row] = connection.execute(
        f"{sql} ORDER BY rank LIMIT ?", (query, limit)
    ).fetchall()
    return ranked
