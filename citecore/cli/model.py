"""`citecheck reference-model build`: the CRF that reads printed references, trained once on
AnyStyle's labelled references (a local copy with --from, else fetched from AnyStyle's
repository at the pinned commit)."""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from citecore.bib.reflist.crf import default_model_path
from citecore.bib.reflist.crf_training import (
    ANYSTYLE_URL,
    TRAINING_FILES,
    build_model,
    download_training_data,
)
from citecore.cli.flags import Commands


def register(commands: Commands) -> None:
    """Add `reference-model build`."""
    model = commands.add_parser(
        "reference-model", help="the trained model that reads printed reference lists"
    )
    actions = model.add_subparsers(dest="model_command", required=True)
    build = actions.add_parser(
        "build",
        help="train it on AnyStyle's labelled references (about a minute, once)",
        description=(
            f"Train the reference CRF on AnyStyle's {' and '.join(TRAINING_FILES)} (BSD). "
            f"Without --from they are fetched from {ANYSTYLE_URL}."
        ),
    )
    build.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="DIR",
        help="a folder holding AnyStyle's res/parser files (core.xml, good.xml)",
    )
    build.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="MODEL",
        help=f"where to write it (default: {default_model_path()}, where citecheck reads it)",
    )
    build.set_defaults(run=run_build)


def run_build(args: argparse.Namespace) -> int:
    """Train the model (or keep one built from the same data); say where it is."""
    target: Path = args.output or default_model_path()
    if args.source is not None:
        built = build_model(args.source, target)
    else:
        with tempfile.TemporaryDirectory() as folder:
            download_training_data(Path(folder))
            built = build_model(Path(folder), target)
    if built.reused:
        print(f"reference model: {built.path} (already built from the same data)")
    else:
        print(
            f"reference model: {built.path}, trained on {built.references:,} labelled "
            f"references in {built.seconds:.0f} s"
        )
    return 0
