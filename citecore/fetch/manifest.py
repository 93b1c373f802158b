"""`sources.json` in the sources folder: for each stored file, where it came from, its licence
and SHA-256; for each key without a source, why. Written atomically; a manifest that cannot be
read is said once and treated as empty (it is a record, never a reason to stop)."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from citecore.fetch.records import MissingSource, Origin, StoredSource
from citecore.files import write_atomically
from citecore.serialize import record_from_data, to_data

logger = logging.getLogger(__name__)

MANIFEST_NAME = "sources.json"
SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class Manifest:
    """The stored files and the missing keys of one sources folder, by key."""

    stored: dict[str, StoredSource] = field(default_factory=dict)
    missing: dict[str, MissingSource] = field(default_factory=dict)

    def origin_of(self, file_name: str) -> Origin | None:
        """Where the file of this name came from, if `sources fetch` stored it."""
        return next((s.origin for s in self.stored.values() if s.file == file_name), None)


def manifest_path(sources_dir: Path) -> Path:
    """Where a sources folder keeps its manifest."""
    return sources_dir / MANIFEST_NAME


def read_manifest(sources_dir: Path | None) -> Manifest:
    """The folder's manifest; empty when there is none or it cannot be read."""
    if sources_dir is None:
        return Manifest()
    path = manifest_path(sources_dir)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        stored = [record_from_data(StoredSource, item) for item in data.get("sources", [])]
        missing = [record_from_data(MissingSource, item) for item in data.get("missing", [])]
    except FileNotFoundError:
        return Manifest()
    except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
        logger.warning("%s: unreadable, read as empty: %s", path, exc)
        return Manifest()
    return Manifest({s.key: s for s in stored}, {m.key: m for m in missing})


def write_manifest(sources_dir: Path, manifest: Manifest) -> Path:
    """Write the manifest (keys in order) and return its path."""
    data = {
        "schema_version": SCHEMA_VERSION,
        "tool": "citecheck",
        "sources": [to_data(manifest.stored[k]) for k in sorted(manifest.stored)],
        "missing": [to_data(manifest.missing[k]) for k in sorted(manifest.missing)],
    }
    path = manifest_path(sources_dir)
    write_atomically(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return path
