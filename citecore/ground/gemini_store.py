"""A persistent Gemini File Search store kept in step with the cited sources.

A state file beside the document records the store and, per cited key, the SHA-256 of its source
files and the documents uploaded for it. Each run decides, and always logs why:

- REUSE: nothing changed — no call at all;
- SURGICAL: some keys were added, changed or removed — their documents are found in the store by
  their `bibkey` custom metadata (never by display name; the listing is paginated), deleted
  first, then the new files are imported;
- FULL REBUILD: any doubt about the store's contents (no state file, the store is gone, documents
  the state does not know, a failed import) — the store is deleted and built again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from citecore.files import write_atomically

logger = logging.getLogger(__name__)

STATE_FILE = ".citecheck-gemini.json"
BIBKEY = "bibkey"


class SyncMode(Enum):
    """What a sync did."""

    REUSE = "reuse"
    SURGICAL = "surgical"
    FULL_REBUILD = "full_rebuild"


@dataclass(frozen=True, slots=True)
class SyncReport:
    """The sync's decision, its reason, and the store it leaves."""

    mode: SyncMode
    reason: str
    store: str
    uploaded: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()


@dataclass
class _State:
    store: str = ""
    digests: dict[str, str] = field(default_factory=dict)


class StoreSyncError(Exception):
    """The store could not be brought in step (an import failed twice)."""


def sources_digest(files: Sequence[Path]) -> str:
    """One digest for a key's source files (their contents, in order)."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _read_state(path: Path) -> _State | None:
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return _State(str(data["store"]), {str(k): str(v) for k, v in data["digests"].items()})
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _write_state(path: Path, state: _State) -> None:
    payload = {"tool": "citecheck", "store": state.store, "digests": state.digests}
    write_atomically(path, json.dumps(payload, indent=1, sort_keys=True) + "\n")


def _metadata_key(document: Any) -> str | None:
    for item in getattr(document, "custom_metadata", None) or []:
        if getattr(item, "key", None) == BIBKEY:
            return str(getattr(item, "string_value", "") or "")
    return None


class StoreSync:
    """Keeps one File Search store in step with `{key: source files}` (google-genai client)."""

    def __init__(self, client: Any, state_path: Path, display_name: str = "citecheck") -> None:
        self.client = client
        self.state_path = state_path
        self.display_name = display_name

    def sync(self, sources: Mapping[str, Sequence[Path]]) -> SyncReport:
        """Bring the store in step with `sources`; log and return what was done and why."""
        wanted = {key: sources_digest(files) for key, files in sources.items() if files}
        state = _read_state(self.state_path)
        if state is None or not state.store:
            return self._rebuild(sources, wanted, "no state file")
        if state.digests == wanted:
            report = SyncReport(SyncMode.REUSE, "no source changed", state.store)
            logger.info("gemini store %s: REUSE (%s)", report.store, report.reason)
            return report
        try:
            documents = self._documents(state.store)
        except Exception as exc:  # the SDK raises its own errors for a missing store
            return self._rebuild(sources, wanted, f"store not readable: {type(exc).__name__}")
        known = set(state.digests)
        if {key for key in documents if key not in known}:
            return self._rebuild(sources, wanted, "the store holds documents the state does not")
        if any(key not in documents for key in known):
            return self._rebuild(sources, wanted, "documents the state records are missing")
        changed = sorted(k for k in wanted if state.digests.get(k) != wanted[k])
        removed = sorted(k for k in known if k not in wanted)
        for key in [*changed, *removed]:
            for name in documents.get(key, []):
                self.client.file_search_stores.documents.delete(name=name, config={"force": True})
        try:
            for key in changed:
                self._upload(state.store, key, sources[key])
        except StoreSyncError as exc:
            return self._rebuild(sources, wanted, f"an import failed ({exc})")
        state.digests = wanted
        _write_state(self.state_path, state)
        reason = f"{len(changed)} added or changed, {len(removed)} removed"
        logger.info("gemini store %s: SURGICAL (%s)", state.store, reason)
        return SyncReport(
            SyncMode.SURGICAL, reason, state.store, tuple(changed), tuple(changed + removed)
        )

    def _documents(self, store: str) -> dict[str, list[str]]:
        """Document names by bibkey (the SDK's pager follows every page)."""
        found: dict[str, list[str]] = {}
        for document in self.client.file_search_stores.documents.list(parent=store):
            key = _metadata_key(document)
            found.setdefault(key or "", []).append(str(document.name))
        return found

    def _upload(self, store: str, key: str, files: Sequence[Path]) -> None:
        for path in files:
            operation = self.client.file_search_stores.upload_to_file_search_store(
                file=str(path),
                file_search_store_name=store,
                config={
                    "display_name": path.name,
                    "custom_metadata": [{"key": BIBKEY, "string_value": key}],
                },
            )
            while not operation.done:
                operation = self.client.operations.get(operation)
            if getattr(operation, "error", None):
                raise StoreSyncError(f"{path.name}: {operation.error}")

    def _rebuild(
        self, sources: Mapping[str, Sequence[Path]], wanted: dict[str, str], reason: str
    ) -> SyncReport:
        state = _read_state(self.state_path)
        if state is not None and state.store:
            try:
                self.client.file_search_stores.delete(name=state.store, config={"force": True})
            except Exception as exc:  # already gone is fine: we are replacing it
                logger.debug("deleting %s: %s", state.store, exc)
        store = str(
            self.client.file_search_stores.create(config={"display_name": self.display_name}).name
        )
        logger.info("gemini store %s: FULL REBUILD (%s)", store, reason)
        for key in sorted(wanted):
            try:
                self._upload(store, key, sources[key])
            except StoreSyncError:
                self._upload(store, key, sources[key])  # one retry; a second failure raises
        _write_state(self.state_path, _State(store, wanted))
        return SyncReport(SyncMode.FULL_REBUILD, reason, store, tuple(sorted(wanted)))
