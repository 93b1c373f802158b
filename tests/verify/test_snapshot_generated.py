"""The snapshot against its oracle, the records it was built from (hypothesis): every record
comes back by each of its identifiers and by its title, junk lines are counted and skipped, and
no line of any shape stops a build."""

from __future__ import annotations

import json
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.model import Person, Source
from citecore.registries.record import WorkRecord
from citecore.registries.snapshot import Snapshot
from citecore.registries.snapshot_build import build_snapshot, parse_line
from citecore.serialize import to_data

WORD = st.text(st.characters(categories=("Lu", "Ll", "Nd"), codec="utf-8"), min_size=2, max_size=10)
# DOIs are case-insensitive in ASCII only (the DOI Handbook, 2.4): a drawn 'ſ' would upper-case
# to 'S' and name another DOI.
ASCII_WORD = st.text("abcdefghijklmnopqrstuvwxyz0123456789-", min_size=1, max_size=10)
JUNK = st.one_of(
    st.text(max_size=40).filter(lambda s: "\n" not in s and "\r" not in s),
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=8),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
        max_leaves=6,
    ).map(json.dumps),
)


@st.composite
def records(draw: st.DrawFn) -> list[WorkRecord]:
    count = draw(st.integers(1, 6))
    drawn = []
    for number in range(count):
        words = draw(st.lists(WORD, min_size=1, max_size=6))
        drawn.append(
            WorkRecord(
                source=draw(st.sampled_from([Source.CROSSREF, Source.OPENALEX, Source.DATACITE])),
                # A number word keeps titles distinct, so each search has one right answer.
                title=" ".join([*words, f"n{number}x"]),
                authors=(Person(family=draw(WORD), given=draw(WORD)),),
                year=draw(st.none() | st.integers(1900, 2030)),
                doi=f"10.{draw(st.integers(1000, 99999))}/{draw(ASCII_WORD)}.{number}",
                arxiv_id=draw(st.sampled_from(["", f"2101.{10000 + number}v2"])),
                pmid=draw(st.sampled_from(["", str(30000000 + number)])),
            )
        )
    return drawn


@given(records(), st.lists(JUNK, max_size=5))
@settings(max_examples=60, deadline=None)
def test_every_record_comes_back_by_each_identifier_and_its_title(
    works: list[WorkRecord], junk: list[str]
) -> None:
    lines = [json.dumps(to_data(r)) for r in works]
    junk = [line for line in junk if parse_line(line) is None and line.strip()]
    with TemporaryDirectory() as folder:
        dump = Path(folder) / "dump.jsonl"
        dump.write_text("\n".join([*junk, *lines]) + "\n", encoding="utf-8")
        target = Path(folder) / "snapshot.sqlite3"
        built = build_snapshot([dump], target, max_skipped=1.0)
        assert (built.imported, built.skipped) == (len(works), len(junk))
        snapshot = Snapshot(target)
        try:
            for work in works:
                assert snapshot.by_doi(work.doi.upper()) == [work]
                if work.arxiv_id:
                    assert snapshot.by_arxiv(work.arxiv_id.removesuffix("v2")) == [work]
                if work.pmid:
                    assert snapshot.by_pmid(work.pmid) == [work]
                assert snapshot.search(work.title)[0] == work
            assert snapshot.search("?!") == []
            assert not snapshot.complete
        finally:
            snapshot.close()


@given(st.text(max_size=200))
def test_no_line_of_any_shape_raises(line: str) -> None:
    record = parse_line(line)
    assert record is None or isinstance(record, WorkRecord)


@given(
    st.dictionaries(
        st.sampled_from(["DOI", "title", "id", "source", "message", "author", "issued"]),
        st.none() | st.integers() | st.text(max_size=10) | st.lists(st.text(max_size=5)),
    )
)
def test_registry_shaped_lines_with_wrong_types_never_raise(data: dict[str, object]) -> None:
    if isinstance(data.get("id"), str):
        data["id"] = "https://openalex.org/" + str(data["id"])
    record = parse_line(json.dumps(data))
    assert record is None or isinstance(record, WorkRecord)
