"""Title search in a snapshot as real titles need it: by a title's rarest words (a DBLP-sized
copy answers in about a millisecond), with every word when the rarest are common, a changed
word, a typo, a subtitle the record lacks; and a similar title by other people is another work."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from citecore.bib.bibtex import parse_bibtex
from citecore.errors import InputError
from citecore.model import Person, Reference, ReferenceVerdict, Source, SourceLocation
from citecore.registries.record import WorkRecord
from citecore.registries.settings import ClientSettings
from citecore.registries.snapshot import Snapshot
from citecore.registries.snapshot_build import build_snapshot
from citecore.verify.compare import corroborated
from citecore.verify.registry import RegistryVerifier
from tests.synthetic_venue import cs_record, write_cs_dumps

_RECORDS = 6000


@pytest.fixture(scope="module")
def venue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """DBLP's dump of the synthetic computer-science venue, imported and declared complete."""
    folder = tmp_path_factory.mktemp("cs")
    dblp, _ = write_cs_dumps(folder, _RECORDS)
    build_snapshot([dblp], folder / "dblp.sqlite3", complete=True)
    return folder / "dblp.sqlite3"


def _rarest_word(snapshot: Path, title: str) -> str:
    with sqlite3.connect(snapshot) as connection:
        counts = [
            (connection.execute("SELECT docs FROM title_words WHERE term = ?", (w.lower(),))
             .fetchone()[0], w)
            for w in title.split()
        ]  # fmt: skip
    connection.close()
    return min(counts)[1]


def test_titles_are_found_as_writers_cite_them(venue: Path) -> None:
    rng = random.Random(7)
    snapshot = Snapshot(venue)
    try:
        for number in rng.sample(range(_RECORDS), 60):
            title = str(cs_record(number)["title"])
            rarest = _rarest_word(venue, title)
            for cited in (
                title.upper(),
                title.replace(rarest, "zzqzq"),  # a typo no title holds
                title.replace(rarest, "learning"),  # the rarest word changed to a common one
                f"{title}: a study of things nobody named",  # a subtitle the record lacks
            ):
                found = snapshot.search(cited)
                assert found and found[0].title == title, cited
    finally:
        snapshot.close()


def test_a_title_of_common_words_is_found_among_many_that_share_them(tmp_path: Path) -> None:
    # Every word is in about half of the titles: their rarest three are in hundreds of them.
    words = "deep learning graph neural networks for image text data models".split()
    rng = random.Random(3)
    titles = sorted({" ".join(rng.sample(words, 6)) for _ in range(3000)})
    dump = tmp_path / "works.jsonl"
    dump.write_text(
        "".join(f'{{"source": "dblp", "title": "{t}", "year": 2020}}\n' for t in titles)
    )
    build_snapshot([dump], tmp_path / "s.sqlite3")
    snapshot = Snapshot(tmp_path / "s.sqlite3")
    try:
        for title in titles[::40]:
            found = snapshot.search(title)
            assert found and found[0].title == title
    finally:
        snapshot.close()


def test_a_snapshot_without_its_word_counts_is_rebuilt(venue: Path, tmp_path: Path) -> None:
    older = tmp_path / "older.sqlite3"
    older.write_bytes(venue.read_bytes())
    with sqlite3.connect(older) as connection:
        connection.execute("DROP TABLE title_words")
    connection.close()
    with pytest.raises(InputError, match="built by an older version"):
        Snapshot(older)


def _cited(title: str, authors: tuple[Person, ...], year: int | None) -> Reference:
    return Reference(
        "k", "inproceedings", SourceLocation("refs.bib", 1), title=title, authors=authors,
        year=year, venue="NeurIPS",
    )  # fmt: skip


def test_a_similar_title_is_the_cited_work_only_with_a_person_in_common() -> None:
    record = WorkRecord(
        Source.DBLP, "Sparse attention for long documents", (Person("Lee", "J."),), 2020
    )
    someone_else = (Person("Okafor", "Q."),)
    assert corroborated(
        _cited("Sparse attention for documents", (Person("Lee", "K."),), 2012), record
    )
    assert not corroborated(_cited("Sparse attention for documents", someone_else, 2020), record)
    # Where no one is cited, the year decides (a preprint and its publication a year apart).
    assert corroborated(_cited("Sparse attention for documents", (), 2021), record)
    assert not corroborated(_cited("Sparse attention for documents", (), 2016), record)
    assert corroborated(_cited("Sparse attention for documents", (), None), record)


def test_offline_a_similar_title_by_other_people_is_not_found_not_a_mismatch(
    venue: Path, tmp_path: Path
) -> None:
    data = cs_record(12)
    title = str(data["title"])
    family = data["authors"][0]["family"]  # type: ignore[index]
    changed = title.replace(_rarest_word(venue, title), "learning")
    bib = parse_bibtex(
        f"@inproceedings{{fake, title={{{changed}}}, author={{Nobodyknows, Q.}}, "
        f"booktitle={{{data['venue']}}}, year={{{data['year']}}}}}\n"
        f"@inproceedings{{typo, title={{{changed}}}, author={{{family}, A.}}, "
        f"booktitle={{{data['venue']}}}, year={{{data['year']}}}}}\n",
        "refs.bib",
    )
    settings = ClientSettings.from_environment({}, offline=True)
    verifier = RegistryVerifier(settings, tmp_path / "cache.sqlite3", snapshot_path=venue)
    results = verifier.verify(list(bib.references))
    assert results["fake"].verdict is ReferenceVerdict.NOT_FOUND
    assert not results["fake"].mismatches  # no other work's fields suggested as corrections
    assert results["typo"].verdict is ReferenceVerdict.MISMATCH
    assert [m.field for m in results["typo"].mismatches] == ["title"]


def test_a_query_stops_at_words_few_titles_hold_without_reading_a_common_words_list(
    tmp_path: Path,
) -> None:
    # "quokka" is in 20 titles of 10,000, "marsupial" in 300, "of" and "the" in nearly all: once
    # the two rare words are asked, no more than 20 titles can hold them, fewer than one is
    # expected to, and asking for "of" too would make the index read nearly every title's entry.
    titles = [f"the quokka island number {n}" for n in range(20)]
    titles += [f"the marsupial of a region number {n}" for n in range(300)]
    titles += [f"the study of thing number {n}" for n in range(9680)]
    dump = tmp_path / "works.jsonl"
    dump.write_text("".join(f'{{"source": "dblp", "title": "{t}"}}\n' for t in titles))
    build_snapshot([dump], tmp_path / "s.sqlite3")
    snapshot = Snapshot(tmp_path / "s.sqlite3")
    asked: list[str] = []
    try:
        snapshot._connections[0].set_trace_callback(asked.append)
        snapshot.search("The marsupial of the quokka")  # no such title
    finally:
        snapshot.close()
    first = next(sql for sql in asked if "MATCH" in sql)
    assert 'MATCH \'"quokka" AND "marsupial"\'' in first, first


def test_a_snapshot_reads_each_words_titles_in_few_places(tmp_path: Path) -> None:
    # Titles are indexed 64 MB at a time: 20,000 titles make one segment, not several.
    dump = tmp_path / "works.jsonl"
    dump.write_text(
        "".join(f'{{"source": "dblp", "title": "title {n} of a work"}}\n' for n in range(20_000))
    )
    build_snapshot([dump], tmp_path / "s.sqlite3")
    with sqlite3.connect(tmp_path / "s.sqlite3") as connection:
        segments = connection.execute("SELECT count(DISTINCT segid) FROM titles_idx").fetchone()[0]
    connection.close()
    assert segments == 1
