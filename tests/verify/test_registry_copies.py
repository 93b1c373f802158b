"""A complete copy of a registry answers for that registry (docs/verification.md): complete
copies of DBLP, arXiv and Crossref of what the emulated registries hold (tests/world_copies.py),
a realistic mixed list of real and fabricated references of every field
(tests/mixed_bibliography.py), and the emulator's log of every request that still went out."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from citecore.model import Reference, ReferenceResult, ReferenceVerdict, SourceLocation
from citecore.registries.settings import ClientSettings
from citecore.registries.snapshot import Snapshot
from citecore.registries.snapshot_build import build_snapshot
from citecore.verify.copies import arxiv_year
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator, registry_of
from tests.mixed_bibliography import Labelled, mixed_bibliography
from tests.world import WORLD, World
from tests.world_copies import build_copies

COPIED = {"dblp", "arxiv", "crossref"}


@pytest.fixture(scope="module")
def world() -> World:
    return World.load()


@pytest.fixture(scope="module")
def copies(world: World, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_copies(world, tmp_path_factory.mktemp("copies"))


def _verify(
    references: list[Reference], snapshot: Path | None, cache: Path
) -> tuple[dict[str, ReferenceResult], list[str]]:
    """Verdicts through the emulator over the world, and the registries each request went to."""
    with RegistryEmulator(strict=True, world=World.load()) as emulator:
        settings = ClientSettings.from_environment(emulator.environment(), max_attempts=1)
        verifier = RegistryVerifier(settings, cache, snapshot_path=snapshot)
        results = dict(verifier.verify(references))
        return results, [registry_of(key) for _, key in emulator.log]


def _newest(copies: Path) -> int:
    return min(copy.newest for copy in Snapshot(copies).registry_copies().values())


def test_the_copies_answer_for_their_registries_with_the_same_verdicts(
    world: World, copies: Path, tmp_path: Path
) -> None:
    listed = mixed_bibliography(world, real=30, per_kind=1, seed=3)
    references = [item.reference for item in listed]
    live, _ = _verify(references, None, tmp_path / "live.sqlite3")
    copied, asked = _verify(references, copies, tmp_path / "copied.sqlite3")
    assert {k: r.verdict for k, r in copied.items()} == {k: r.verdict for k, r in live.items()}
    newest = _newest(copies)
    older: list[Labelled] = [i for i in listed if (i.reference.year or newest) < newest]
    assert len(older) > len(listed) * 0.7
    # The works older than every copy: no question about them goes to a copied registry.
    _, again = _verify([i.reference for i in older], copies, tmp_path / "older.sqlite3")
    assert not COPIED & set(again), Counter(again)
    assert len(again) < len(asked) + 1
    notes = [note for r in copied.values() for note in r.notes]
    assert any(n.startswith("DBLP answered from dblp.sqlite3, its complete copy") for n in notes)


def _conference_paper(world: World, year_after: int) -> Reference:
    work = next(w for w in world.works if w.dblp_venue not in ("", "CoRR") and w.year)
    return Reference(
        "p",
        "inproceedings",
        SourceLocation("refs.bib", 1),
        title="Quantised lattice sheaves for federated hummingbird migration forecasting",
        authors=(),
        year=year_after,
        venue=work.venue,
    )


def test_a_title_the_copy_lacks_is_asked_live_only_when_it_may_be_newer(
    world: World, copies: Path, tmp_path: Path
) -> None:
    newest = _newest(copies)
    old = _conference_paper(world, newest - 3)
    results, asked = _verify([old], copies, tmp_path / "old.sqlite3")
    assert results["p"].verdict is ReferenceVerdict.NOT_FOUND
    assert not COPIED & set(asked), asked  # DBLP, arXiv and Crossref answered by their copies
    recent = replace(old, year=newest + 1)
    results, asked = _verify([recent], copies, tmp_path / "recent.sqlite3")
    assert {"dblp", "arxiv"} <= set(asked)  # a work newer than the copies: the live registries


def test_an_identifier_the_copy_lacks_does_not_exist(
    world: World, copies: Path, tmp_path: Path
) -> None:
    work = next(w for w in world.works if w.crossref is not None and w.year and w.year < 2020)
    prefix = work.doi.split("/", 1)[0]
    cited = Reference(
        "d",
        "article",
        SourceLocation("refs.bib", 1),
        title=work.title,
        year=work.year,
        doi=f"{prefix}/not.registered.42",
    )
    preprint = Reference(
        "a",
        "misc",
        SourceLocation("refs.bib", 2),
        title="Anything",
        year=2018,
        arxiv_id="1807.99999",
    )
    results, asked = _verify([cited, preprint], copies, tmp_path / "ids.sqlite3")
    reasons = {k: [m.reason for m in r.mismatches] for k, r in results.items()}
    assert "this DOI does not exist" in reasons["d"]
    assert "this arXiv id does not exist" in reasons["a"]
    assert not {"crossref", "doi.org", "arxiv", "datacite"} & set(asked), asked
    assert any("arXiv answered from arxiv.sqlite3" in n for n in results["a"].notes)


def test_a_copy_not_declared_complete_answers_only_what_it_holds(
    world: World, tmp_path: Path
) -> None:
    partial = tmp_path / "crossref.sqlite3"
    build_snapshot([WORLD / "crossref-works.jsonl"], partial)  # no --complete
    reference = replace(_conference_paper(world, 2015), entry_type="article", venue="PLOS ONE")
    _, asked = _verify([reference], partial, tmp_path / "partial.sqlite3")
    assert {"crossref", "dblp", "arxiv"} <= set(asked)


@pytest.mark.parametrize(
    ("arxiv_id", "year"),
    [("2105.01234", 2021), ("0704.0001v2", 2007), ("hep-th/9901001", 1999), ("math/0211159", 2002)],
)
def test_an_arxiv_id_names_its_year(arxiv_id: str, year: int) -> None:
    assert arxiv_year(arxiv_id) == year
