"""Faults cost verdicts, never change them: a bounded run of tests/chaos.py (bench/chaos.py
runs 1,000 references)."""

from __future__ import annotations

from tests.chaos import chaos_run
from tests.hallmark import hallmark_references


def test_injected_faults_never_accuse_nor_crash() -> None:
    references = hallmark_references(60)
    report = chaos_run(references, share=0.3, seed=7)
    assert sum(report.injected.values()) > 20  # the faults really happened
    assert report.crashes == []
    assert report.fault_not_found == []
    assert report.changed == []
    assert report.abstained_unflagged == []
    assert report.unchanged + report.abstained == len(references)
