"""What a screening run has finished, kept in its output folder so that a killed run resumes:
the verdicts judged so far (one JSON line per reference content, appended as batches finish)
and the submissions whose reports are written (one line each, with the stamp of the input they
were written from). Lines cut short by a kill are skipped on reading.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from citecore.model import ReferenceResult
from citecore.screen.submissions import Submission
from citecore.serialize import record_from_data, to_data

_FOLDER = ".citecheck-screen"


def submission_stamp(submission: Submission) -> str:
    """What a submission's report depends on in its input: its file's size and modification
    time (and every file's of a project folder's, for LaTeX)."""
    files = [submission.path]
    if submission.path.parent.is_dir() and submission.path.suffix.lower() == ".tex":
        files = sorted(p for p in submission.path.parent.rglob("*") if p.is_file())
    parts = []
    for path in files:
        try:
            status = path.stat()
        except OSError:
            continue
        parts.append(f"{path.name}:{status.st_size}:{status.st_mtime_ns}")
    return "|".join(parts)


class ScreenState:
    """The resume state of the run writing into `out`."""

    def __init__(self, out: Path, resume: bool) -> None:
        self.folder = out / _FOLDER
        if not resume and self.folder.exists():
            shutil.rmtree(self.folder)  # a fresh run starts from nothing
        self.folder.mkdir(parents=True, exist_ok=True)
        self._verdicts = self.folder / "verdicts.jsonl"
        self._reports = self.folder / "reports.jsonl"

    def verdicts(self) -> dict[str, ReferenceResult]:
        """The verdicts saved so far, by reference content key."""
        found = {}
        for line in _lines(self._verdicts):
            try:
                found[line["content"]] = record_from_data(ReferenceResult, line["result"])
            except (KeyError, TypeError, ValueError):
                continue
        return found

    def save_verdicts(self, verdicts: dict[str, ReferenceResult]) -> None:
        """Append verdicts (a finished batch)."""
        with self._verdicts.open("a", encoding="utf-8") as stream:
            for content, result in verdicts.items():
                stream.write(json.dumps({"content": content, "result": to_data(result)}) + "\n")

    def reported(self) -> dict[str, tuple[str, dict[str, Any]]]:
        """Per submission id whose report is written: the stamp it was written from and its
        row of the venue table."""
        found = {}
        for line in _lines(self._reports):
            if isinstance(line.get("id"), str) and isinstance(line.get("row"), dict):
                found[line["id"]] = (str(line.get("stamp", "")), line["row"])
        return found

    def save_report(self, submission_id: str, stamp: str, row: dict[str, Any]) -> None:
        """Record that a submission's report is written (after writing it)."""
        with self._reports.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps({"id": submission_id, "stamp": stamp, "row": row}) + "\n")


def _lines(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    found = []
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            continue  # the line a kill cut short
        if isinstance(value, dict):
            found.append(value)
    return found
