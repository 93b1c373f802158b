"""A conference paper in DBLP's dump names its venue by an acronym (`<booktitle>ISSRE`) and its
proceedings volume by key (`<crossref>conf/issre/2019`); the volume is a record of its own,
before or after the paper. The snapshot gives the paper the volume's title as a venue name, so
that a reference citing the conference written out is compared with the name DBLP holds, and a
paper whose volume is missing is never accused for an acronym nobody can check."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from citecore.model import ReferenceVerdict
from citecore.registries.snapshot import Snapshot
from citecore.registries.snapshot_build import build_snapshot
from tests.offline import verified_offline
from tests.paths import SHARED

VOLUME = (
    "30th IEEE International Symposium on Software Reliability Engineering, ISSRE 2019, "
    "Berlin, Germany, October 28-31, 2019"
)

QRS = (
    "19th IEEE International Conference on Software Quality, Reliability and Security, QRS 2019, "
    "Sofia, Bulgaria, July 22-26, 2019"
)


def _paper(key: str, title: str, booktitle: str, volume: str) -> str:
    crossref = f"<crossref>{volume}</crossref>\n" if volume else ""
    return (
        f'<inproceedings mdate="2020-01-09" key="{key}">\n<author>Ann Tester</author>\n'
        f"<author>Bo Checker 0002</author>\n<title>{title}.</title>\n<pages>1-12</pages>\n"
        f"<year>2019</year>\n<booktitle>{booktitle}</booktitle>\n{crossref}"
        f"<url>db/conf/x/{key}.html</url>\n</inproceedings>\n"
    )


def _dump(folder: Path) -> Path:
    """One volume with a paper before it and one after, a paper whose volume the dump lacks,
    and a journal article."""
    shutil.copy(SHARED / "fixtures" / "dblp" / "dblp.dtd", folder / "dblp.dtd")
    dump = folder / "dblp.xml"
    dump.write_text(
        '<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE dblp SYSTEM "dblp.dtd">\n'
        "<dblp>\n"
        + _paper("conf/issre/A19", "Flaky Assertions in Regression Suites", "ISSRE",
                 "conf/issre/2019")
        + '<proceedings mdate="2020-01-09" key="conf/issre/2019">\n'
        "<editor>Katinka Editor</editor>\n"
        f"<title>{VOLUME}</title>\n<booktitle>ISSRE</booktitle>\n<publisher>IEEE</publisher>\n"
        "<year>2019</year>\n</proceedings>\n"
        + _paper("conf/issre/B19", "Mutation Scores under Test Reordering", "ISSRE",
                 "conf/issre/2019")
        + _paper("conf/qsic/C19", "Quality Gates for Continuous Delivery Pipelines", "QSIC",
                 "conf/qsic/2019")
        + _paper("conf/qrs/E19", "Fault Localisation with Spectrum Ensembles", "QRS",
                 "conf/qrs/2019")
        + '<proceedings mdate="2020-01-09" key="conf/qrs/2019">\n<editor>Vera Editor</editor>\n'
        f"<title>{QRS}</title>\n<booktitle>QRS</booktitle>\n<year>2019</year>\n</proceedings>\n"
        + '<article mdate="2020-01-09" key="journals/jss/D19">\n<author>Ann Tester</author>\n'
        "<title>Test Oracles from Production Logs.</title>\n<year>2019</year>\n"
        "<journal>J. Syst. Softw.</journal>\n</article>\n</dblp>\n",
        encoding="latin-1",
    )  # fmt: skip
    return dump


def test_a_paper_is_given_its_volumes_title_wherever_the_volume_is(tmp_path: Path) -> None:
    build_snapshot([_dump(tmp_path)], tmp_path / "dblp.sqlite3")
    snapshot = Snapshot(tmp_path / "dblp.sqlite3")
    try:
        names = {
            title: snapshot.search(title)[0].venue_names
            for title in (
                "Flaky Assertions in Regression Suites",  # before its volume
                "Mutation Scores under Test Reordering",  # after it
                "Quality Gates for Continuous Delivery Pipelines",  # its volume not in the dump
                "Test Oracles from Production Logs",  # no volume
            )
        }
        found = snapshot.search("Flaky Assertions in Regression Suites")[0]
        assert found.venue == "ISSRE"  # DBLP's booktitle stays the venue
    finally:
        snapshot.close()
    assert list(names.values()) == [(VOLUME,), (VOLUME,), (), ()]


def test_a_conference_written_out_is_not_accused_for_dblps_acronym(tmp_path: Path) -> None:
    build_snapshot([_dump(tmp_path)], tmp_path / "dblp.sqlite3", complete=True)
    bib = (
        "@inproceedings{volume, title = {Flaky Assertions in Regression Suites}, author = "
        "{Tester, Ann and Checker, Bo}, booktitle = {Proc. of the IEEE Int. Symp. on Software "
        "Reliability Eng.}, year = 2019}\n"
        "@inproceedings{spelled, title = {Mutation Scores under Test Reordering}, author = "
        "{Tester, Ann and Checker, Bo}, booktitle = {International Symposium on Software "
        "Reliability Engineering}, year = 2019}\n"
        "@inproceedings{unchecked, title = {Quality Gates for Continuous Delivery Pipelines}, "
        "author = {Tester, Ann and Checker, Bo}, booktitle = {Proceedings of the 19th "
        "International Conference on Quality Software}, year = 2019}\n"
        "@article{journal, title = {Mutation Scores under Test Reordering}, author = {Tester, "
        "Ann and Checker, Bo}, journal = {Journal of Systems and Software}, year = 2019}\n"
    )
    results = verified_offline(bib, tmp_path / "dblp.sqlite3", tmp_path / "c.sqlite3")
    assert results["volume"].verdict is ReferenceVerdict.VERIFIED
    assert results["spelled"].verdict is ReferenceVerdict.VERIFIED
    unchecked = results["unchecked"]
    assert unchecked.verdict is ReferenceVerdict.VERIFIED
    assert any("QSIC" in note and "cannot match" in note for note in unchecked.notes)
    # A journal cited for a conference paper is a venue of another kind: still a mismatch.
    assert results["journal"].verdict is ReferenceVerdict.MISMATCH


def test_a_snapshot_built_before_volumes_were_kept_is_still_read(tmp_path: Path) -> None:
    target = tmp_path / "dblp.sqlite3"
    build_snapshot([_dump(tmp_path)], target)
    with sqlite3.connect(target) as connection:  # the schema of the builds before
        connection.execute("ALTER TABLE works DROP COLUMN volume")
        connection.execute("DROP TABLE volumes")
    connection.close()
    snapshot = Snapshot(target)
    try:
        found = snapshot.search("Flaky Assertions in Regression Suites")[0]
    finally:
        snapshot.close()
    assert (found.venue, found.venue_names) == ("ISSRE", ())


def test_a_complete_copy_speaks_for_a_conference_under_its_volumes_name(tmp_path: Path) -> None:
    # DBLP's venue for the volume's papers is "QRS"; its volume names the conference in full,
    # so a title cited there that the copy lacks does not exist; a conference the copy holds
    # no volume or paper of is not the copy's to deny.
    build_snapshot([_dump(tmp_path)], tmp_path / "dblp.sqlite3", complete=True)
    bib = (
        "@inproceedings{real, title = {Fault Localisation with Spectrum Ensembles}, author = "
        "{Tester, Ann and Checker, Bo}, booktitle = {International Conference on Software "
        "Quality, Reliability and Security}, year = 2019}\n"
        "@inproceedings{made, title = {Adaptive Oracles for Probabilistic Programs}, author = "
        "{Holt, Maren}, booktitle = {19th IEEE International Conference on Software Quality, "
        "Reliability and Security}, year = 2018}\n"
        "@inproceedings{elsewhere, title = {Adaptive Oracles for Probabilistic Programs}, "
        "author = {Holt, Maren}, booktitle = {International Conference on Widget Engineering}, "
        "year = 2018}\n"
    )
    results = verified_offline(bib, tmp_path / "dblp.sqlite3", tmp_path / "c.sqlite3")
    assert results["real"].verdict is ReferenceVerdict.VERIFIED
    assert results["made"].verdict is ReferenceVerdict.NOT_FOUND
    assert results["elsewhere"].verdict is ReferenceVerdict.UNVERIFIABLE
