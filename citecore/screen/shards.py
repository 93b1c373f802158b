"""A snapshot for ~150 M records, built in parallel on a cluster: the dumps' partitions (the
Crossref public data file and the OpenAlex snapshot come as thousands of gzipped JSON-lines
files) are dealt into a few shards of about equal size, each shard an ordinary snapshot built
on one worker; a manifest, written last, makes the folder one snapshot (see
`citecore.registries.snapshot.Snapshot`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from citecore.registries.snapshot import MANIFEST, write_manifest
from citecore.registries.snapshot_build import MAX_SKIPPED, SnapshotBuild, build_snapshot

if TYPE_CHECKING:
    from distributed import Client


def deal_into_shards(dumps: Sequence[Path], shards: int) -> list[list[Path]]:
    """The dumps dealt into at most `shards` groups of about equal size in bytes (largest
    first, each to the lightest group), each group in its files' order."""
    groups: list[list[Path]] = [[] for _ in range(max(1, min(shards, len(dumps))))]
    weights = [0] * len(groups)
    for dump in sorted(dumps, key=lambda p: p.stat().st_size, reverse=True):
        lightest = weights.index(min(weights))
        groups[lightest].append(dump)
        weights[lightest] += dump.stat().st_size
    order = {dump: n for n, dump in enumerate(dumps)}
    return [sorted(group, key=order.__getitem__) for group in groups if group]


def build_sharded_snapshot(
    dumps: Sequence[Path],
    folder: Path,
    shards: int,
    complete: bool,
    client: Client,
    max_skipped: float = MAX_SKIPPED,
    dtd: Path | None = None,
) -> SnapshotBuild:
    """Build the snapshot in `folder` from `dumps`, one shard per worker task; returns what
    every shard imported. The folder's old manifest goes first: while the shards are rebuilt,
    it is no snapshot; a shard refused (a file it cannot read) leaves none."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MANIFEST).unlink(missing_ok=True)
    groups = deal_into_shards(dumps, shards)
    names = [f"shard-{n:04d}.sqlite3" for n in range(len(groups))]
    futures = client.map(
        build_snapshot,
        groups,
        [folder / name for name in names],
        complete=complete,
        max_skipped=max_skipped,
        dtd=dtd,
        retries=3,
    )
    built: list[SnapshotBuild] = client.gather(futures)
    sources: dict[str, int] = {}
    for shard in built:
        for source, count in shard.sources.items():
            sources[source] = sources.get(source, 0) + count
    whole = SnapshotBuild(tuple(f for shard in built for f in shard.files), sources)
    write_manifest(folder, names, whole.imported, complete)
    return whole
