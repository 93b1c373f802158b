"""`citecheck screen`: every submission of a venue checked on a Dask cluster."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from citecore.cli.flags import (
    Commands,
    cli_layer,
    cluster_flags,
    cluster_place,
    option_flags,
    registry_flags,
)
from citecore.errors import CitecheckError
from citecore.options import resolve_options


def register(commands: Commands) -> None:
    """Add `screen`."""
    screen = commands.add_parser(
        "screen",
        help="check every submission's references (PDF, LaTeX, Markdown, .bib) on a Dask cluster",
    )
    screen.add_argument(
        "inputs",
        nargs="*",
        type=Path,
        metavar="SUBMISSIONS",
        help="folders of submissions (each entry one: a PDF, a LaTeX project, a document, a "
        ".bib) or single submissions",
    )
    screen.add_argument(
        "--manifest",
        type=Path,
        metavar="FILE",
        help="a list of submissions, one per line: PATH or ID<TAB>PATH",
    )
    screen.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="DIR",
        help="folder for the per-submission reports and the venue summary",
    )
    cluster_flags(screen, "screen")
    screen.add_argument(
        "--resume",
        action="store_true",
        help="continue the run whose state is in the output folder, skipping what it finished",
    )
    option_flags(screen, "grobid")
    registry_flags(screen)
    screen.set_defaults(run=run_screen)


def run_screen(args: argparse.Namespace) -> int:
    """Screen the submissions; print the totals; 0 when every submission was read (and, with
    `--fail-on`, none has a finding of those kinds), else 1."""
    try:  # start-up: dask.distributed, ~0.5 s to import: cluster runs only
        from citecore.screen.run import ScreenSettings, screen_venue
        from citecore.screen.submissions import find_submissions
    except ModuleNotFoundError as exc:
        raise CitecheckError(f"{exc.name} is needed here: pip install 'citecheck[screen]'") from exc

    if not args.inputs and args.manifest is None:
        raise CitecheckError("nothing to screen: give folders of submissions or --manifest")
    if args.manifest is not None and not args.manifest.is_file():
        raise CitecheckError(f"{args.manifest}: no such file")
    scheduler, workers = cluster_place(args)
    options = resolve_options(cli_layer(args), base={"strict": True})
    submissions = find_submissions(args.inputs, args.manifest)
    if not submissions:
        raise CitecheckError("no submissions found in " + ", ".join(map(str, args.inputs)))
    settings = ScreenSettings(args.output, resume=args.resume)

    def progress(message: str) -> None:
        if not options.quiet:
            print(f"citecheck: {message}", file=sys.stderr)

    outcome = screen_venue(submissions, options, settings, scheduler, workers, progress)
    totals = ", ".join(f"{value} {name}" for name, value in outcome.totals.items())
    print(f"citecheck: {args.output / 'summary.html'}: {totals}", file=sys.stderr)
    if outcome.totals.get("unread"):
        return 1
    # With --fail-on, the run fails as one of its submissions' `verify`/`check` would.
    failing = [row["submission"] for row in outcome.rows if row.get("exit_status")]
    if args.fail_on and failing:
        print(f"citecheck: failing (--fail-on): {', '.join(failing[:20])}", file=sys.stderr)
        return 1
    return 0
