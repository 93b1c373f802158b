"""DBLP's XML dump and arXiv's metadata snapshot imported as snapshots: the real records of
../shared/fixtures/dblp/ as the dump holds them (entities, homonym numbers, informal preprints,
`ee` links), dumps generated in the same format from the registry world, arXiv metadata lines
in the form arXiv publishes; then references answered from them with no request, titles found
as references mangle them, and a complete DBLP copy accusing only what it would hold."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.errors import InputError
from citecore.model import ReferenceVerdict, Source
from citecore.options import resolve_options
from citecore.registries.dblp_dump import as_record, dblp_works
from citecore.registries.record import Update, WorkRecord
from citecore.registries.snapshot import Snapshot
from citecore.registries.snapshot_build import (
    build_snapshot,
    parse_line,
    read_line,
)
from citecore.registries.snapshot_rows import stored_dblp_work, stored_record
from citecore.serialize import record_from_data, to_compact_data
from tests.generated_dblp import numbered, world_records, write_dump
from tests.offline import verified_offline
from tests.paths import SHARED

EXCERPT = SHARED / "fixtures" / "dblp" / "excerpt.xml"


def dblp_records(path: Path, dtd: Path | None = None) -> list[tuple[WorkRecord, str]]:
    """(record, DBLP key) of every work of a dump."""
    return [(as_record(work), work.key) for _, work in dblp_works(path, dtd)]


def test_the_real_records_read_as_the_dump_holds_them() -> None:
    read = {key: record for record, key in dblp_records(EXCERPT)}
    assert len(read) == 12
    spectre = read["tr/meltdown/s18"]
    assert spectre.title == "Spectre Attacks: Exploiting Speculative Execution"
    assert spectre.is_preprint  # publtype="informal"
    assert spectre.url == "https://spectreattack.com/spectre.pdf"
    prescher = next(a for a in spectre.authors if a.family == "Prescher")
    assert (prescher.given, prescher.homonym) == ("Thomas", "0002")  # DBLP's, not the name
    curricula = read["tr/acm/CS2013"]
    assert (curricula.work_type, curricula.doi, curricula.year) == ("book", "10.1145/2534860", 2013)
    ozsu = [a for r in read.values() for a in r.authors if a.family.endswith("zsu")]
    assert ozsu and ozsu[0].family == "Özsu"  # the DTD's &Ouml;
    thesis = read["ms/Vollmer2006"]
    assert thesis.work_type == "mastersthesis" and not thesis.is_preprint


def test_the_dump_needs_its_dtd_and_says_where_to_get_it(tmp_path: Path) -> None:
    alone = tmp_path / "dblp.xml"
    shutil.copy(EXCERPT, alone)
    with pytest.raises(InputError, match=r"put dblp.dtd \(https://dblp.org/xml/dblp.dtd\) beside"):
        list(dblp_records(alone))
    assert len(list(dblp_records(alone, EXCERPT.with_name("dblp.dtd")))) == 12


def test_a_record_reads_its_fields_as_dblp_writes_them(tmp_path: Path) -> None:
    shutil.copy(EXCERPT.with_name("dblp.dtd"), tmp_path / "dblp.dtd")
    dump = tmp_path / "dblp.xml"
    dump.write_text(
        '<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n'
        '<article key="journals/x/A1">\n<author>Jos&eacute; Garc&iacute;a 0003</author>\n'
        "<title>The <i>k</i>-means   problem\n revisited.</title>\n<year>2020</year>\n"
        "<journal>J. Algorithms</journal>\n<booktitle>not the venue</booktitle>\n"
        "<ee>https://example.org/landing</ee>\n<ee>https://arxiv.org/abs/2001.00001v2</ee>\n"
        "<ee>https://doi.org/10.1000/ABC.</ee>\n<ee>https://doi.org/10.9999/second</ee>\n"
        "</article>\n"
        '<proceedings key="conf/x/2020">\n<editor>Ann Editor</editor>\n'
        "<title>Proceedings of X 2020</title>\n<year>n/a</year>\n</proceedings>\n</dblp>\n",
        encoding="latin-1",
    )
    article, volume = (record for record, _ in dblp_records(dump))
    assert article.title == "The k-means problem revisited"  # markup dropped, spaces folded
    assert (article.doi, article.arxiv_id, article.url) == (
        "10.1000/abc",
        "2001.00001",
        "https://example.org/landing",
    )  # the first link of each kind
    assert article.venue == "J. Algorithms" and article.year == 2020
    assert (article.authors[0].family, article.authors[0].homonym) == ("García", "0003")
    # A volume without authors is signed by its editors; a year that is no number is none.
    assert [a.family for a in volume.authors] == ["Editor"] and volume.year is None
    assert volume.url == "https://dblp.org/rec/conf/x/2020"


def test_a_stored_record_is_the_compact_form_read_back_whole() -> None:
    works = [*world_records()[:400], *(parse_line(line) for line in _crossref_lines())]
    for work in works:
        assert work is not None
        stored = json.loads(stored_record(work))
        assert stored == to_compact_data(work)
        assert record_from_data(WorkRecord, stored) == work
    retracted = WorkRecord(
        Source.CROSSREF, "A retracted work", updates=frozenset({Update.RETRACTION}),
        venue_names=("J. Ret.", "Journal of Retractions"), is_preprint=True,
    )  # fmt: skip
    assert record_from_data(WorkRecord, json.loads(stored_record(retracted))) == retracted


def test_a_dblp_work_is_stored_as_its_record_would_be(tmp_path: Path) -> None:
    # DBLP's works are written straight from the dump's fields: what is stored is what the
    # WorkRecord of the work would store, on the real records and on a generated dump.
    dump = tmp_path / "dblp.xml.gz"
    shutil.copy(EXCERPT.with_name("dblp.dtd"), tmp_path / "dblp.dtd")
    write_dump(dump, numbered(world_records(), 3_000))
    works = [work for source in (EXCERPT, dump) for _, work in dblp_works(source)]
    assert len(works) > 2_900
    for work in works:
        stored = json.loads(stored_dblp_work(work))
        assert stored == json.loads(stored_record(as_record(work)))
        assert record_from_data(WorkRecord, stored) == as_record(work)


def _crossref_lines() -> list[str]:
    """The world's Crossref works, some with notices and other venue names."""
    world = SHARED / "fixtures" / "world" / "crossref-works.jsonl"
    return [line for line in world.read_text(encoding="utf-8").splitlines()[:300] if line]


def test_a_truncated_download_is_named(tmp_path: Path) -> None:
    dump = tmp_path / "dblp.xml.gz"
    write_dump(dump, world_records()[:50])
    dump.write_bytes(gzip.compress(gzip.decompress(dump.read_bytes())[:-2000]))
    with pytest.raises(InputError, match="cannot be read as DBLP's XML dump"):
        build_snapshot([dump], tmp_path / "s.sqlite3")
    assert not (tmp_path / "s.sqlite3").exists()


def test_a_generated_dump_gives_back_every_work(tmp_path: Path) -> None:
    works = world_records()
    dump = tmp_path / "dblp.xml.gz"
    count = write_dump(dump, works)
    volumes = count - len(works)  # the proceedings volumes the papers are in
    assert 0 < volumes < len(works) / 10
    built = build_snapshot([dump], tmp_path / "s.sqlite3", complete=True)
    assert built.imported == count  # person pages and artefacts are no works
    assert built.sources == {"dblp": count}
    snapshot = Snapshot(tmp_path / "s.sqlite3")
    try:
        for work in works[::25]:
            found = snapshot.search(work.title)
            assert found and found[0].title == work.title.rstrip(".")
            # A name written "Given Family" reads back its last word as the family at least
            # ("Ana Paula Costa Santos Senhuk": DBLP's own display form is as ambiguous).
            read = [a.family.split()[-1] for a in found[0].authors]
            assert read == [a.family.split()[-1] for a in work.authors[:12]]
            if work.doi:
                assert snapshot.by_doi(work.doi)[0].title == found[0].title
    finally:
        snapshot.close()


def test_the_build_command_reads_dblps_dump(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = tmp_path / "dblp.xml.gz"
    count = write_dump(dump, list(numbered(world_records(), 300)))
    target = tmp_path / "dblp.sqlite3"
    assert main(["snapshot", "build", str(dump), "-o", str(target), "--complete"]) == 0
    assert f"{count} records imported (dblp {count})" in capsys.readouterr().err
    assert main(["snapshot", "info", str(target)]) == 0
    assert f"  dblp: {count} records" in capsys.readouterr().out


# --- arXiv's metadata snapshot --------------------------------------------------------------

ARXIV_LINE = {
    "id": "1706.03762",
    "submitter": "Ashish Vaswani",
    "authors": "Ashish Vaswani, Noam Shazeer, Niki Parmar, Jakob Uszkoreit, Llion Jones, Aidan N."
    " Gomez, Lukasz Kaiser, Illia Polosukhin",
    "title": "Attention Is All You Need",
    "comments": "15 pages, 5 figures",
    "journal-ref": None,
    "doi": None,
    "categories": "cs.CL cs.LG",
    "abstract": "  The dominant sequence transduction models are based on complex recurrent...\n",
    "versions": [
        {"version": "v1", "created": "Mon, 12 Jun 2017 17:57:34 GMT"},
        {"version": "v7", "created": "Wed, 2 Aug 2023 00:41:18 GMT"},
    ],
    "update_date": "2023-08-03",
    "authors_parsed": [["Vaswani", "Ashish", ""], ["Shazeer", "Noam", ""], ["Parmar", "Niki", ""]],
}


def test_an_arxiv_metadata_line_reads_as_the_apis_record() -> None:
    record = read_line(json.dumps(ARXIV_LINE))
    assert not isinstance(record, str)
    assert (record.source, record.arxiv_id, record.year) == (Source.ARXIV, "1706.03762", 2017)
    assert record.title == "Attention Is All You Need"
    assert [a.family for a in record.authors] == ["Vaswani", "Shazeer", "Parmar"]
    assert record.is_preprint and record.abstract == ""
    published = read_line(json.dumps({**ARXIV_LINE, "doi": "10.1103/PhysRevD.76.013009 ",
                                      "journal-ref": "Phys.Rev.D76:013009,2007"}))  # fmt: skip
    assert not isinstance(published, str)
    assert (published.doi, published.venue) == (
        "10.1103/physrevd.76.013009",
        "Phys.Rev.D76:013009,2007",
    )


def test_arxiv_ids_and_titles_are_answered_from_the_snapshot(tmp_path: Path) -> None:
    dump = tmp_path / "arxiv-metadata-oai-snapshot.json"
    dump.write_text(json.dumps(ARXIV_LINE) + "\n")
    build_snapshot([dump], tmp_path / "s.sqlite3")
    snapshot = Snapshot(tmp_path / "s.sqlite3")
    try:
        assert snapshot.by_arxiv("1706.03762v5")[0].title == "Attention Is All You Need"
        assert snapshot.search("Attention is all you need!")[0].arxiv_id == "1706.03762"
        # A "title" of thousands of distinct words (a pasted abstract, a broken entry) is
        # looked for like any other, within what one SQLite query can name.
        pasted = " ".join(f"word{n}" for n in range(40_000)) + " attention need"
        assert snapshot.search(pasted) == []
    finally:
        snapshot.close()


# --- Titles as references write them ----------------------------------------------------------


@pytest.mark.parametrize(
    "written",
    [
        "training language models to follow instructions with human feedback",  # case
        "Training Language Models to Follow Instructions with Human-Feedback.",  # punctuation
        "Training {L}anguage \\emph{Models} to Follow Instructions with Human Feedback",  # LaTeX
        "Training Language Models to Follow Instructions",  # the rest of the title dropped
        "Training Language Models to Follow Instruction with Human Feedback",  # a word changed
        "Training language models to follow instructions with human feedback: RLHF at scale",
    ],
)
def test_a_title_is_found_as_references_mangle_it(
    tmp_path_factory: pytest.TempPathFactory, written: str
) -> None:
    target = tmp_path_factory.getbasetemp() / "world-dblp.sqlite3"
    if not target.exists():
        dump = tmp_path_factory.mktemp("dump") / "dblp.xml.gz"
        write_dump(dump, world_records())
        build_snapshot([dump], target)
    snapshot = Snapshot(target)
    try:
        found = snapshot.search(written)
        assert (
            found
            and found[0].title
            == "Training Language Models to Follow Instructions with Human Feedback"
        )
    finally:
        snapshot.close()


# --- A complete DBLP copy, offline ------------------------------------------------------------


def test_offline_a_complete_dblp_copy_settles_what_it_holds_and_accuses_nothing_else(
    tmp_path: Path,
) -> None:
    dump = tmp_path / "dblp.xml.gz"
    write_dump(dump, world_records())
    build_snapshot([dump], tmp_path / "dblp.sqlite3", complete=True)
    bib = (
        "@inproceedings{real, title = {Training Language Models to Follow Instructions with "
        "Human Feedback}, author = {Ouyang, Long and others}, booktitle = {Advances in Neural "
        "Information Processing Systems}, year = 2022}\n"
        "@inproceedings{made, title = {Citation Graph Transformers for Verifying Scholarly "
        "Claims}, author = {Holt, Maren}, booktitle = {NeurIPS}, year = 2023}\n"
        "@article{medical, title = {A Trial of Something in Adults}, author = {Roe, R.}, "
        "journal = {The Lancet}, year = 2019}\n"
    )
    results = verified_offline(bib, tmp_path / "dblp.sqlite3", tmp_path / "c.sqlite3")
    assert results["real"].verdict is ReferenceVerdict.VERIFIED
    assert results["real"].sources == ("snapshot",)
    # NeurIPS under its acronym: the copy holds NeurIPS papers, so one it lacks does not exist.
    assert results["made"].verdict is ReferenceVerdict.NOT_FOUND
    assert results["medical"].verdict is ReferenceVerdict.UNVERIFIABLE


# --- Several snapshots together -----------------------------------------------------------------


def _snapshots_folder(root: Path) -> Path:
    """DBLP's copy (declared complete) and arXiv's metadata (not declared) side by side."""
    folder = root / "snapshots"
    folder.mkdir()
    dump = root / "dblp.xml.gz"
    write_dump(dump, world_records())
    build_snapshot([dump], folder / "dblp.sqlite3", complete=True)
    arxiv_dump = root / "arxiv.json"
    arxiv_dump.write_text(json.dumps(ARXIV_LINE) + "\n")
    build_snapshot([arxiv_dump], folder / "arxiv.sqlite3")
    return folder


def test_a_folder_of_snapshots_is_asked_whole(tmp_path: Path) -> None:
    snapshot = Snapshot(_snapshots_folder(tmp_path))
    try:
        assert snapshot.by_arxiv("1706.03762")[0].source is Source.ARXIV
        found = snapshot.search(
            "Training Language Models to Follow Instructions with Human Feedback"
        )
        assert found[0].source is Source.DBLP
        assert snapshot.complete  # one of them is declared complete
    finally:
        snapshot.close()


def test_each_snapshot_of_a_folder_speaks_only_for_its_own_kinds(tmp_path: Path) -> None:
    from citecore.model import Reference, SourceLocation

    snapshot = Snapshot(_snapshots_folder(tmp_path))

    def cited(**fields: str) -> Reference:
        return Reference("k", "article", SourceLocation("refs.bib", 1), title="T", **fields)  # type: ignore[arg-type]

    try:
        # DBLP's complete copy holds works with arXiv ids and IEEE DOIs, yet is no copy of arXiv
        # nor of a DOI registry: an arXiv id or a DOI it lacks is not for it to deny.
        assert not snapshot.covers(cited(arxiv_id="astro-ph/0601001"))
        assert not snapshot.covers(cited(doi="10.1109/tpwrs.2020.1234567"))
        assert snapshot.covers(
            cited(venue="NeurIPS"), ("neural information processing systems", r"\bneurips\b")
        )
    finally:
        snapshot.close()
    (tmp_path / "snapshots" / "arxiv.sqlite3").unlink()
    arxiv_dump = tmp_path / "arxiv.json"
    build_snapshot([arxiv_dump], tmp_path / "snapshots" / "arxiv.sqlite3", complete=True)
    snapshot = Snapshot(tmp_path / "snapshots")
    try:
        assert snapshot.covers(cited(arxiv_id="astro-ph/0601001"))  # arXiv's own copy, complete
    finally:
        snapshot.close()


def test_a_folder_of_shards_without_its_manifest_is_no_snapshot(tmp_path: Path) -> None:
    folder = tmp_path / "sharded"
    folder.mkdir()
    dump = tmp_path / "d.jsonl"
    dump.write_text(
        json.dumps({"source": "crossref", "title": "A Work", "doi": "10.5555/a"}) + "\n"
    )
    build_snapshot([dump], folder / "shard-0000.sqlite3", complete=True)
    with pytest.raises(InputError, match="not a sharded snapshot"):
        Snapshot(folder)
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="a folder holding no snapshot"):
        Snapshot(tmp_path / "empty")


def test_snapshots_given_one_by_one_are_asked_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _snapshots_folder(tmp_path)
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@misc{attention, title = {Attention Is All You Need},"
        " author = {Vaswani, Ashish and others},"
        " year = 2017, eprint = {1706.03762}, archivePrefix = {arXiv}}\n"
        "@inproceedings{instruct, title = {Training Language Models to Follow Instructions with"
        " Human Feedback}, author = {Ouyang, Long and others},"
        " booktitle = {Advances in Neural Information Processing Systems}, year = 2022}\n"
    )
    report = tmp_path / "out.json"
    argv = ["verify", str(bib), "--offline", "-f", "json", "-o", str(report), "-q"]
    snapshots = [
        "--snapshot",
        str(folder / "dblp.sqlite3"),
        "--snapshot",
        str(folder / "arxiv.sqlite3"),
    ]
    main([*argv, *snapshots])
    verdicts = {r["key"]: r["verdict"] for r in json.loads(report.read_text())["references"]}
    assert verdicts == {"attention": "verified", "instruct": "verified"}
    # A project file lists them too, relative to the file.
    (tmp_path / "citecheck.toml").write_text(
        'snapshot = ["snapshots/dblp.sqlite3", "snapshots/arxiv.sqlite3"]\n'
    )
    options = resolve_options({}, folder=tmp_path, environ={})
    assert options.snapshot == (folder / "dblp.sqlite3", folder / "arxiv.sqlite3")
