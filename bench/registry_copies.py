"""Complete copies of the registries standing for them, measured side by side in one run.

A realistic mixed reference list (tests/mixed_bibliography.py: 45 real works of every field of
the registry world — medicine with PMIDs, journals with Crossref DOIs, DataCite datasets,
conference papers by title, arXiv preprints — and two fabrications of each of eleven kinds) is
verified cold through the loopback emulator over the world, under the registries' published
limits, no API keys, with `--latency` on every answer:

1. without copies;
2. with complete copies of DBLP (its XML dump of the world's computer-science venues), arXiv
   (its metadata snapshot of the world's preprints) and Crossref (the world's Crossref dump),
   each imported by `snapshot build --complete`, the three side by side in one folder.

Printed for each: wall time, requests per reference and per source, the verdicts, how many real
references were verified and fabricated ones flagged (and which were not); the references older
than the copies verified again alone, cold, which must send no request to a copied source; and
the verdicts that differ between the two runs, which must be none. `--seed` draws another list,
`--references` scales its real part.

Run with `python bench/registry_copies.py [--latency 0.1] [--seed 0]`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.model import ReferenceResult, ReferenceVerdict
from citecore.registries.settings import POLICIES, ClientSettings
from citecore.registries.snapshot import Snapshot
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator, registry_of
from tests.mixed_bibliography import REAL, Labelled, mixed_bibliography
from tests.world import World
from tests.world_copies import build_copies

_FLAGGED = {ReferenceVerdict.MISMATCH, ReferenceVerdict.NOT_FOUND}
COPIED = ("dblp", "arxiv", "crossref")


def run(
    listed: list[Labelled], copies: Path | None, latency: float, cache: Path
) -> tuple[dict[str, ReferenceResult], float, list[str]]:
    """Cold verification of the list through the emulator: verdicts, seconds, request log."""
    with RegistryEmulator(strict=True, world=World.load(), latency=latency) as emulator:
        settings = ClientSettings.from_environment(
            emulator.environment(), policies=dict(POLICIES), max_attempts=2
        )
        verifier = RegistryVerifier(settings, cache, snapshot_path=copies)
        started = time.perf_counter()
        results = verifier.verify([item.reference for item in listed])
        seconds = time.perf_counter() - started
        return dict(results), seconds, [key for _, key in emulator.log]


def summary(listed: list[Labelled], results: dict[str, ReferenceResult]) -> str:
    """Real references verified and fabricated ones flagged."""
    real = [i for i in listed if i.label == REAL]
    made = [i for i in listed if i.label != REAL]
    unverified = [
        i for i in real if results[i.reference.key].verdict is not ReferenceVerdict.VERIFIED
    ]
    missed = [i for i in made if results[i.reference.key].verdict not in _FLAGGED]
    return (
        f"real verified {len(real) - len(unverified)}/{len(real)} "
        f"(not: {', '.join(f'{i.reference.key} {i.kind}' for i in unverified) or 'none'}), "
        f"fabricated flagged {len(made) - len(missed)}/{len(made)} "
        f"(not: {', '.join(f'{i.reference.key} {i.kind}' for i in missed) or 'none'})"
    )


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--references", type=int, default=45, help="real references")
    args = parser.parse_args()
    world = World.load()
    listed = mixed_bibliography(world, real=args.references, seed=args.seed)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        started = time.perf_counter()
        copies = build_copies(world, folder)
        held = Snapshot(copies).registry_copies()
        print(
            f"copies built in {time.perf_counter() - started:.1f} s: "
            + ", ".join(f"{c.source} ({c.files}, latest works {c.newest})" for c in held.values())
        )
        verdicts: dict[str, dict[str, str]] = {}
        for label, path in (("without copies", None), ("with complete copies", copies)):
            results, seconds, log = run(listed, path, args.latency, folder / f"{label}.sqlite3")
            asked = Counter(registry_of(key) for key in log)
            verdicts[label] = {k: r.verdict.value for k, r in results.items()}
            print(
                f"{label:22s} {seconds:6.1f} s  {len(log) / len(listed):.2f} requests/reference  "
                f"{dict(asked.most_common())}\n{'':22s} verdicts "
                f"{dict(Counter(verdicts[label].values()))}; {summary(listed, results)}"
            )
            if path is not None:
                newest = min(c.newest for c in held.values())
                older = [i for i in listed if (i.reference.year or newest) < newest]
                cache = folder / "older.sqlite3"
                _, _, again = run(older, path, args.latency, cache)
                to_copied = Counter(s for s in map(registry_of, again) if s in COPIED)
                print(
                    f"{'':22s} the {len(older)} references older than the copies (before "
                    f"{newest}) again, cold: requests to copied sources {sum(to_copied.values())}"
                    f" {dict(to_copied) or ''}"
                )
        before, after = verdicts["without copies"], verdicts["with complete copies"]
        changed = {k: f"{before[k]} -> {after[k]}" for k in before if before[k] != after[k]}
        print(
            f"verdicts that differ with the copies: {changed or 'none'} ({len(listed)} references)"
        )


if __name__ == "__main__":
    main()
