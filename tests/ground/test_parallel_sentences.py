"""What is a contradiction (docs/grounding.md, "A conflict is the same statement said otherwise"):
the same statement about the same thing with one value changed — a number, a direction, a
negation, an antonym, a name in the same role — and not any word that differs between two
sentences that share some words. Each case is a class met in real claims (WiCE, COVID-Fact)."""

from __future__ import annotations

import pytest

from citecore.ground.evidence import Passage, RankedPassage
from citecore.ground.judges.local import LocalJudge
from citecore.model import GroundingStatus

NOT_ACCUSED = {GroundingStatus.UNCONFIRMED, GroundingStatus.SUPPORTED, GroundingStatus.PARTIAL}
NOT_GRANTED = {GroundingStatus.UNCONFIRMED, GroundingStatus.UNSUPPORTED}


def _judged(claim: str, source: str) -> GroundingStatus:
    return LocalJudge().judge(claim, [RankedPassage(Passage("s", 1, source), 1.0)]).status


@pytest.mark.parametrize(
    ("claim", "source", "allowed"),
    [
        # A parallel sentence beside the one that states the claim: its year is another event's.
        (
            "In 1943, Sir John gave the house and grounds to the National Trust, on condition "
            "that he could continue living in the house.",
            "In 1929, Sir John sold the entire village to the Royal Society of Arts. In 1943 he "
            "gave the house and grounds to the National Trust, on condition that he could "
            "continue living in the house.",
            NOT_ACCUSED,
        ),
        (
            "The Granby Zoo traded Cornelius to the San Diego Zoo in exchange for a giraffe.",
            "A proposal for free trade with the United States was made. The zoo was later renamed.",
            NOT_ACCUSED,
        ),
        # A heading set in capitals names nothing by its capitals; a pronoun is never a name.
        (
            "The players were selected to compete in the FIBA AmeriCup 2017 in Argentina.",
            "USA BASKETBALL ANNOUNCES FIBA AMERICUP 2017 ROSTER",
            NOT_ACCUSED,
        ),
        (
            "ICMR study suggests ICMR testing strategy was flawed.",
            "Also read: ICMR Study Suggests Its Testing Strategy Was Flawed.",
            NOT_ACCUSED,
        ),
        # One range of years, however written.
        (
            "The club won the league in the 2018–19 season.",
            "The club won the league in the 2018-2019 season.",
            {GroundingStatus.SUPPORTED},
        ),
        (
            "The club won the league from 2018 to 2019.",
            "The club won the league in 2018–19.",
            NOT_ACCUSED,
        ),
        # A causative verb states the direction of what it brings about.
        (
            "Leronlimab reduced the cytokine storm in all patients.",
            "Leronlimab induced significant reductions in the cytokine storm in all patients.",
            NOT_ACCUSED,
        ),
        (
            "Leronlimab increased the cytokine storm in all patients.",
            "Leronlimab induced significant reductions in the cytokine storm in all patients.",
            NOT_GRANTED,
        ),
        # A negated opposite is not the opposite.
        (
            "The risk of diagnosis was lower among people living with HIV on ART.",
            "The risk of diagnosis was not higher among people living with HIV on ART.",
            {GroundingStatus.UNCONFIRMED},
        ),
        # Both sides deny, in other words or other places.
        (
            "Older adults lack cross-reactive T lymphocytes against OC43.",
            "Cross-reactive T lymphocytes against OC43 were virtually absent in older adults.",
            NOT_ACCUSED,
        ),
        (
            "Convalescent plasma is ineffective for covid-19 patients in hospital.",
            "The investigators found no net benefit of convalescent plasma in covid-19 patients "
            "in hospital.",
            NOT_ACCUSED,
        ),
        (
            "Sars-cov-2 in human milk is inactivated by holder pasteurization but not cold "
            "storage.",
            "Holder pasteurization inactivated SARS-CoV-2 in human milk. Cold storage of "
            "SARS-CoV-2 in human milk did not significantly impact infectious viral load.",
            NOT_ACCUSED,
        ),
        # A contrast of the source's own sets aside what the claim never states ...
        (
            "Most of the city's cases came from Europe.",
            "Most of the city's cases came from Europe rather than Asia.",
            NOT_ACCUSED,
        ),
        # ... and contradicts a claim of what it sets aside.
        (
            "Most of the city's cases came from Asia.",
            "Most of the city's cases came from Europe rather than Asia.",
            {GroundingStatus.UNSUPPORTED},
        ),
        # A paraphrase's contrast says nothing against a source silent on what it sets aside,
        # and a source that denies it says it in other words; one that states it contradicts.
        (
            "unyt implements its own unit algebra rather than relying on SymPy.",
            "unyt implements its own unit algebra.",
            NOT_ACCUSED,
        ),
        (
            "The tool writes its output to a database rather than to files.",
            "The tool writes its output to a database; files are not written.",
            NOT_ACCUSED,
        ),
        (
            "unyt implements its own unit algebra rather than relying on SymPy.",
            "unyt implements its own unit algebra and relies on SymPy for symbols.",
            {GroundingStatus.UNSUPPORTED},
        ),
        # A source naming both groups says no direction of either.
        (
            "Vitamin D concentrations are higher in patients with positive PCR results.",
            "Vitamin D concentrations in patients with positive and negative PCR results.",
            {GroundingStatus.UNCONFIRMED},
        ),
        # A range the claim states holds the source's number.
        (
            "An epidemic drove adaptation in East Asians from 25,000 to 5,000 years ago.",
            "An epidemic drove adaptation in the ancestors of East Asians 25,000 years ago.",
            NOT_ACCUSED,
        ),
    ],
)
def test_a_conflict_is_the_same_statement_said_otherwise(
    claim: str, source: str, allowed: set[GroundingStatus]
) -> None:
    assert _judged(claim, source) in allowed
