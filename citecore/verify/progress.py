"""`--resume FILE`: the verdicts of an interrupted `citecheck verify`, saved as it goes.

The file is JSON written atomically after every batch. It names the tool, its purpose and the
SHA-256 of the references being verified, and citecheck refuses to resume from a file that does
not say all three (it may be somebody else's file, or another bibliography's). Verdicts of
`error` are not kept: those entries are asked again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from citecore.cache import content_key
from citecore.errors import InputError
from citecore.files import write_atomically
from citecore.model import Reference, ReferenceResult, ReferenceVerdict
from citecore.serialize import record_from_data, to_data

_KIND = "citecheck-verify-progress"


def references_digest(references: Sequence[Reference]) -> str:
    """What identifies the work to resume: the references' content, in order."""
    return content_key(*(json.dumps(to_data(r), sort_keys=True) for r in references))


def load_progress(path: Path, digest: str) -> dict[str, ReferenceResult]:
    """Verdicts saved by an earlier run over the same references ({} when there is no file)."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a citecheck progress file ({exc})") from exc
    if not isinstance(data, dict) or data.get("kind") != _KIND:
        raise InputError(f"{path}: not a citecheck progress file; refusing to overwrite it")
    if data.get("references") != digest:
        raise InputError(f"{path}: progress of another bibliography; refusing to resume from it")
    results = data.get("results")
    try:
        if not isinstance(results, dict):
            raise ValueError("its results are not a map of verdicts")
        return {k: record_from_data(ReferenceResult, v) for k, v in results.items()}
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{path}: damaged progress file ({exc})") from exc


def save_progress(path: Path, digest: str, results: Mapping[str, ReferenceResult]) -> None:
    """Save the verdicts so far (atomically), leaving out outages so they are retried."""
    kept = {k: to_data(v) for k, v in results.items() if v.verdict is not ReferenceVerdict.ERROR}
    payload = {"kind": _KIND, "tool": "citecheck", "references": digest, "results": kept}
    write_atomically(path, json.dumps(payload, ensure_ascii=False, indent=1) + "\n")
