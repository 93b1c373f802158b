"""The two sides of a contrast ("X rather than Y", "unlike Y, X", "X is faster than Y"): what
it sets aside and what it states, and a claim that swaps them."""

from __future__ import annotations

import re

from citecore.ground.judges.words import quote, stem
from citecore.ground.tokens import content_tokens

CONTRAST = re.compile(
    r"\b(rather than|instead of|unlike|as opposed to|in contrast to|"
    # a comparison: "X is faster than Y" sets Y aside as "rather than" does; "more than 600" is
    # a quantity, not a comparison
    r"(?<!more )(?<!less )(?<!fewer )(?<!greater )(?<!other )than(?! \d))\b",
    re.I,
)


def contrast_roles(text: str) -> tuple[set[str], set[str]] | None:
    """The two sides of a contrast as content stems: what is set aside ("rather than X", "unlike
    X", "instead of X", "faster than X": the words after the connective, to the comma or the
    end) and what is stated (the rest of the sentence); None without a contrast connective."""
    match = CONTRAST.search(text)
    if match is None:
        return None
    after = text[match.end() :]
    comma = after.find(",")
    if match.start() < 3 and comma >= 0:  # "Rather than X, Y"
        aside, stated = after[:comma], after[comma + 1 :]
    else:  # "Y rather than X", "Y, unlike X, …"
        aside = after[:comma] if comma >= 0 else after
        stated = text[: match.start()] + (after[comma + 1 :] if comma >= 0 else "")
    return (
        {stem(t) for t in content_tokens(aside)},
        {stem(t) for t in content_tokens(stated)},
    )


def swapped_contrast(claim: str, sentence: str) -> str:
    """A contrast whose two sides the claim has swapped ("rather than relying on SymPy, unyt
    implements its own algebra" against "rather than implementing algebra, we rely on SymPy"):
    what each sets aside and the other does not, the other states."""
    claimed, stated = contrast_roles(claim), contrast_roles(sentence)
    if claimed is None or stated is None:
        return ""
    (claim_aside, claim_said), (source_aside, source_said) = claimed, stated
    # The words the two sides do not share ("male"/"female" of "male prisoners" and "female
    # prisoners"): each set aside by one and, at least half of them, stated by the other.
    claim_only, source_only = claim_aside - source_aside, source_aside - claim_aside
    if not all(
        only and 2 * len(only & said) >= len(only)
        for only, said in ((claim_only, source_said), (source_only, claim_said))
    ):
        return ""
    return (
        "the claim swaps the sides of the contrast: what the source sets aside the claim "
        f"states, and the other way round: {quote(sentence)}"
    )
