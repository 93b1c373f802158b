"""A resumed run survives SIGKILL: a bounded run of tests/kill_resume.py (bench/kill_resume.py
kills 20 times)."""

from __future__ import annotations

from pathlib import Path

from tests.kill_resume import kill_and_resume


def test_kills_leave_sound_files_and_the_same_verdicts(tmp_path: Path) -> None:
    report = kill_and_resume(tmp_path, references=80, kills=3, seed=3)
    assert report.unreadable_resume_files == []
    assert report.damaged_caches == []
    assert report.differing_verdicts == []
