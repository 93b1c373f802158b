"""Registry verification under injected faults, compared with the same run without them.

Every labelled HALLMARK reference goes through the live path twice, the registries played by
the loopback emulator over the registry world: once as they are, once with a share of requests
failing (timeouts, 429 with Retry-After, 503, truncated bodies, bodies cut short, reset
connections). A fault may cost a verdict — the reference is then `error` or `unverifiable` with
`coverage_incomplete` — but never change it into another one, and never make it `not_found`.

Shared by tests/verify/test_chaos.py (a bounded run) and bench/chaos.py (1,000 references).
"""

from __future__ import annotations

import random
import tempfile
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from citecore.model import Reference, ReferenceFlag, ReferenceResult, ReferenceVerdict, Source
from citecore.registries.registry import SourcePolicy
from citecore.registries.settings import ClientSettings
from citecore.verify.registry import RegistryVerifier
from tests.emulator import Fault, RegistryEmulator
from tests.world import World

# Loopback: the published limits would only make the run slow, not different.
LOOPBACK = {source: SourcePolicy(2000.0, 16) for source in Source}
ABSTAINING = {ReferenceVerdict.ERROR, ReferenceVerdict.UNVERIFIABLE}


@dataclass
class ChaosReport:
    """How the faulty run differed from the clean one."""

    references: int
    injected: Counter[Fault] = field(default_factory=Counter)
    unchanged: int = 0
    abstained: int = 0  # lost to a fault, reported error/unverifiable with coverage_incomplete
    abstained_unflagged: list[str] = field(default_factory=list)
    fault_not_found: list[str] = field(default_factory=list)  # the accusations a fault made
    changed: list[str] = field(default_factory=list)  # any other change of verdict
    crashes: list[str] = field(default_factory=list)


def _verify(references: list[Reference], emulator: RegistryEmulator) -> dict[str, ReferenceResult]:
    settings = ClientSettings.from_environment(
        emulator.environment(),
        policies=LOOPBACK,
        timeout=5.0,
        max_attempts=2,
        backoff_base=0.01,
        retry_after_cap=0.05,
    )
    with tempfile.TemporaryDirectory() as folder:
        verifier = RegistryVerifier(settings, Path(folder) / "cache.sqlite")
        return dict(verifier.verify(references))


def chaos_run(references: list[Reference], share: float, seed: int = 1) -> ChaosReport:
    """Verify `references` without and with faults on `share` of the requests; compare."""
    world = World.load()
    with RegistryEmulator(strict=False, world=world) as clean:
        baseline = _verify(references, clean)
    chooser = random.Random(seed)
    lock = threading.Lock()
    kinds = list(Fault)

    def faults(_: str) -> Fault | None:
        with lock:  # the emulator answers on many threads
            return chooser.choice(kinds) if chooser.random() < share else None

    report = ChaosReport(len(references))
    with RegistryEmulator(strict=False, world=world, faults=faults) as faulty:
        try:
            results = _verify(references, faulty)
        except Exception as exc:  # counted, not raised: the report says what broke
            report.crashes.append(f"{type(exc).__name__}: {exc}")
            return report
        report.injected = faulty.injected
    for reference in references:
        before, after = baseline[reference.key], results.get(reference.key)
        if after is None:
            report.crashes.append(f"{reference.key}: no verdict")
        elif after.verdict is before.verdict:
            report.unchanged += 1
        elif after.verdict is ReferenceVerdict.NOT_FOUND:
            report.fault_not_found.append(f"{reference.key}: {before.verdict.value} → not_found")
        elif after.verdict in ABSTAINING:
            report.abstained += 1
            if ReferenceFlag.COVERAGE_INCOMPLETE not in after.flags:
                report.abstained_unflagged.append(reference.key)
        else:
            report.changed.append(
                f"{reference.key}: {before.verdict.value} → {after.verdict.value}"
            )
    return report
