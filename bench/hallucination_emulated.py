"""Benchmark: verdict accuracy on labelled references, end to end through the live path.

Every entry of the HALLMARK dev split (1,119) and of the labelled fixtures (LABELS.tsv, 38) goes
through citecheck's local checks and registry verification, with every registry played by the
loopback emulator over the registry world of real works (../shared/fixtures/world/, tests/world.py):
routing, identifier checks, searches, comparison and verdicts all run as they do online.

A reference is *flagged* when its verdict is `mismatch`, `not_found` or `unparsed`, or a local
check reports it at warning level or above; it *abstains* when it is `unverifiable` or `error`
and not flagged. Printed: false flags per 100 VALID, recall overall and per hallucination type,
abstentions, and requests per reference; for each configuration (no API keys, as a new user
has; and with OpenAlex and Semantic Scholar keys). `--misses FILE` writes every wrong outcome
(JSON lines) for reading. Run with `python bench/hallucination_emulated.py`.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.bibtex import parse_bibtex
from citecore.findings import reference_findings
from citecore.model import (
    Bibliography,
    Reference,
    ReferenceResult,
    ReferenceVerdict,
    Severity,
    Source,
)
from citecore.registries.registry import SourcePolicy
from citecore.registries.settings import POLICIES, ClientSettings
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator, floor_seconds, registry_of
from tests.hallmark import as_bibtex, dev_entries
from tests.paths import CORPUS
from tests.world import World

# The day HALLMARK's dev split was frozen stands in for "today" in the future-year check.
TODAY = dt.date(2026, 2, 14)
FLAGGING = {ReferenceVerdict.MISMATCH, ReferenceVerdict.NOT_FOUND, ReferenceVerdict.UNPARSED}
ABSTAINING = {ReferenceVerdict.UNVERIFIABLE, ReferenceVerdict.ERROR}
# Loopback: the published limits would only make the run slow, not different.
LOOPBACK = {source: SourcePolicy(2000.0, 16) for source in Source}


@dataclass(frozen=True)
class Labelled:
    """One labelled entry: its BibTeX, label and (HALLMARK) hallucination type."""

    corpus: str
    key: str
    bibtex: str
    label: str
    kind: str


def hallmark() -> list[Labelled]:
    """The HALLMARK dev split (canary entries skipped)."""
    return [
        Labelled(
            "hallmark",
            str(entry["bibtex_key"]),
            as_bibtex(entry),
            entry["label"],
            str(entry.get("hallucination_type") or "valid"),
        )
        for entry in dev_entries()
    ]


def fixtures() -> list[Labelled]:
    """The labelled fixtures, each entry cut out of its file."""
    folder = CORPUS / "hallucination" / "fixtures"
    entries = []
    for row in (folder / "LABELS.tsv").read_text().splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) < 3:
            continue
        text = (folder / cells[0]).read_text(encoding="utf-8", errors="replace")
        entries.append(Labelled(cells[0], cells[1], text, cells[2], cells[2].lower()))
    return entries


def _bibliography(text: str, name: str) -> Bibliography:
    parsed = parse_bibtex(text, name)
    return Bibliography(
        (name,), {r.key: r for r in parsed.references}, parsed.duplicates, parsed.unparsed
    )


@dataclass(frozen=True)
class Outcome:
    """What citecheck said of one labelled entry."""

    entry: Labelled
    verdict: str
    flagged: bool
    abstained: bool
    result: ReferenceResult | None
    local: tuple[str, ...]


def _name(entry: Labelled) -> str:
    """The bibliography an entry belongs to: its own for HALLMARK, its file for fixtures."""
    return f"hallmark:{entry.key}" if entry.corpus == "hallmark" else entry.corpus


def run(
    entries: list[Labelled],
    emulator: RegistryEmulator,
    keys: dict[str, str],
    policies: dict[Source, SourcePolicy] = LOOPBACK,
) -> list[Outcome]:
    """Local checks and registry verification of every entry, through the emulator, keeping
    `policies` (rate limits and concurrency per source)."""
    bibliographies: dict[str, Bibliography] = {}
    for entry in entries:
        if _name(entry) not in bibliographies:
            bibliographies[_name(entry)] = _bibliography(entry.bibtex, _name(entry))
    # HALLMARK keys are unique across the split: one verification run for all of them; the
    # fixture files reuse keys, so each file is its own run.
    batches: dict[str, list[tuple[str, Reference]]] = {}
    for name, bibliography in bibliographies.items():
        batch = "hallmark" if name.startswith("hallmark:") else name
        batches.setdefault(batch, []).extend((name, r) for r in bibliography.references.values())
    environment = emulator.environment() | keys
    settings = ClientSettings.from_environment(environment, policies=policies, max_attempts=2)
    results: dict[tuple[str, str], ReferenceResult] = {}
    with tempfile.TemporaryDirectory() as folder:
        verifier = RegistryVerifier(settings, Path(folder) / "cache.sqlite")
        for members in batches.values():
            verdicts = verifier.verify([r for _, r in members])
            results.update({(name, r.key): verdicts[r.key] for name, r in members})
    outcomes = []
    for entry in entries:
        bibliography = bibliographies[_name(entry)]
        local = tuple(
            f.kind.value
            for f in reference_findings(bibliography, TODAY)
            if f.key == entry.key and f.severity is not Severity.INFO
        )
        result = results.get((_name(entry), entry.key))
        unparsed = any(u.key == entry.key for u in bibliography.unparsed)
        verdict = "unparsed" if unparsed else (result.verdict.value if result else "missing")
        flagged = bool(local) or unparsed or (result is not None and result.verdict in FLAGGING)
        abstained = not flagged and (result is None or result.verdict in ABSTAINING)
        outcomes.append(Outcome(entry, verdict, flagged, abstained, result, local))
    return outcomes


def report(title: str, outcomes: list[Outcome], requests: int, seconds: float) -> None:
    """Print the figures for one configuration."""
    hall = [o for o in outcomes if o.entry.corpus == "hallmark"]
    valid = [o for o in hall if o.entry.label == "VALID"]
    fake = [o for o in hall if o.entry.label == "HALLUCINATED"]
    false_flags = sum(o.flagged for o in valid)
    caught = sum(o.flagged for o in fake)
    print(
        f"{title}: {len(outcomes)} references, {requests / len(outcomes):.2f} requests per "
        f"reference, {seconds:.0f} s"
    )
    print(
        f"  HALLMARK dev: false flags {false_flags}/{len(valid)} = "
        f"{100 * false_flags / len(valid):.1f} per 100 VALID; VALID abstained "
        f"{sum(o.abstained for o in valid)}; recall {caught}/{len(fake)} = "
        f"{caught / len(fake):.3f}; HALLUCINATED abstained {sum(o.abstained for o in fake)}"
    )
    only_absent_ids = sum(
        o.flagged
        and not o.local
        and o.result is not None
        and bool(o.result.mismatches)
        and all("does not exist" in m.reason for m in o.result.mismatches)
        for o in fake
    )
    print(
        f"  of the HALLUCINATED caught, {only_absent_ids} rest only on an identifier the world "
        "does not hold (the world has only the VALID entries' works, so a real DOI of a work "
        "outside it does not exist there)"
    )
    kinds = Counter(o.entry.kind for o in fake)
    print(f"    {'hallucination type':26s} {'n':>4s} {'recall':>7s} {'abstain':>8s}")
    for kind, total in sorted(kinds.items()):
        group = [o for o in fake if o.entry.kind == kind]
        recall = sum(o.flagged for o in group) / total
        print(f"    {kind:26s} {total:4d} {recall:7.3f} {sum(o.abstained for o in group):8d}")
    print("  labelled fixtures (LABELS.tsv):")
    labels = Counter(o.entry.label for o in outcomes if o.entry.corpus != "hallmark")
    for label, total in sorted(labels.items()):
        group = [o for o in outcomes if o.entry.corpus != "hallmark" and o.entry.label == label]
        verdicts = Counter(o.verdict for o in group)
        shown = ", ".join(f"{v} {n}" for v, n in verdicts.most_common())
        print(f"    {label:17s} {total:3d}  flagged {sum(o.flagged for o in group):3d}  ({shown})")


def _wrong(outcome: Outcome) -> bool:
    should_flag = outcome.entry.label not in {"VALID"}
    return outcome.flagged != should_flag


def write_misses(path: Path, outcomes: list[Outcome]) -> None:
    """Every outcome that disagrees with its label, as JSON lines."""
    with path.open("w", encoding="utf-8") as out:
        for outcome in outcomes:
            if not _wrong(outcome):
                continue
            result = outcome.result
            out.write(
                json.dumps(
                    {
                        "corpus": outcome.entry.corpus,
                        "key": outcome.entry.key,
                        "label": outcome.entry.label,
                        "kind": outcome.entry.kind,
                        "verdict": outcome.verdict,
                        "local": outcome.local,
                        "bibtex": outcome.entry.bibtex
                        if outcome.entry.corpus == "hallmark"
                        else "",
                        "mismatches": [
                            m.__dict__
                            if hasattr(m, "__dict__")
                            else [m.field, m.given, m.found, m.reason]
                            for m in (result.mismatches if result else ())
                        ],
                        "match": None
                        if not result or not result.match
                        else [
                            result.match.title,
                            result.match.venue,
                            result.match.year,
                            result.match.authors[:8],
                        ],
                        "notes": list(result.notes) if result else [],
                        "sources": list(result.sources) if result else [],
                    }
                )
                + "\n"
            )


# The emulator log's source names (`registry_of`) as the sources whose limits apply.
_SOURCES = {source.value: source for source in Source} | {"doi.org": Source.DOI}


def write_verdicts(path: Path, outcomes: list[Outcome]) -> None:
    """Every entry's verdict, flags and mismatched fields, one JSON line each, in order."""
    with path.open("w", encoding="utf-8") as out:
        for outcome in outcomes:
            result = outcome.result
            line = {
                "entry": f"{outcome.entry.corpus}:{outcome.entry.key}",
                "verdict": outcome.verdict,
                "flags": sorted(f.value for f in result.flags) if result else [],
                "mismatches": sorted(m.field for m in result.mismatches) if result else [],
            }
            out.write(json.dumps(line) + "\n")


def published_limits(
    entries: list[Labelled], title: str, latency: float, keys: dict[str, str]
) -> None:
    """`entries` verified as a writer verifies a bibliography: a cold cache, the registries'
    published limits and `latency` on every answer. Prints wall time, requests per reference
    by source, and the least time those requests could take within the limits."""
    with RegistryEmulator(strict=True, world=World.load(), latency=latency) as emulator:
        started = time.perf_counter()
        outcomes = run(entries, emulator, keys, policies=dict(POLICIES))
        seconds = time.perf_counter() - started
        assert not emulator.unexpected, emulator.unexpected[:5]
        by_source = Counter(registry_of(key) for _, key in emulator.log)
    plan = Counter({_SOURCES[name]: n for name, n in by_source.items() if name in _SOURCES})
    print(
        f"{title}, published limits, {latency * 1000:.0f} ms latency, cold cache, "
        f"{'OpenAlex and S2 keys' if keys else 'no keys'}: "
        f"{len(outcomes)} references, {seconds:.1f} s (the floor of these requests within the "
        f"limits: {floor_seconds(plan, latency):.1f} s)"
    )
    per_reference = ", ".join(
        f"{name} {n / len(outcomes):.2f}" for name, n in by_source.most_common()
    )
    print(f"  requests per reference: {emulator.requests() / len(outcomes):.2f} ({per_reference})")
    for label in sorted({o.entry.label for o in outcomes}):
        verdicts = Counter(o.verdict for o in outcomes if o.entry.label == label)
        print(f"  {label}: {dict(verdicts.most_common())}")


def main() -> None:
    """Run both configurations and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--misses", type=Path, help="write wrong outcomes here (JSON lines)")
    parser.add_argument("--keys-only", action="store_true", help="only the run with API keys")
    parser.add_argument(
        "--verdicts",
        type=Path,
        help="write every entry's verdict and mismatched fields here (JSON lines): two runs "
        "compared with diff show whether a change moved any verdict",
    )
    parser.add_argument(
        "--published-limits",
        action="store_true",
        help="only samples of HALLMARK, timed within the published limits (cold cache)",
    )
    parser.add_argument("--latency", type=float, default=0.08, help="with --published-limits")
    args = parser.parse_args()
    logging.getLogger("bibtexparser").setLevel(logging.CRITICAL)
    if args.published_limits:
        every = hallmark()
        valid = [e for e in every if e.label == "VALID"]
        for keys in ({}, {"OPENALEX_API_KEY": "bench", "S2_API_KEY": "bench"}):
            published_limits(every[::16], "every 16th HALLMARK entry", args.latency, keys)
            published_limits(valid[::8], "every 8th VALID HALLMARK entry", args.latency, keys)
        return
    entries = hallmark() + fixtures()
    world = World.load()
    configurations = [
        (
            "with OpenAlex and Semantic Scholar keys",
            {"OPENALEX_API_KEY": "bench", "S2_API_KEY": "bench"},
        )
    ]
    if not args.keys_only:
        configurations.insert(0, ("no API keys", {}))
    for title, keys in configurations:
        with RegistryEmulator(strict=True, world=world) as emulator:
            started = time.perf_counter()
            outcomes = run(entries, emulator, keys)
            seconds = time.perf_counter() - started
            requests = emulator.requests()
            assert not emulator.unexpected, emulator.unexpected[:5]
            by_source = Counter(registry_of(key) for _, key in emulator.log)
        report(title, outcomes, requests, seconds)
        per_reference = ", ".join(
            f"{name} {n / len(outcomes):.2f}" for name, n in by_source.most_common()
        )
        print(f"  requests per reference by source: {per_reference}")
        if args.verdicts:
            suffix = "keys" if keys else "nokeys"
            write_verdicts(args.verdicts.with_suffix(f".{suffix}.jsonl"), outcomes)
        if args.misses:
            suffix = "keys" if keys else "nokeys"
            write_misses(args.misses.with_suffix(f".{suffix}.jsonl"), outcomes)


if __name__ == "__main__":
    main()
