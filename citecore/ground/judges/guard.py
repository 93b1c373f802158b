"""The guard on every judge's verdict: no support where the source's words conflict.

A model judge can call a claim supported by a passage that gives another number, negates it or
names another entity: the claim reads like the passage. Before a SUPPORTED or PARTIAL verdict of
any judge is reported, the local judge's conflict rules read the claim against the passage the
judge quoted; where they find a conflict, the verdict becomes UNCONFIRMED and says why (the two
judges disagree: that is neither support nor an established conflict).
"""

from __future__ import annotations

from dataclasses import replace

from citecore.ground.judges import JudgeVerdict
from citecore.ground.judges.local import conflict_in
from citecore.ground.lexicon import lexicon
from citecore.model import GroundingStatus

_FOUND = frozenset({GroundingStatus.SUPPORTED, GroundingStatus.PARTIAL})


def guarded(verdict: JudgeVerdict, claim: str) -> JudgeVerdict:
    """The verdict, or UNCONFIRMED where it grants support against a conflict in its passage."""
    if verdict.status not in _FOUND or not verdict.passage:
        return verdict
    conflict = conflict_in(claim, verdict.passage, lexicon())
    if not conflict:
        return verdict
    said = verdict.status.value
    return replace(
        verdict,
        status=GroundingStatus.UNCONFIRMED,
        reason=f"the judge said {said}, but its passage conflicts with the claim: {conflict}",
    )
