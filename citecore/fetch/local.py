"""Which file holds the cited work: the entry's `file` field, or `<key>.pdf|.md|.txt` in a
sources folder; and where each came from (the folder's `sources.json` names what `sources
fetch` stored).

`file` fields come in several dialects: a plain path (BibTeX, biblatex), JabRef's
`description:path:type` (several joined by `;`), Zotero's Better BibTeX export (the same shape),
and Mendeley/Paperpile's `:path:pdf`. Relative paths are tried against every bibliography's
folder in turn, since a .bib often lives apart from the files it lists.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from citecore.fetch.manifest import read_manifest
from citecore.fetch.records import Origin
from citecore.files import expand_user, is_file
from citecore.model import Reference, SourceRecord

READABLE_SUFFIXES = (".pdf", ".md", ".txt")


def file_field_paths(value: str) -> list[str]:
    """The paths named by one `file` field value, in order."""
    paths = []
    for part in re.split(r";(?![^{]*\})", value):
        part = part.strip().strip("{}")
        if not part:
            continue
        pieces = re.split(r"(?<!\\):", part)
        if len(pieces) >= 3:  # description:path:type (a Windows drive letter rejoins below)
            path = ":".join(pieces[1:-1])
        elif len(pieces) == 2 and len(pieces[0]) == 1:  # C:\\path
            path = part
        else:
            path = pieces[0] if len(pieces) == 1 else pieces[1] or pieces[0]
        path = path.replace("\\:", ":").replace("\\\\", "\\").strip()
        if path:
            paths.append(path)
    return paths


def stored_name(key: str) -> str:
    """The file stem a key's source is stored under in the sources folder: the key with
    anything unsafe in a file name replaced, never hidden (`sources fetch` writes it,
    `source_files` reads it)."""
    return re.sub(r"[^\w.\-]", "_", key).lstrip(".") or "_"


def source_files(
    reference: Reference, bibliography_dirs: Sequence[Path], sources_dir: Path | None
) -> list[Path]:
    """Every readable source file of a reference: its `file` fields resolved against each
    bibliography folder, then `<key>.pdf|.md|.txt` in the sources folder; and beside each PDF,
    a `.txt` or `.md` of the same name."""
    found: list[Path] = []
    for value in reference.files:
        for name in file_field_paths(value):
            given = expand_user(name)
            candidates = [given] if given.is_absolute() else [d / given for d in bibliography_dirs]
            found.extend(c for c in candidates if is_file(c))
    if sources_dir is not None:
        safe = stored_name(reference.key)
        found.extend(
            sources_dir / f"{stem}{suffix}"
            for stem in dict.fromkeys((reference.key, safe))
            for suffix in READABLE_SUFFIXES
            if is_file(sources_dir / f"{stem}{suffix}")
        )
    # A text written out beside a PDF (an OCR of a scan, say) is read with it.
    found = [
        sibling
        for path in found
        for sibling in (path, *(path.with_suffix(s) for s in (".txt", ".md")))
        if sibling == path or (path.suffix.lower() == ".pdf" and sibling.is_file())
    ]
    return [p for p in dict.fromkeys(found) if p.suffix.lower() in READABLE_SUFFIXES]


def source_records(
    references: Sequence[Reference],
    bibliography_dirs: Sequence[Path],
    sources_dir: Path | None,
) -> dict[str, SourceRecord]:
    """For each reference, its source files and where they came from (a `file` field, the
    sources folder, or what `sources fetch` fetched them from); or why it has none (what
    `sources fetch` found, else that there is no file)."""
    manifest = read_manifest(sources_dir)
    records = {}
    for reference in references:
        files = source_files(reference, bibliography_dirs, sources_dir)
        origins = []
        for path in files:
            if sources_dir is not None and path.parent == sources_dir:
                origin = manifest.origin_of(path.name) or manifest.origin_of(
                    path.with_suffix(".pdf").name
                )
                origins.append((origin or Origin.SOURCES_FOLDER).value)
            else:
                origins.append(Origin.FILE_FIELD.value)
        missing = ""
        if not files:
            known = manifest.missing.get(reference.key)
            missing = (
                f"sources fetch: {known.reason}"
                if known is not None
                else "no readable source file for this key"
            )
        records[reference.key] = SourceRecord(
            reference.key,
            ", ".join(dict.fromkeys(origins)),
            tuple(str(p) for p in files),
            missing,
        )
    return records
