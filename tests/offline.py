"""BibTeX entries verified offline against a snapshot, as `citecheck verify --offline
--snapshot FILE` verifies them: the step many snapshot tests share."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from citecore.bib.bibtex import parse_bibtex
from citecore.model import ReferenceResult
from citecore.registries.settings import ClientSettings
from citecore.verify.registry import RegistryVerifier


def verified_offline(bib: str, snapshot: Path, cache: Path) -> Mapping[str, ReferenceResult]:
    """Each entry of `bib` (BibTeX text) by key, verified with no network against `snapshot`,
    its verdicts cached in `cache`."""
    references = parse_bibtex(bib, "refs.bib").references
    settings = ClientSettings.from_environment({}, offline=True)
    return RegistryVerifier(settings, cache, snapshot_path=snapshot).verify(references)
