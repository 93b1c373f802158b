"""Every package citecheck needs at run time (its dependencies and theirs, extras aside) says its
licence in its installed metadata, and that licence is permissive — or it is one of the
copyleft or unstated licences the project decided to accept, listed here with the reason. A new
dependency under an unknown or a copyleft licence fails this test until someone decides
(README, "Licences")."""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, metadata, requires

from packaging.requirements import Requirement

# Licences that ask nothing of a redistributor beyond keeping their notices.
_PERMISSIVE = re.compile(
    r"\b(MIT|BSD|Apache|PSF|Python Software Foundation|ISC|0BSD|Zlib|CC0|Unlicense|HPND)\b",
    re.IGNORECASE,
)
_COPYLEFT = re.compile(r"\b(A?GPL|LGPL|GNU|MPL|Mozilla|EPL|EUPL|CDDL)\b", re.IGNORECASE)

# The decisions: each accepted licence that is copyleft or not stated, and why.
DECIDED = {
    "pymupdf": "AGPL-3.0 (or Artifex's commercial licence): PDF text with its pages; a "
    "redistribution of citecheck with it is under the AGPL's terms (README, Licences)",
    "pymupdf4llm": "an empty placeholder package of PyMuPDF 2.x (no licence stated); its code "
    "is PyMuPDF's, AGPL-3.0",
    "pymupdf-layout": "an empty placeholder package of PyMuPDF 2.x (no licence stated); its "
    "code is PyMuPDF's, AGPL-3.0",
    "unidecode": "GPL-2.0-or-later, through pyiso4 (ISO 4 venue abbreviations)",
    "certifi": "MPL-2.0, through httpx: file-level copyleft, its certificates unchanged",
}


def _licence(name: str) -> str:
    """A package's licence as its metadata states it: the expression, the field, else the
    trove classifiers."""
    found = metadata(name)
    expression = found.get_all("License-Expression") or []
    field = (found.get_all("License") or [""])[0].split("\n")[0]
    stated = expression[0] if expression else field
    classifiers = [c for c in found.get_all("Classifier") or [] if c.startswith("License ::")]
    return " ".join([stated, *classifiers]).strip()


def _runtime_closure() -> dict[str, str]:
    """Every package citecore needs at run time, by normalized name, with its licence."""
    found: dict[str, str] = {}
    todo = ["citecore"]
    while todo:
        name = todo.pop()
        try:
            key = re.sub(r"[-_.]+", "-", metadata(name)["Name"]).lower()
        except PackageNotFoundError:  # a requirement for another platform or Python
            continue
        if key in found:
            continue
        found[key] = _licence(name)
        for text in requires(name) or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    del found["citecore"]
    return found


def test_every_runtime_dependency_has_a_permissive_or_a_decided_licence() -> None:
    undecided = {
        name: licence or "(none stated)"
        for name, licence in _runtime_closure().items()
        if name not in DECIDED
        and (not licence or _COPYLEFT.search(licence) or not _PERMISSIVE.search(licence))
    }
    assert undecided == {}, "decide on these licences (tests/test_licences.py, README)"


def test_every_decision_names_a_dependency_citecheck_still_has() -> None:
    assert set(DECIDED) <= set(_runtime_closure())


def test_citecheck_says_its_own_licence() -> None:
    assert "MIT" in _licence("citecore")
