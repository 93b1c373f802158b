"""`citecheck snapshot build`: a local snapshot of registry records."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citecore.cli.flags import Commands, cluster_flags, cluster_place
from citecore.errors import CitecheckError
from citecore.registries.snapshot import Snapshot
from citecore.registries.snapshot_build import MAX_SKIPPED, SnapshotBuild, build_snapshot


def register(commands: Commands) -> None:
    """Add `snapshot build`."""
    snapshot = commands.add_parser("snapshot", help="local snapshots of registry records")
    snapshot_commands = snapshot.add_subparsers(dest="snapshot_command", required=True)
    build = snapshot_commands.add_parser(
        "build",
        help="import Crossref/OpenAlex/arXiv/normalized JSON lines or DBLP's XML into a snapshot",
    )
    build.add_argument(
        "dumps",
        nargs="+",
        type=Path,
        metavar="DUMP",
        help="JSON-lines files or DBLP's dblp.xml (.gz too)",
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
    build.add_argument(
        "--max-skipped",
        type=float,
        default=MAX_SKIPPED,
        metavar="SHARE",
        help=f"the share of a file's lines that may be unreadable (default {MAX_SKIPPED}); a "
        "file past it, or giving no record, stops the build",
    )
    build.add_argument(
        "--dtd",
        type=Path,
        metavar="dblp.dtd",
        help="DBLP's DTD for its XML dump (default: the dblp.dtd beside the dump)",
    )
    cluster_flags(build, "build the shards")
    build.set_defaults(run=run_build)
    info = snapshot_commands.add_parser(
        "info", help="what a snapshot holds: records per source, the files, when it was built"
    )
    info.add_argument("snapshot", type=Path, metavar="SNAPSHOT", help="a snapshot file or folder")
    info.set_defaults(run=run_info)


def run_build(args: argparse.Namespace) -> int:
    """Build the snapshot; say how many records it holds."""
    for dump in args.dumps:
        if not dump.is_file():
            raise CitecheckError(f"{dump}: no such file")
    if args.shards is None and (args.workers is not None or args.scheduler):
        raise CitecheckError("--workers and --scheduler build shards: give --shards N too")
    if not 0 <= args.max_skipped <= 1:
        raise CitecheckError(f"--max-skipped is a share from 0 to 1, not {args.max_skipped}")
    if args.shards is not None:
        built = _build_shards(args)
    else:
        built = build_snapshot(args.dumps, args.output, args.complete, args.max_skipped, args.dtd)
    declared = " (declared complete)" if args.complete else ""
    held = ", ".join(f"{source} {count}" for source, count in sorted(built.sources.items()))
    untitled = sum(f.untitled for f in built.files)
    ignored = f", {untitled} works without a title left out" if untitled else ""
    print(
        f"{args.output}: {built.imported} records imported ({held}), {built.skipped} lines "
        f"skipped{ignored}{declared}",
        file=sys.stderr,
    )
    for dump in built.files:
        if dump.skipped:
            print(
                f"citecheck: {dump.path}: {dump.skipped} of {dump.lines} lines skipped: "
                + "; ".join(dump.first_skipped),
                file=sys.stderr,
            )
    return 0


def run_info(args: argparse.Namespace) -> int:
    """Say what a snapshot holds."""
    snapshot = Snapshot(args.snapshot)
    try:
        info = snapshot.info()
    finally:
        snapshot.close()
    records = sum(info.sources.values())
    print(f"{info.path}: {records} records, built {', '.join(info.built) or 'on an unknown day'}")
    print(
        "declared complete: "
        + ("yes (offline, a work it lacks of the kinds it holds is not_found)"
           if info.complete else "no (it only adds evidence)")
    )  # fmt: skip
    for source, count in sorted(info.sources.items()):
        print(f"  {source}: {count} records")
    print(f"  works of {info.prefixes} DOI registrants, in {info.venues} venues")
    if info.newest:
        print(
            f"  works up to {info.newest}: a work of {info.newest} or later it lacks is asked "
            "of the registries, never called not_found"
        )
    for path, imported, untitled, skipped in info.files:
        print(f"  from {path}: {imported} records, {untitled} without a title, {skipped} skipped")
    return 0


def _build_shards(args: argparse.Namespace) -> SnapshotBuild:
    try:  # start-up: dask.distributed, ~0.5 s to import: cluster runs only
        from citecore.screen.cluster import cluster_client
        from citecore.screen.shards import build_sharded_snapshot
    except ModuleNotFoundError as exc:
        raise CitecheckError(f"{exc.name} is needed here: pip install 'citecheck[screen]'") from exc

    if args.shards < 1:
        raise CitecheckError("--shards must be at least 1")
    if args.output.is_file():
        raise CitecheckError(f"{args.output}: a snapshot file; a sharded snapshot is a folder")
    scheduler, workers = cluster_place(args)
    # Dask's, the scheduler's and the workers' logs beside the shards (the manifest names them)
    with cluster_client(scheduler, workers, args.output / ".citecheck-logs") as client:
        return build_sharded_snapshot(
            args.dumps, args.output, args.shards, args.complete, client, args.max_skipped, args.dtd
        )
