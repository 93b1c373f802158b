"""The synthetic computer-science venue's titles are as hard to search as real ones.

A snapshot's title search asks for a title's rarest words, at least three; how long it takes is
set by how many titles hold the third rarest. The benchmarks' figures at a million records
(bench/dblp_snapshot.py) mean something only when the generated titles' words are as rare as real
titles' words: compared here with the titles of the corpus's bibliographies exported from DBLP,
in samples of the same size.
"""

from __future__ import annotations

import random
from collections import Counter
from statistics import quantiles

from citecore.bib.loader import read_bibliography_file
from citecore.normalize import fold
from tests.paths import CORPUS
from tests.synthetic_venue import cs_title


def _third_rarest(titles: list[str]) -> list[int]:
    """For each title of three words or more, how many titles of the sample hold its third
    rarest word."""
    words = [set(fold(title).split()) for title in titles]
    held = Counter(word for title in words for word in title)
    return [sorted(held[w] for w in title)[2] for title in words if len(title) >= 3]


def _real_cs_titles() -> list[str]:
    titles: set[str] = set()
    for path in sorted((CORPUS / "wild" / "bib").glob("*dblp*.bib")):
        references, _, _ = read_bibliography_file(path)
        titles.update(fold(r.title) for r in references if len(r.title.split()) >= 3)
    return sorted(titles)


def test_a_synthetic_title_s_search_words_are_as_rare_as_a_real_title_s() -> None:
    real = _real_cs_titles()
    assert len(real) > 2000  # the DBLP exports hold some 2,500 distinct titles
    rng = random.Random(4)
    synthetic = [cs_title(rng) for _ in real]
    real_deciles = quantiles(_third_rarest(real), n=10)
    synthetic_deciles = quantiles(_third_rarest(synthetic), n=10)
    for decile in (4, 8):  # the median and the ninth decile
        # Not flattering the search (never less than half as common as real words), and not
        # thirty times too slow for it either, as a vocabulary of 30,000 terms was.
        assert real_deciles[decile] / 2 <= synthetic_deciles[decile] <= real_deciles[decile] * 4
