"""Reference verification: the interface registry verifiers implement.

A verifier receives the cited, parsed references and returns a verdict for each it could judge;
entries it leaves out stay `unchecked`. Its verdicts become findings through
`citecore.findings.verdict_findings`, beside the local checks, so every report and annotation shows
them without knowing where they came from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from citecore.model import Outage, Reference, ReferenceResult


class Verifier(Protocol):
    """Anything that can judge whether references exist and are cited right; after `verify`,
    `outage` says what it could not check and why (None when everything was checked)."""

    outage: Outage | None

    def verify(self, references: Sequence[Reference]) -> Mapping[str, ReferenceResult]:
        """A verdict per reference key, for the references it could judge."""
        ...
