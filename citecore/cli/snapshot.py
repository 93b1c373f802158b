"""`citecheck snapshot build`: a local snapshot of registry records."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citecore.cli.flags import Commands, cluster_flags, cluster_place
from citecore.errors import CitecheckError
from citecore.registries.snapshot import build_snapshot


def register(commands: Commands) -> None:
    """Add `snapshot build`."""
    snapshot = commands.add_parser("snapshot", help="local snapshots of registry records")
    snapshot_commands = snapshot.add_subparsers(dest="snapshot_command", required=True)
    build = snapshot_commands.add_parser(
        "build", help="import Crossref/OpenAlex/normalized JSON-lines into a snapshot"
    )
    build.add_argument(
        "dumps", nargs="+", type=Path, metavar="DUMP.jsonl", help="JSON-lines files (.gz too)"
    )
    build.add_argument(
        "-o", "--output", type=Path, required=True, metavar="SNAPSHOT", help="snapshot to write"
    )
    build.add_argument(
        "--complete",
        action="store_true",
        help="declare the dumps a complete copy of the registries (full Crossref/OpenAlex "
        "dumps): offline, a work the snapshot lacks is then reported not_found",
    )
    build.add_argument(
        "--shards",
        type=int,
        metavar="N",
        help="build N shards in parallel on a Dask cluster; SNAPSHOT is then a folder",
    )
    cluster_flags(build, "build the shards")
    build.set_defaults(run=run_build)


def run_build(args: argparse.Namespace) -> int:
    """Build the snapshot; say how many records it holds."""
    for dump in args.dumps:
        if not dump.is_file():
            raise CitecheckError(f"{dump}: no such file")
    if args.shards is None and (args.workers is not None or args.scheduler):
        raise CitecheckError("--workers and --scheduler build shards: give --shards N too")
    if args.shards is not None:
        imported, skipped = _build_shards(args)
    else:
        imported, skipped = build_snapshot(args.dumps, args.output, complete=args.complete)
    declared = " (declared complete)" if args.complete else ""
    print(
        f"{args.output}: {imported} records imported, {skipped} lines skipped{declared}",
        file=sys.stderr,
    )
    return 0


def _build_shards(args: argparse.Namespace) -> tuple[int, int]:
    try:  # dask.distributed, ~0.5 s to import: cluster runs only
        from citecore.screen.run import cluster_client
        from citecore.screen.shards import build_sharded_snapshot
    except ModuleNotFoundError as exc:
        raise CitecheckError(f"{exc.name} is needed here: pip install 'citecheck[screen]'") from exc

    if args.shards < 1:
        raise CitecheckError("--shards must be at least 1")
    if args.output.is_file():
        raise CitecheckError(f"{args.output}: a snapshot file; a sharded snapshot is a folder")
    scheduler, workers = cluster_place(args)
    with cluster_client(scheduler, workers) as client:
        return build_sharded_snapshot(args.dumps, args.output, args.shards, args.complete, client)
