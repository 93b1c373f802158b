"""`citecheck ask`: one question to one cited source, answered by the local judge."""

from __future__ import annotations

import argparse
from pathlib import Path

from citecore.bib.loader import load_bibliographies
from citecore.cli.flags import Commands, bibliography_option
from citecore.errors import CitecheckError
from citecore.fetch.local import source_files
from citecore.ground.embedding import sentence_embedder
from citecore.ground.evidence import EvidenceIndex, passages
from citecore.ground.judges.local import LocalJudge
from citecore.ground.text import read_source


def register(commands: Commands) -> None:
    """Add `ask`."""
    ask = commands.add_parser("ask", help="ask one cited source one question")
    ask.add_argument("key", help="@key of the source")
    ask.add_argument("question", help="the question, in quotes")
    bibliography_option(ask, "bibliography holding the key (repeatable)", required=True)
    ask.add_argument(
        "--sources",
        type=Path,
        metavar="DIR",
        help="folder of source files named <key>.pdf|.md|.txt (else the entry's file field)",
    )
    ask.add_argument("--passages", type=int, default=3, help="how many passages to show")
    ask.set_defaults(run=run_ask)


def run_ask(args: argparse.Namespace) -> int:
    """The local judge's answer, then the passages it read with their pages."""
    key = args.key.removeprefix("@")
    bibliography = load_bibliographies([Path(b) for b in args.bib])
    reference = bibliography.references.get(key)
    if reference is None:
        raise CitecheckError(f"@{key} is not in {', '.join(str(b) for b in args.bib)}")
    files = source_files(reference, [Path(b).parent for b in args.bib], args.sources)
    if not files:
        raise CitecheckError(f"@{key} has no readable source file")
    index = EvidenceIndex([p for f in files for p in passages(read_source(f))], sentence_embedder())
    ranked = index.rank(args.question, args.passages)
    verdict = LocalJudge().judge(args.question, ranked)
    print(f"{verdict.status.value}: {verdict.reason}")
    for item in ranked:
        print(f"\n[{Path(item.passage.source).name}, p. {item.passage.page}] {item.passage.text}")
    return 0
