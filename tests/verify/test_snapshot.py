"""Local snapshots: built from real recorded records, asked before any registry."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from citecore.bib.bibtex import parse_bibtex
from citecore.cli import main
from citecore.errors import InputError
from citecore.model import ReferenceVerdict, Source
from citecore.registries.registry import SourcePolicy
from citecore.registries.settings import ClientSettings
from citecore.registries.snapshot import Snapshot
from citecore.registries.snapshot_build import build_snapshot
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator, recorded
from tests.world import World


@pytest.fixture
def snapshot(tmp_path: Path) -> Path:
    """A snapshot of a Crossref record and an OpenAlex record (real bodies, one per line)."""
    crossref_line = json.dumps(
        json.loads(recorded("crossref/works_10.7554_elife.01567.json").read_text())["message"]
    )
    openalex_line = json.dumps(
        json.loads(recorded("openalex/works_doi_10.1073_pnas.1414271111.json").read_text())
    )
    dump = tmp_path / "dump.jsonl"
    # A later work: a complete copy speaks only for the years before its last.
    later = json.dumps(
        {"source": "crossref", "title": "A Later Work", "doi": "10.1000/l", "year": 2016}
    )
    dump.write_text(f"{crossref_line}\n{openalex_line}\n{later}\nnot json\n")
    target = tmp_path / "snapshot.sqlite3"
    built = build_snapshot([dump], target, max_skipped=0.5)  # one damaged line of four
    assert (built.imported, built.skipped) == (3, 1)
    return target


def test_lookups(snapshot: Path) -> None:
    local = Snapshot(snapshot)
    assert local.by_doi("10.7554/ELIFE.01567")[0].venue == "eLife"
    found = local.search("hypoxia and lysyl oxidase-induced collagen cross-linking")
    assert found and found[0].doi == "10.1073/pnas.1414271111"
    local.close()


def test_verification_from_the_snapshot_needs_no_network(
    snapshot: Path, emulator: RegistryEmulator, tmp_path: Path
) -> None:
    refs = parse_bibtex(
        "@article{a, title = {Automated quantitative histology reveals vascular morphodynamics "
        "during {Arabidopsis} hypocotyl secondary growth}, author = {Sankar, Martial and others}, "
        "year = 2014, doi = {10.7554/elife.01567}}\n"
        "@article{b, title = {Developing functional musculoskeletal tissues through hypoxia and "
        "lysyl oxidase-induced collagen cross-linking}, author = {Makris, Eleftherios and others}, "
        "journal = {Proceedings of the National Academy of Sciences}, year = 2014}\n",
        "refs.bib",
    ).references
    settings = ClientSettings.from_environment(emulator.environment())
    verifier = RegistryVerifier(settings, tmp_path / "c.sqlite3", snapshot_path=snapshot)
    results = verifier.verify(list(refs))
    assert {k: (r.verdict, r.sources) for k, r in results.items()} == {
        "a": (ReferenceVerdict.VERIFIED, ("snapshot",)),
        "b": (ReferenceVerdict.VERIFIED, ("snapshot",)),
    }
    assert emulator.requests() == 0


def test_snapshot_command_and_bad_snapshot(tmp_path: Path, snapshot: Path) -> None:
    dump = tmp_path / "again.jsonl"
    dump.write_text(
        recorded("crossref/works_10.7554_elife.01567.json").read_text().replace("\n", " ")
    )
    assert main(["snapshot", "build", str(dump), "-o", str(tmp_path / "s2.sqlite3")]) == 0
    (tmp_path / "junk.sqlite3").write_text("junk")
    with pytest.raises(InputError, match="not a citecheck snapshot"):
        Snapshot(tmp_path / "junk.sqlite3")


_ABSENT = (
    "@inproceedings{made, title = {Citation Graph Transformers for Verifying Scholarly Claims}, "
    "author = {Holt, Maren}, booktitle = {NeurIPS}, year = 2023}\n"
    "@article{wrongdoi, title = {Automated quantitative histology reveals vascular "
    "morphodynamics during {Arabidopsis} hypocotyl secondary growth}, "
    "author = {Sankar, Martial and others}, year = 2014, doi = {10.7554/elife.99999}}\n"
    "@article{madeelife, title = {Root Hair Clocks Keep Time Without Light}, "
    "author = {Holt, Maren}, journal = {eLife}, year = 2013}\n"
)


def _complete(snapshot: Path, tmp_path: Path) -> Path:
    """The same records, declared a complete copy of the registries."""
    dump = tmp_path / "dump.jsonl"
    target = tmp_path / "complete.sqlite3"
    build = ["snapshot", "build", "--complete", str(dump), "-o", str(target)]
    assert main([*build, "--max-skipped", "0.5"]) == 0
    return target


@pytest.fixture
def world_registries() -> Iterator[RegistryEmulator]:
    """Registries answering from the world of real works (where nothing made up is found)."""
    with RegistryEmulator(strict=True, world=World.load()) as emulator:
        yield emulator


def _settings(emulator: RegistryEmulator, offline: bool = False) -> ClientSettings:
    fast = {source: SourcePolicy(500.0, 8) for source in Source}
    settings = ClientSettings.from_environment(emulator.environment(), policies=fast)
    return replace(settings, offline=offline)


def test_offline_a_complete_snapshot_is_the_only_source(
    snapshot: Path, world_registries: RegistryEmulator, tmp_path: Path
) -> None:
    emulator = world_registries
    refs = list(parse_bibtex(_ABSENT, "refs.bib").references)
    settings = _settings(emulator, offline=True)
    complete = _complete(snapshot, tmp_path)
    verifier = RegistryVerifier(settings, tmp_path / "c.sqlite3", snapshot_path=complete)
    results = verifier.verify(refs)
    # A title cited in a venue the snapshot holds works of: the snapshot speaks for it.
    assert results["madeelife"].verdict is ReferenceVerdict.NOT_FOUND
    assert results["madeelife"].sources == ("snapshot",)
    # A NeurIPS paper: the snapshot holds nothing of NeurIPS and cannot deny it.
    assert results["made"].verdict is ReferenceVerdict.UNVERIFIABLE
    # The title is in the snapshot, the DOI is not: the DOI is the mismatch, and the record
    # the title names is suggested.
    wrong = results["wrongdoi"]
    assert wrong.verdict is ReferenceVerdict.MISMATCH
    assert [(m.field, m.given) for m in wrong.mismatches] == [("doi", "10.7554/elife.99999")]
    assert "not in complete.sqlite3" in wrong.mismatches[0].reason
    assert emulator.requests() == 0 and verifier.outage is None
    # A snapshot without the declaration only adds evidence: what it lacks stays unverifiable.
    partial = RegistryVerifier(settings, tmp_path / "c.sqlite3", snapshot_path=snapshot)
    assert partial.verify(refs)["madeelife"].verdict is ReferenceVerdict.UNVERIFIABLE
    # Closed-world verdicts never reach the cache an online run shares.
    online = RegistryVerifier(_settings(emulator), tmp_path / "c.sqlite3")
    assert online.verify(refs)["made"].verdict is ReferenceVerdict.NOT_FOUND
    assert emulator.requests() > 0


def test_online_a_complete_snapshot_still_leaves_misses_to_the_registries(
    snapshot: Path, world_registries: RegistryEmulator, tmp_path: Path
) -> None:
    emulator = world_registries
    refs = list(parse_bibtex(_ABSENT, "refs.bib").references)
    settings = _settings(emulator)
    verifier = RegistryVerifier(
        settings, tmp_path / "c.sqlite3", snapshot_path=_complete(snapshot, tmp_path)
    )
    result = verifier.verify(refs)["made"]
    assert set(result.sources) - {"snapshot"} and emulator.requests() > 0


def test_gzipped_dumps_and_rebuilds(tmp_path: Path, snapshot: Path) -> None:
    dump = tmp_path / "dump.jsonl"
    packed = tmp_path / "dump.jsonl.gz"
    packed.write_bytes(gzip.compress(dump.read_bytes()))
    target = tmp_path / "again.sqlite3"
    assert build_snapshot([packed], target, max_skipped=0.5).imported == 3
    # Replaced, not appended to.
    assert build_snapshot([packed], target, max_skipped=0.5).imported == 3
    assert len(Snapshot(target).by_doi("10.7554/elife.01567")) == 1
    assert not Snapshot(target).complete
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(gzip.compress(dump.read_bytes())[:40])
    with pytest.raises(InputError, match=r"broken\.jsonl\.gz: cannot be read"):
        build_snapshot([broken], tmp_path / "broken.sqlite3")
    assert not (tmp_path / "broken.sqlite3").exists()
