"""Local snapshots: built from real recorded records, asked before any registry."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.bib.bibtex import parse_bibtex
from citecore.cli import main
from citecore.errors import InputError
from citecore.model import ReferenceVerdict
from citecore.registries.settings import ClientSettings
from citecore.registries.snapshot import Snapshot, build_snapshot
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator, recorded


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
    dump.write_text(f"{crossref_line}\n{openalex_line}\nnot json\n")
    target = tmp_path / "snapshot.sqlite3"
    assert build_snapshot([dump], target) == (2, 1)
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
