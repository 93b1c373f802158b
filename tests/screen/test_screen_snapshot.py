"""A sharded snapshot built on a local Dask cluster answers as one built in one file, and a
venue screened offline against it gets the verdicts its labels call for."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.registries.snapshot import Snapshot
from citecore.screen.shards import deal_into_shards
from tests.synthetic_venue import record, write_dumps, write_submissions

_ENTRY = "import sys; from citecore.cli import main; sys.exit(main())"
_RECORDS = 3000


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(one-file snapshot, sharded snapshot) of the same six partitions, both complete."""
    folder = tmp_path_factory.mktemp("snapshots")
    dumps = write_dumps(folder / "dumps", _RECORDS, partitions=6)
    single, sharded = folder / "single.sqlite3", folder / "sharded"
    names = [str(d) for d in dumps]
    assert main(["snapshot", "build", *names, "-o", str(single), "--complete"]) == 0
    build = ["snapshot", "build", *names, "-o", str(sharded), "--complete", "--shards", "3"]
    built = subprocess.run(
        [sys.executable, "-c", _ENTRY, *build, "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    assert f"{_RECORDS} records imported" in built.stderr
    return single, sharded


def test_shards_answer_as_one_file(snapshots: tuple[Path, Path]) -> None:
    single, sharded = (Snapshot(p) for p in snapshots)
    try:
        assert sharded.complete and single.complete
        manifest = json.loads((snapshots[1] / "manifest.json").read_text())
        assert len(manifest["shards"]) == 3 and manifest["records"] == _RECORDS
        for number in range(0, _RECORDS, 97):
            wanted = record(number)
            assert sharded.by_doi(str(wanted["doi"])) == single.by_doi(str(wanted["doi"]))
            assert len(sharded.by_doi(str(wanted["doi"]))) == 1
            found = sharded.search(str(wanted["title"]), limit=3)
            assert found and found[0].title == wanted["title"]
            assert found[0] == single.search(str(wanted["title"]), limit=3)[0]
        assert sharded.by_doi("10.5555/none") == []
    finally:
        single.close()
        sharded.close()


def test_an_unfinished_sharded_build_is_no_snapshot(tmp_path: Path) -> None:
    (tmp_path / "shard-0000.sqlite3").write_bytes(b"")
    assert main(["verify", "--doi", "10.1/x", "--snapshot", str(tmp_path)]) == 2


def test_dumps_are_dealt_into_shards_of_equal_weight(tmp_path: Path) -> None:
    sizes = [900, 100, 500, 500, 400, 600]
    dumps = []
    for n, size in enumerate(sizes):
        dump = tmp_path / f"d{n}.jsonl"
        dump.write_bytes(b"x" * size)
        dumps.append(dump)
    groups = deal_into_shards(dumps, 3)
    weights = sorted(sum(p.stat().st_size for p in g) for g in groups)
    assert weights == [1000, 1000, 1000]
    assert sorted(p for g in groups for p in g) == sorted(dumps)
    assert len(deal_into_shards(dumps[:2], 5)) == 2  # never an empty shard


def test_a_venue_screened_against_the_sharded_snapshot(
    snapshots: tuple[Path, Path], tmp_path: Path
) -> None:
    labels = write_submissions(tmp_path / "subs", submissions=12, records=_RECORDS, references=25)
    out = tmp_path / "out"
    screen = ["screen", str(tmp_path / "subs"), "-o", str(out), "--snapshot", str(snapshots[1])]
    run = subprocess.run(
        [sys.executable, "-c", _ENTRY, *screen, "--offline", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    said: dict[str, Counter[str]] = {}
    for report in sorted(out.glob("sub*/report.json")):
        for reference in json.loads(report.read_text())["references"]:
            said.setdefault(labels[reference["key"]], Counter())[reference["verdict"]] += 1
    assert set(said["real"]) == {"verified"}
    assert set(said["fabricated"]) == {"not_found"}
    assert "verified" not in said["corrupted"]
    # One submission again through `verify` on one machine, against the one-file snapshot.
    single = tmp_path / "single.json"
    bib = tmp_path / "subs" / "sub00003.bib"
    verify = ["verify", str(bib), "-o", str(single), "--snapshot", str(snapshots[0])]
    assert main([*verify, "--offline"]) in (0, 1)
    screened = json.loads((out / "sub00003" / "report.json").read_text())["references"]
    alone = json.loads(single.read_text())["references"]
    assert [(r["key"], r["verdict"]) for r in screened] == [(r["key"], r["verdict"]) for r in alone]
