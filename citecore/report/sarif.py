"""The findings as SARIF 2.1.0, the format code scanning reads (GitHub, GitLab, Azure DevOps).

One rule per kind of finding, with its help text; one result per finding, at its file and line,
with the severity as the SARIF level (error, warning, note). Each result carries a
`partialFingerprints` value built from what identifies the problem (its kind, key, file and
message), not from its line, so that code scanning keeps one alert open across commits that
move the text. A finding about one citation names it in its properties (`citation`, the JSON
report's identity, and `claim`): two citations of one key on one line are two results.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path, PurePath
from typing import Any
from urllib.parse import quote

from citecore.model import SEVERITY, CheckResult, Finding, FindingKind, Severity
from citecore.report.kinds import HELP
from citecore.version import __version__

SCHEMA_URI = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
FINGERPRINT = "citecheck/v1"
_LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_SOURCE_ROOT = "%SRCROOT%"


def _rule(kind: FindingKind) -> dict[str, Any]:
    words = HELP[kind]
    return {
        "id": kind.value,
        "name": "".join(part.capitalize() for part in kind.value.split("_")),
        "shortDescription": {"text": words.title},
        "fullDescription": {"text": words.help},
        "help": {"text": words.help},
        "defaultConfiguration": {"level": _LEVELS[SEVERITY[kind]]},
        "properties": {"tags": ["citations"]},
    }


def _artifact(file: str, root: Path) -> dict[str, str]:
    """A file as SARIF names it: relative to the source root when it lies inside it (how code
    scanning matches results to the repository), else an absolute file URI."""
    path = Path(file)
    if not path.is_absolute():
        return {"uri": quote(PurePath(file).as_posix()), "uriBaseId": _SOURCE_ROOT}
    try:
        relative = path.resolve().relative_to(root.resolve())
    except ValueError:
        return {"uri": path.resolve().as_uri()}
    return {"uri": quote(relative.as_posix()), "uriBaseId": _SOURCE_ROOT}


def _fallback_file(result: CheckResult) -> str:
    """Where a finding without a place is shown: the document, else the bibliography."""
    return next(iter(result.documents or result.bibliography.sources), "")


def _result(item: Finding, result: CheckResult, root: Path, ordinal: int) -> dict[str, Any]:
    location = item.location
    file = location.file if location else _fallback_file(result)
    line = location.line if location and location.line else None
    message = item.message if not item.key else f"{item.key}: {item.message}"
    physical: dict[str, Any] = {"artifactLocation": _artifact(file, root)}
    # Code scanning needs a line; a finding about a whole file is shown on its first.
    physical["region"] = {"startLine": line or 1}
    identity = "\0".join((item.kind.value, item.key or "", file, item.message, str(ordinal)))
    found: dict[str, Any] = {
        "ruleId": item.kind.value,
        "ruleIndex": list(FindingKind).index(item.kind),
        "level": _LEVELS[item.severity],
        "message": {"text": message},
        "locations": [{"physicalLocation": physical}],
        "partialFingerprints": {FINGERPRINT: hashlib.sha256(identity.encode()).hexdigest()},
    }
    if item.key and item.key in result.nocite and all(c.key != item.key for c in result.citations):
        # An entry listed uncited: where it comes from, as every report says it.
        found["message"]["text"] = f"{message} (listed with nocite)"
        found["properties"] = {"nocite": True}
    if item.citation is not None:
        found["properties"] = _citation_properties(item, result)
    return found


def _citation_properties(item: Finding, result: CheckResult) -> dict[str, str]:
    """Which citation a finding is about — its identity (as the JSON report names it) and its
    claim — so that two citations of one key on one line are told apart."""
    said = {"citation": str(item.citation)}
    claim = next((c.claim for c in result.citations if c.ident == item.citation), "")
    if claim:
        said["claim"] = claim
    return said


def to_sarif_data(
    result: CheckResult, only_issues: bool = False, root: Path | None = None
) -> dict[str, Any]:
    """The SARIF log of one run: `root` is the folder relative paths are under (the working
    folder by default); `only_issues` leaves out information-level findings."""
    root = root or Path.cwd()
    findings = [f for f in result.findings if not only_issues or f.severity is not Severity.INFO]
    seen: Counter[tuple[str, str, str, str]] = Counter()
    results = []
    for item in findings:
        file = item.location.file if item.location else _fallback_file(result)
        identity = (item.kind.value, item.key or "", file, item.message)
        results.append(_result(item, result, root, seen[identity]))
        seen[identity] += 1  # the same problem twice in one file: two alerts, told apart
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "citecheck",
                        "version": __version__,
                        "rules": [_rule(kind) for kind in FindingKind],
                    }
                },
                "originalUriBaseIds": {_SOURCE_ROOT: {"uri": root.resolve().as_uri() + "/"}},
                "invocations": [{"executionSuccessful": True}],
                "results": results,
            }
        ],
    }


def render(result: CheckResult, only_issues: bool = False) -> str:
    """The SARIF log as text (UTF-8 JSON, indented, ending in a newline)."""
    return json.dumps(to_sarif_data(result, only_issues), ensure_ascii=False, indent=2) + "\n"
