"""Write examples/tour/registry-records.jsonl: the registry records the tour's snapshot holds.

The records are taken unchanged from the registry world of real works in
../shared/fixtures/world/ (Crossref work messages and OpenAlex work objects, one per line): the
works the tour cites, and the works whose titles share words with them, so that a title search
in the snapshot meets neighbours as it would in a registry. Run from the repository root:
`python scripts/tour_records.py [SHARED]` (SHARED defaults to ../shared).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from citecore.registries.snapshot_build import parse_line

# The works examples/tour/tour.bib cites or points at (its mismatched DOI included).
CITED = (
    "10.1109/cvpr.2016.90",
    "10.48550/arxiv.1512.03385",
    "10.48550/arxiv.2205.01068",
    "10.48550/arxiv.2312.07559",
    "10.48550/arxiv.2103.02143",
    "10.48550/arxiv.2204.14198",
    "10.1155/2022/8490760",
)
_COMMON = set("a an and the of for in on with by to from based via is are using its".split())
NEIGHBOURS = 20


def _words(title: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", title.lower()) if w not in _COMMON and len(w) > 2}


def main(shared: Path) -> int:
    """Select the records and write them; prints how many of each kind."""
    lines = [
        line
        for name in ("crossref-works.jsonl", "openalex-works.jsonl")
        for line in (shared / "fixtures/world" / name).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    # Read as the snapshot reads them: the same title and DOI the tour's checks will see.
    works = [parse_line(line) for line in lines]
    titles = [w.title if w else "" for w in works]
    cited = [i for i, w in enumerate(works) if w is not None and w.doi.lower() in CITED]
    cited_words = [_words(titles[i]) for i in cited]
    overlap = sorted(
        (
            (-max(len(_words(title) & c) for c in cited_words), i)
            for i, title in enumerate(titles)
            if i not in cited and len(title) < 300  # one real record's "title" is a whole issue
        ),
    )
    neighbours = [i for score, i in overlap[:NEIGHBOURS] if score <= -2]
    target = Path("examples/tour/registry-records.jsonl")
    target.write_text("".join(lines[i] + "\n" for i in sorted(cited + neighbours)), "utf-8")
    print(f"{target}: {len(cited)} cited records, {len(neighbours)} neighbours")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared")))
