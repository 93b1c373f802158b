"""The submissions of a screening run: what each one is, found from folders or a manifest.

A submission is one PDF, one LaTeX project (a folder with its main file, or the main `.tex`
itself), one Markdown/Quarto/R Markdown document, or one bare bibliography (.bib, CSL JSON/YAML)
or plain-text reference list. A folder given on the command line holds one submission per entry;
a manifest lists them one per line (`path` or `id<TAB>path`, relative to the manifest).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from citecore.errors import InputError
from citecore.extract.latex_root import is_main_file
from citecore.pandoc.inputs import MARKDOWN_SUFFIXES

_BIBLIOGRAPHY_SUFFIXES = {".bib", ".bibtex", ".json", ".yaml", ".yml"}
_LIST_SUFFIXES = {".txt", ".text"}
# A submission is a paper or a project, never a whole disk: a folder is searched this far.
_MAX_FILES = 5000


class SubmissionKind(Enum):
    """How a submission's references are read."""

    PDF = "pdf"  # the reference section of the paper
    LATEX = "latex"  # the bibliographies the project cites from
    MARKDOWN = "markdown"  # the bibliographies the document cites from
    BIBLIOGRAPHY = "bibliography"  # every entry of a .bib or CSL file, or a text list
    NOTHING = "nothing"  # a submission folder holding nothing to read: a row saying so


@dataclass(frozen=True, slots=True)
class Submission:
    """One submission: its id in the venue's reports, the file read, and how."""

    id: str
    path: Path
    kind: SubmissionKind


def _kind_of_file(path: Path) -> SubmissionKind | None:
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        return SubmissionKind.PDF
    if suffix == ".tex":
        return SubmissionKind.LATEX if is_main_file(path) else None
    if suffix in _BIBLIOGRAPHY_SUFFIXES | _LIST_SUFFIXES:
        return SubmissionKind.BIBLIOGRAPHY
    if suffix in MARKDOWN_SUFFIXES:
        return SubmissionKind.MARKDOWN
    return None


def _in_folder(folder: Path) -> tuple[Path, SubmissionKind] | None:
    """The file a submission folder is read from: its LaTeX main file, else its one Markdown
    document, else its PDF, else its bibliography — the first kind present, by name."""
    files = []
    try:
        for path in folder.rglob("*"):
            if path.is_file():
                files.append(path)
            if len(files) > _MAX_FILES:
                raise InputError(f"{folder}: more than {_MAX_FILES} files: not one submission")
    except OSError as exc:
        raise InputError(f"{folder}: cannot be read: {exc.strerror or exc}") from exc
    files.sort()
    for kind in (
        SubmissionKind.LATEX,
        SubmissionKind.MARKDOWN,
        SubmissionKind.PDF,
        SubmissionKind.BIBLIOGRAPHY,
    ):
        chosen = [p for p in files if _kind_of_file(p) is kind]
        if chosen:
            # The shallowest one: a project's main file sits above its chapters.
            return min(chosen, key=lambda p: (len(p.relative_to(folder).parts), p.name)), kind
    return None


def submission_at(path: Path, id_: str | None = None) -> Submission:
    """The submission a file or folder holds; raises InputError naming it when it holds none."""
    if path.is_dir():
        found = _in_folder(path)
        if found is None:
            raise InputError(f"{path}: no PDF, LaTeX main file, Markdown document or bibliography")
        return Submission(id_ or path.name, found[0], found[1])
    kind = _kind_of_file(path)
    if kind is None:
        raise InputError(f"{path}: not a PDF, LaTeX main file, Markdown document or bibliography")
    return Submission(id_ or path.stem, path, kind)


def read_manifest(manifest: Path) -> list[Submission]:
    """The submissions a manifest lists, in order: one per line, `path` or `id<TAB>path`,
    paths relative to the manifest; blank lines and `#` comments skipped."""
    try:
        text = manifest.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{manifest}: cannot read the manifest: {exc}") from exc
    submissions = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        id_, _, where = line.rpartition("\t")
        try:
            path = (manifest.parent / where.strip()).resolve()
            exists = path.exists()
        except (OSError, ValueError) as exc:  # a NUL byte, a name too long
            raise InputError(f"{manifest}:{number}: not a path: {exc}") from exc
        if not exists:
            raise InputError(f"{manifest}:{number}: {where.strip()}: no such file or folder")
        try:
            submissions.append(submission_at(path, id_.strip() or None))
        except InputError as exc:
            raise InputError(f"{manifest}:{number}: {exc}") from exc
    return submissions


def find_submissions(paths: list[Path], manifest: Path | None = None) -> list[Submission]:
    """Every submission of the run: each entry of each folder given (a file, or a folder
    holding one submission), each file given, then the manifest's; ids made unique (a second
    `paper` becomes `paper-2`). Raises InputError for a path that does not exist or holds
    nothing to read."""
    found: list[Submission] = []
    for path in paths:
        if not path.exists():
            raise InputError(f"{path}: no such file or folder")
        if path.is_dir():
            found.extend(
                _entry_submission(entry)
                for entry in sorted(path.iterdir())
                if not entry.name.startswith(".") and _readable(entry)
            )
        else:
            found.append(submission_at(path))
    if manifest is not None:
        found.extend(read_manifest(manifest))
    return _unique_ids(found)


def _entry_submission(entry: Path) -> Submission:
    """The submission an entry of a venue's folder is; an empty folder is one too (it is the
    venue's business to hear of it), of kind NOTHING."""
    if entry.is_dir() and _in_folder(entry) is None:
        return Submission(entry.name, entry, SubmissionKind.NOTHING)
    return submission_at(entry)


def _readable(entry: Path) -> bool:
    return entry.is_dir() or _kind_of_file(entry) is not None


def _unique_ids(submissions: list[Submission]) -> list[Submission]:
    seen: dict[str, int] = {}
    unique = []
    for submission in submissions:
        base = re.sub(r"[^\w.-]+", "_", submission.id) or "submission"
        seen[base] = seen.get(base, 0) + 1
        name = base if seen[base] == 1 else f"{base}-{seen[base]}"
        unique.append(Submission(name, submission.path, submission.kind))
    return unique
