"""`citecheck pool …`: validate, coverage, bibtex and sync-keys (the command-line side of
`citecore.pool`: `model`, `policy`, `build`, `corroborate` and `bibtex`)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from citecore.api import check_latex_file, check_markdown_file
from citecore.cache import Cache
from citecore.cli.flags import Commands, bibliography_option, cli_layer, option_flags
from citecore.extract.latex import extract_latex
from citecore.extract.markdown import extract_citations
from citecore.files import write_atomically
from citecore.model import Severity
from citecore.options import Options, build_options, environment_layer, values
from citecore.pandoc.reader import read_markdown
from citecore.pool.bibtex import key_mapping, pool_bibtex, rewrite_keys, sync_preview
from citecore.pool.build import Outcome, build_pool, parse_candidates
from citecore.pool.corroborate import Corroboration, Tier, corroborate
from citecore.pool.model import fix_pool, load_pool, paper_data
from citecore.pool.policy import coverage, cutoff_date, reprompt
from citecore.registries.http import RegistryClient
from citecore.registries.settings import ClientSettings


def register(commands: Commands) -> None:
    """Add `pool` and its subcommands."""
    pool = commands.add_parser("pool", help="literature-pool rules")
    pool.set_defaults(run=run_pool)
    pool_commands = pool.add_subparsers(dest="pool_command", required=True)
    validate = pool_commands.add_parser("validate", help="report (and --fix) schema problems")
    validate.add_argument("pool", type=Path, help="the pool's JSON file")
    validate.add_argument("--fix", action="store_true", help="write the fixable problems fixed")
    covered = pool_commands.add_parser(
        "coverage", help="how much of the pool a document cites, and a re-prompt for the rest"
    )
    covered.add_argument("--doc", type=Path, required=True, help="the document")
    covered.add_argument("--pool", type=Path, required=True, help="the pool's JSON file")
    covered.add_argument("--threshold", default=0.9, help="share of the pool to cite (default 0.9)")
    build = pool_commands.add_parser(
        "verify", help="build a pool from raw candidates: search, accept, dedup"
    )
    build.add_argument(
        "candidates", type=Path, help="JSON list of {title, snippet, url, discovered_for}"
    )
    build.add_argument(
        "-o", "--output", type=Path, required=True, metavar="POOL.json", help="pool to write"
    )
    option_flags(
        build,
        "cutoff",
        "offline",
        "email",
        says={"cutoff": "accept only works published strictly before this date"},
    )
    corroborate = pool_commands.add_parser(
        "corroborate", help="re-check every pool paper against Crossref and OpenAlex (tiers)"
    )
    corroborate.add_argument("pool", type=Path, help="the pool's JSON file")
    option_flags(corroborate, "offline", "email")
    to_bibtex = pool_commands.add_parser("bibtex", help="the pool as BibTeX with its keys")
    to_bibtex.add_argument("pool", type=Path, help="the pool's JSON file")
    to_bibtex.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write to FILE (default: stdout)"
    )
    sync = pool_commands.add_parser(
        "sync-keys", help="rename the document's citation keys to the pool's (preview by default)"
    )
    sync.add_argument("document", type=Path, help="the document whose keys to rename")
    sync.add_argument("--pool", type=Path, required=True, help="the pool's JSON file")
    bibliography_option(sync)
    sync.add_argument("--inplace", action="store_true", help="write the changes")


def run_pool(args: argparse.Namespace) -> int:
    """Run one `pool` subcommand; the exit code."""
    if args.pool_command == "validate":
        if args.fix:
            changed = fix_pool(args.pool)
            print(f"citecheck: {changed} paper(s) fixed in {args.pool}", file=sys.stderr)
        pool, problems = load_pool(args.pool)
        for problem in problems:
            title = pool.papers[problem.index].title if problem.index < len(pool.papers) else ""
            hint = " (pool validate --fix fixes this)" if problem.fixable else ""
            print(
                f"{args.pool}: paper {problem.index + 1} ({title[:50]}): "
                f"{problem.severity.value}: {problem.message}{hint}"
            )
        return 1 if any(p.severity is Severity.ERROR for p in problems) else 0
    if args.pool_command == "bibtex":
        text = pool_bibtex(load_pool(args.pool)[0])
        if args.output is None:
            sys.stdout.write(text)
        else:
            write_atomically(args.output, text)
        return 0
    if args.pool_command == "sync-keys":
        return _sync_keys(args)
    if args.pool_command == "corroborate":
        return _corroborate(args)
    if args.pool_command == "verify":
        return _verify_pool(args)
    pool, _ = load_pool(args.pool)
    cited = _cited_keys(args.doc)
    result = coverage(pool, cited, values.share("threshold", args.threshold))
    print(f"coverage: {result.summary()}, {result.required} required")
    for tag, papers in sorted(result.uncited.items()):
        print(f"uncited in {tag}:")
        for paper in papers:
            print(f"  {paper.key}: {paper.title}")
    if result.outside:
        print("cited but not in the pool: " + ", ".join(result.outside))
    print()
    print(reprompt(result), end="")
    return 0 if result.passed and not result.outside else 1


def _client_settings(args: argparse.Namespace) -> tuple[Options, ClientSettings]:
    """(options, registry client settings) from the environment and --offline/--email."""
    options = build_options(environment_layer(), cli_layer(args))
    overrides: dict[str, object] = {"offline": options.offline, "timeout": options.timeout}
    if options.email:
        overrides["email"] = options.email
    return options, ClientSettings.from_environment(**overrides)


def _verify_pool(args: argparse.Namespace) -> int:
    """Build a pool from candidates and write it; 0 when anything was accepted."""

    options, settings = _client_settings(args)
    candidates = parse_candidates(json.loads(args.candidates.read_text(encoding="utf-8")))
    cutoff = cutoff_date(options.cutoff) if options.cutoff else None

    async def run() -> Outcome:
        with Cache(options.cache) as cache:
            async with RegistryClient(settings, cache) as client:
                return await build_pool(candidates, client, cutoff)

    outcome = asyncio.run(run())
    for title, reason in outcome.rejected:
        print(f"rejected: {title[:70]}: {reason}", file=sys.stderr)
    pool = {"papers": [paper_data(p) for p in outcome.accepted]}
    write_atomically(args.output, json.dumps(pool, ensure_ascii=False, indent=2) + "\n")
    print(
        f"citecheck: {len(outcome.accepted)} papers in {args.output} from "
        f"{len(candidates)} candidates",
        file=sys.stderr,
    )
    return 0 if outcome.accepted else 1


def _corroborate(args: argparse.Namespace) -> int:
    """Print every paper's tier; 1 when any is not `high`."""

    options, settings = _client_settings(args)
    pool, _ = load_pool(args.pool)

    async def run() -> list[Corroboration]:
        with Cache(options.cache) as cache:
            async with RegistryClient(settings, cache) as client:
                return list(await corroborate(pool.papers, client))

    results = asyncio.run(run())
    flagged = 0
    for item in results:
        flagged += item.tier is not Tier.HIGH
        notes = f" [{'; '.join(item.notes)}]" if item.notes else ""
        print(f"{item.tier.value:8s} {item.key}: {item.reason}{notes}")
    print(f"citecheck: {flagged} of {len(results)} pool papers flagged", file=sys.stderr)
    return 1 if flagged else 0


def _sync_keys(args: argparse.Namespace) -> int:
    """Preview (or, with --inplace, write) the renaming of citation keys to the pool's."""
    document: Path = args.document
    options = build_options({"verify": False, "bibliography": args.bib or None})
    if document.suffix == ".tex":
        result = check_latex_file(document, options)
    else:
        result = check_markdown_file(document, options).result
    mapping = key_mapping(result.bibliography, load_pool(args.pool)[0])
    for old, new in sorted(mapping.items()):
        print(f"{old} -> {new}", file=sys.stderr)
    for name in result.documents:
        path = Path(name)
        new_text = rewrite_keys(path.read_text(encoding="utf-8"), mapping)
        if args.inplace:
            path.write_text(new_text, encoding="utf-8")
        else:
            sys.stdout.write(sync_preview(path, new_text))
    return 0


def _cited_keys(document: Path) -> list[str]:
    """The keys a Markdown or LaTeX document cites (no bibliography needed)."""
    if document.suffix == ".tex":
        return [c.key for c in extract_latex(document).citations]

    return [c.key for c in extract_citations(read_markdown(document)).citations]
