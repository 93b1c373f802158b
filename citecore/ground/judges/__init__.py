"""Judges: given a claim and ranked evidence, decide whether the evidence supports the claim.

Every judge returns a JudgeVerdict: a status, the passage it relied on (verbatim from the
source, so that the alignment proof can find it), a short reason, and its name and model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from citecore.ground.evidence import RankedPassage
from citecore.model import GroundingStatus


@dataclass(frozen=True, slots=True)
class JudgeVerdict:
    """What a judge decided about one claim."""

    status: GroundingStatus
    passage: str
    reason: str
    judge: str
    model: str = ""


class Judge(Protocol):
    """Anything that can judge a claim against ranked evidence."""

    name: str
    model: str

    def judge(
        self, claim: str, evidence: Sequence[RankedPassage], keys: Sequence[str] = ()
    ) -> JudgeVerdict:
        """The verdict for `claim` given `evidence` (best first) from the sources of `keys`."""
        ...

    def close(self) -> None:
        """Release connections the judge holds."""
        ...
