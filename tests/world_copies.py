"""Complete copies of what the emulated registries hold (tests/world.py): DBLP's XML dump of
the world's computer-science venues, arXiv's metadata snapshot of its preprints and the world's
Crossref dump, each imported as `snapshot build --complete` imports it, side by side in one
folder — the copies a venue or a lab keeps of the registries it is asked about most."""

from __future__ import annotations

import json
from pathlib import Path

from citecore.registries.snapshot_build import build_snapshot
from tests.generated_dblp import dblp_works, write_dump
from tests.world import WORLD, Work, World


def arxiv_line(work: Work) -> str:
    """A preprint of the world as arXiv's metadata snapshot holds it."""
    people = [name.rpartition(" ") for name in work.names]
    return json.dumps({
        "id": work.arxiv_id, "title": work.title, "abstract": "",
        "authors": ", ".join(work.names),
        "authors_parsed": [[family, given, ""] for given, _, family in people],
        "versions": [{"version": "v1", "created": f"Mon, 1 Jan {work.year} 00:00:00 GMT"}],
        "update_date": f"{work.year}-01-01", "doi": None, "journal-ref": None,
    })  # fmt: skip


def build_copies(world: World, folder: Path) -> Path:
    """Complete copies of DBLP, arXiv and Crossref of what the emulated registries hold, each
    imported as `snapshot build --complete` imports it, in one folder."""
    dumps = folder / "dumps"
    dumps.mkdir(parents=True, exist_ok=True)
    copies = folder / "copies"
    dblp = dumps / "dblp.xml.gz"
    write_dump(dblp, dblp_works())
    build_snapshot([dblp], copies / "dblp.sqlite3", complete=True)
    arxiv = dumps / "arxiv-metadata.jsonl"
    preprints = [w for w in world.by_arxiv.values() if w.year]
    arxiv.write_text("".join(arxiv_line(w) + "\n" for w in preprints), encoding="utf-8")
    build_snapshot([arxiv], copies / "arxiv.sqlite3", complete=True)
    build_snapshot([WORLD / "crossref-works.jsonl"], copies / "crossref.sqlite3", complete=True)
    return copies
