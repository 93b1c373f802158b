"""A snapshot is built from what it can read, or not at all: a dump of another format, an empty
or truncated one, a file of damaged lines stops the build with the file, the first lines
skipped and why; a build declared complete must hold records; and a snapshot declared complete
accuses only works of the kinds it holds (a DOI of a registrant it has works of, a title cited
in a venue it has works of). `snapshot info` says what a snapshot holds."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.cli import main
from citecore.errors import InputError
from citecore.model import Reference, ReferenceVerdict, SourceLocation
from citecore.registries.snapshot import Snapshot
from citecore.registries.snapshot_build import build_snapshot, read_line
from tests.offline import verified_offline
from tests.paths import SHARED


def _work(number: int, venue: str = "Journal of Tests", prefix: str = "10.5555") -> str:
    return json.dumps(
        {"source": "crossref", "title": f"A Study Numbered {number} of Things",
         "doi": f"{prefix}/study.{number}", "venue": venue, "year": 2020}
    )  # fmt: skip


WORKS = "\n".join(_work(n) for n in range(40)) + "\n"
DBLP_XML = SHARED / "fixtures" / "dblp"


def _build(tmp_path: Path, name: str, content: bytes, *extra: str) -> tuple[int, str]:
    dump = tmp_path / name
    dump.write_bytes(content)
    status = main(["snapshot", "build", str(dump), "-o", str(tmp_path / "s.sqlite3"), *extra])
    return status, str(dump)


@pytest.mark.parametrize(
    ("name", "content", "says"),
    [
        ("dblp.xml", b'<?xml version="1.0"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n'
         b'<article key="journals/x/Y20"><title>T</title></article>\n</dblp>\n',
         "DBLP's dump needs its DTD"),
        ("empty.jsonl", b"", "no record read (0 lines skipped"),
        ("blank.jsonl", b"\n\n   \n", "no record read"),
        ("other.jsonl", b'{"name": "a person"}\n{"name": "another"}\n',
         "line 1: not a Crossref, OpenAlex, arXiv or normalized work"),
        ("list.jsonl", b"[1, 2, 3]\n", "line 1: JSON, but not an object"),
        ("half.jsonl", (WORKS + "not json\n" * 10).encode(),
         "10 of 50 lines (20%) could not be read, more than 5%"),
    ],
)  # fmt: skip
def test_what_cannot_be_read_stops_the_build_and_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: bytes, says: str
) -> None:
    status, dump = _build(tmp_path, name, content, "--complete")
    err = capsys.readouterr().err
    assert status == 2
    assert f"{dump}: " in err and says in err
    assert "snapshot build reads JSON lines of Crossref works" in err or "its DTD" in err
    assert not (tmp_path / "s.sqlite3").exists()
    assert not list(tmp_path.glob(".*.partial"))


def test_a_truncated_gzip_dump_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, dump = _build(tmp_path, "part.jsonl.gz", gzip.compress(WORKS.encode())[:-30])
    assert status == 2
    assert f"{dump}: cannot be read as JSON lines" in capsys.readouterr().err


def test_an_xml_dump_with_no_work_in_it_gives_no_snapshot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "dblp.dtd").write_bytes((DBLP_XML / "dblp.dtd").read_bytes())
    dump = tmp_path / "dblp.xml"
    dump.write_text('<?xml version="1.0"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n</dblp>\n')
    status = main(["snapshot", "build", str(dump), "-o", str(tmp_path / "s.sqlite3"), "--complete"])
    assert status == 2
    assert f"{dump}: no record read" in capsys.readouterr().err


def test_the_share_of_damaged_lines_may_be_raised_on_purpose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = (WORKS + "not json\n" * 10).encode()
    status, dump = _build(tmp_path, "half.jsonl", content, "--max-skipped", "0.25")
    err = capsys.readouterr().err
    assert status == 0
    assert "40 records imported (crossref 40), 10 lines skipped" in err
    assert f"citecheck: {dump}: 10 of 50 lines skipped: line 41: not JSON (not json)" in err
    assert main(["snapshot", "build", dump, "-o", str(tmp_path / "t"), "--max-skipped", "2"]) == 2


def test_works_without_a_title_are_left_out_not_counted_as_damage(tmp_path: Path) -> None:
    untitled = "\n".join(
        json.dumps({"DOI": f"10.5555/fig.{n}", "type": "component", "title": []}) for n in range(30)
    )
    dump = tmp_path / "crossref.jsonl"
    dump.write_text(WORKS + untitled + "\n")
    built = build_snapshot([dump], tmp_path / "s.sqlite3")
    assert (built.imported, built.skipped, built.files[0].untitled) == (40, 0, 30)


def test_one_bad_file_among_good_ones_is_named_alone(tmp_path: Path) -> None:
    good, bad = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    good.write_text(WORKS)
    bad.write_text("<html>rate limited</html>\n")
    with pytest.raises(InputError) as raised:
        build_snapshot([good, bad], tmp_path / "s.sqlite3")
    lines = str(raised.value).splitlines()
    assert lines[0].startswith(f"{bad}: no record read")
    assert not any(str(good) in line for line in lines)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(
        st.one_of(
            st.integers(0, 500).map(_work),
            st.text(max_size=40),
            st.binary(max_size=40).map(lambda b: b.decode("latin-1")),
        ),
        max_size=30,
    )
)
def test_any_dump_is_imported_or_refused_never_half_built(
    tmp_path_factory: pytest.TempPathFactory, lines: list[str]
) -> None:
    folder = tmp_path_factory.mktemp("dump")
    dump = folder / "d.jsonl"
    dump.write_text("\n".join(line.replace("\n", " ") for line in lines) + "\n", encoding="utf-8")
    target = folder / "s.sqlite3"
    try:
        built = build_snapshot([dump], target, complete=True)
    except InputError as exc:
        assert str(dump) in str(exc) or "no record imported" in str(exc)
        assert not target.exists()
        return
    assert built.imported > 0 and target.exists()
    assert built.skipped <= 0.05 * built.files[0].lines


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("{", "not JSON"),
        ('"a string"', "JSON, but not an object"),
        ('{"source": "crossref", "title": "T", "year": "not a year"}', "fields of the wrong kind"),
        ('{"id": "https://openalex.org/W1", "authorships": 5}', "cannot be read"),
        ('{"DOI": "10.1/x", "issued": 5}', "cannot be read"),
        ('{"whatever": 1}', "not a Crossref, OpenAlex, arXiv or normalized work"),
    ],
)
def test_each_unreadable_line_says_why(line: str, why: str) -> None:
    said = read_line(line)
    assert isinstance(said, str) and why in said


# --- What a complete snapshot may accuse ------------------------------------------------------


def _reference(doi: str = "", venue: str = "", arxiv_id: str = "", pmid: str = "") -> Reference:
    return Reference(
        "k", "article", SourceLocation("refs.bib", 1), title="A Made Up Title", doi=doi,
        venue=venue, arxiv_id=arxiv_id, pmid=pmid,
    )  # fmt: skip


def test_a_complete_snapshot_covers_only_the_kinds_of_work_it_holds(tmp_path: Path) -> None:
    dump = tmp_path / "d.jsonl"
    dump.write_text(WORKS + _work(900, "Proceedings of NeurIPS", "10.1609") + "\n")
    build_snapshot([dump], tmp_path / "s.sqlite3", complete=True)
    snapshot = Snapshot(tmp_path / "s.sqlite3")
    try:
        assert snapshot.covers(_reference(doi="10.5555/absent.1"))
        assert not snapshot.covers(_reference(doi="10.1016/j.cell.2020.01.001"))
        assert snapshot.covers(_reference(venue="journal of tests"))
        assert not snapshot.covers(_reference(venue="The Lancet"))
        assert not snapshot.covers(_reference())  # no venue: nothing to judge by
        assert not snapshot.covers(_reference(arxiv_id="2101.00001"))  # holds no arXiv work
        assert not snapshot.covers(_reference(pmid="31234567"))
    finally:
        snapshot.close()


def test_offline_no_accusation_of_a_kind_the_snapshot_does_not_hold(tmp_path: Path) -> None:
    dump = tmp_path / "d.jsonl"
    dump.write_text(WORKS)
    build_snapshot([dump], tmp_path / "s.sqlite3", complete=True)
    bib = (
        "@article{held, title = {Fabricated Inquiry Into Quantum Gardening}, author = {Doe, J.},"
        " journal = {Journal of Tests}, year = 2019}\n"
        "@article{recent, title = {Fabricated Inquiry Into Quantum Gardening}, author = {Doe, J.},"
        " journal = {Journal of Tests}, year = 2020}\n"
        "@article{lancet, title = {A Trial of Something}, author = {Roe, R.},"
        " journal = {The Lancet}, year = 2019}\n"
        "@article{cell, title = {Cells}, author = {Poe, P.}, journal = {Cell}, year = 2020,"
        " doi = {10.1016/j.cell.2020.01.001}}\n"
    )
    results = verified_offline(bib, tmp_path / "s.sqlite3", tmp_path / "c.sqlite3")
    verdicts = {k: r.verdict for k, r in results.items()}
    assert any(
        "declared complete, but not for works of this kind" in n for n in results["lancet"].notes
    )
    assert verdicts == {
        "held": ReferenceVerdict.NOT_FOUND,  # its venue's works are all there; it is not
        # Of the copy's last year: the dump may have been taken before the work appeared.
        "recent": ReferenceVerdict.UNVERIFIABLE,
        "lancet": ReferenceVerdict.UNVERIFIABLE,
        "cell": ReferenceVerdict.UNVERIFIABLE,
    }


def test_snapshot_info_says_what_it_holds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dump = tmp_path / "d.jsonl"
    dump.write_text(WORKS)
    assert (
        main(["snapshot", "build", str(dump), "-o", str(tmp_path / "s.sqlite3"), "--complete"]) == 0
    )
    capsys.readouterr()
    assert main(["snapshot", "info", str(tmp_path / "s.sqlite3")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{tmp_path / 's.sqlite3'}: 40 records, built 20")
    assert out[1].startswith("declared complete: yes")
    assert "  crossref: 40 records" in out
    assert "  works of 1 DOI registrants, in 1 venues" in out
    assert f"  from {dump}: 40 records, 0 without a title, 0 skipped" in out
    assert any(line.startswith("  works up to 2020: a work of 2020 or later") for line in out)


def test_info_on_what_is_no_snapshot_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "x.sqlite3").write_text("not a database")
    assert main(["snapshot", "info", str(tmp_path / "x.sqlite3")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
