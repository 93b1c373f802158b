"""Entries alike but for their keys — one work's BibTeX copied into many papers, as DBLP exports
it — are judged once in a run, and each gets the verdict under its own key."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from citecore.model import Person, Reference, ReferenceVerdict, SourceLocation
from citecore.registries.settings import ClientSettings
from citecore.registries.snapshot_build import build_snapshot
from citecore.verify import resolve
from citecore.verify.registry import RegistryVerifier


def _entry(key: str, line: int, year: int = 2017) -> Reference:
    return Reference(
        key, "inproceedings", SourceLocation("refs.bib", line),
        title="Attention is All you Need", authors=(Person("Vaswani", "Ashish"),), year=year,
        venue="NeurIPS",
    )  # fmt: skip


def test_entries_alike_but_for_their_keys_are_judged_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dump = tmp_path / "dblp.jsonl"
    dump.write_text(
        '{"source": "dblp", "title": "Attention is All you Need", "year": 2017, '
        '"authors": [{"family": "Vaswani", "given": "Ashish"}], "venue": "NeurIPS"}\n'
    )
    build_snapshot([dump], tmp_path / "dblp.sqlite3", complete=True)
    judged: list[str] = []
    verify_reference = resolve.verify_reference

    def counted(reference: Reference, *args: object) -> object:
        judged.append(reference.key)
        return verify_reference(reference, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(resolve, "verify_reference", counted)
    settings = ClientSettings.from_environment({}, offline=True)
    snapshot = tmp_path / "dblp.sqlite3"
    verifier = RegistryVerifier(settings, tmp_path / "cache.sqlite3", snapshot_path=snapshot)
    cited = [_entry("vaswani2017", 1), _entry("DBLP:conf/nips/VaswaniSPUJGKP17", 9),
             _entry("late", 20, year=2013)]  # fmt: skip
    results = verifier.verify(cited)
    assert len(judged) == 2  # the two alike once, the third (another year) alone
    assert set(results) == {"vaswani2017", "DBLP:conf/nips/VaswaniSPUJGKP17", "late"}
    first, second = results["vaswani2017"], results["DBLP:conf/nips/VaswaniSPUJGKP17"]
    assert first.verdict is ReferenceVerdict.VERIFIED
    assert second == replace(first, key="DBLP:conf/nips/VaswaniSPUJGKP17")
    assert results["late"].verdict is ReferenceVerdict.MISMATCH
