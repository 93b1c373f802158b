"""The alignment proof: is a passage a judge quoted really in the source text?

The passage's tokens are aligned to the source's tokens by longest common subsequence, but only
inside a few candidate windows: the passage's rarest tokens vote, through an inverted index, on
where in the source the passage starts, and the LCS (rapidfuzz, in C++) runs on the best-voted
windows. Coverage is the share of the passage's tokens matched in order; density is the share of
the matched source span that those matches fill. docs/grounding.md's gates: coverage ≥ 0.75 and
density ≥ 0.33, or 0.5 and 0.2 for citations introduced by a signal ("see", "cf.").
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass

from rapidfuzz.distance import LCSseq

from citecore.ground.text import SourceText
from citecore.ground.tokens import tokens

COVERAGE, DENSITY = 0.75, 0.33
SIGNAL_COVERAGE, SIGNAL_DENSITY = 0.5, 0.2
_ANCHORS = 8  # rarest passage tokens that vote on where the passage starts
_WINDOWS = 4  # best-voted windows aligned exactly


@dataclass(frozen=True, slots=True)
class Alignment:
    """Where and how well a passage aligns to a source."""

    coverage: float
    density: float
    page: int | None

    def grounded(self, signal: bool = False) -> bool:
        """Whether the alignment passes the gates (the looser ones for signal citations)."""
        if signal:
            return self.coverage >= SIGNAL_COVERAGE and self.density >= SIGNAL_DENSITY
        return self.coverage >= COVERAGE and self.density >= DENSITY


NO_ALIGNMENT = Alignment(0.0, 0.0, None)


class AlignedSource:
    """A source's tokens, the page each token is on, and where every token occurs."""

    def __init__(self, source: SourceText) -> None:
        self.tokens: list[str] = []
        self._page_starts: list[int] = []
        self._page_numbers: list[int] = []
        for page in source.pages:
            self._page_starts.append(len(self.tokens))
            self._page_numbers.append(page.number)
            self.tokens.extend(tokens(page.text))
        self._where: dict[str, list[int]] = defaultdict(list)
        for position, token in enumerate(self.tokens):
            self._where[token].append(position)

    def page_of(self, position: int) -> int | None:
        """The page a token position is on."""
        if not self._page_starts:
            return None
        return self._page_numbers[max(0, bisect_right(self._page_starts, position) - 1)]

    def _page(self, positions: list[int]) -> int | None:
        """The page most matched tokens are on (the earlier one on a tie): a stray match of a
        common word at the foot of the previous page does not move a quotation there."""
        pages = Counter(self.page_of(p) for p in positions)
        if not pages:
            return None
        return max(pages.items(), key=lambda item: (item[1], -(item[0] or 0)))[0]

    def _candidate_starts(self, passage: list[str]) -> list[int]:
        present = [(len(self._where[t]), i, t) for i, t in enumerate(passage) if t in self._where]
        if not present:
            return []
        anchors = sorted(present)[:_ANCHORS]
        votes: Counter[int] = Counter()
        bucket = max(1, len(passage) // 2)
        for _, offset, token in anchors:
            for position in self._where[token]:
                votes[(position - offset) // bucket] += 1
        starts = [b * bucket for b, _ in votes.most_common(_WINDOWS)]
        # The rarest token's own places too: in repetitive text common tokens outvote it.
        _, offset, rarest = anchors[0]
        starts += [max(0, p - offset) for p in self._where[rarest][:_WINDOWS]]
        return list(dict.fromkeys(starts))

    def _verbatim(self, passage: list[str]) -> int | None:
        """Where the passage stands word for word in the source, if it does: found through
        every place of its rarest token, so that in repetitive text a verbatim quotation is
        never left to the voted windows."""
        rarest = min(range(len(passage)), key=lambda i: len(self._where.get(passage[i], ())))
        length = len(passage)
        for position in self._where.get(passage[rarest], ()):
            start = position - rarest
            if start >= 0 and self.tokens[start : start + length] == passage:
                return start
        return None

    def align(self, passage: str) -> Alignment:
        """The best alignment of `passage` in this source."""
        wanted = tokens(passage)
        if not wanted or not self.tokens:
            return NO_ALIGNMENT
        start = self._verbatim(wanted)
        if start is not None:
            return Alignment(1.0, 1.0, self._page(list(range(start, start + len(wanted)))))
        best = NO_ALIGNMENT
        slack = len(wanted) // 2 + 2
        for start in self._candidate_starts(wanted):
            low = max(0, start - slack)
            window = self.tokens[low : start + len(wanted) + slack]
            blocks = [o for o in LCSseq.opcodes(wanted, window) if o.tag == "equal"]
            matched = sum(o.src_end - o.src_start for o in blocks)
            if not matched:
                continue
            span = blocks[-1].dest_end - blocks[0].dest_start
            positions = [low + i for o in blocks for i in range(o.dest_start, o.dest_end)]
            candidate = Alignment(matched / len(wanted), matched / span, self._page(positions))
            if (candidate.coverage, candidate.density) > (best.coverage, best.density):
                best = candidate
        return best
