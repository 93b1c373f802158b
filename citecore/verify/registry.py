"""The registry Verifier: every cited reference checked concurrently, verdicts cached.

Verdicts are cached under the reference's content plus LOGIC_VERSION, so an unchanged entry is
judged again only when the matching rules change (bump LOGIC_VERSION with them); the raw
responses stay cached in the HTTP layer meanwhile. Outages (`error`) are never cached.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from citecore.cache import Cache, content_key
from citecore.model import (
    Outage,
    Reference,
    ReferenceFlag,
    ReferenceResult,
    ReferenceVerdict,
    SourceLocation,
)
from citecore.options import Options
from citecore.registries.request import Failure
from citecore.registries.settings import ClientSettings, settings_for
from citecore.serialize import record_from_data, to_data

if TYPE_CHECKING:
    import httpx

    from citecore.registries.http import RegistryClient, SharedRate
    from citecore.registries.snapshot import Snapshot

logger = logging.getLogger(__name__)

# Bump whenever compare.py or resolve.py would judge an unchanged entry differently.
LOGIC_VERSION = "8"
VERDICT_TTL = 30 * 24 * 3600.0
_UNREACHABLE_NOTE = "registries unreachable: not checked"


def verdict_key(reference: Reference, open_access: bool = False) -> str:
    """What a reference's verdict depends on, as a key: every field as written but where it
    stands in its file, the matching rules' version, and whether an open-access link was asked
    for (a verdict with one answers a run that asks for none, not the other way round)."""
    return _keyed(_fields_text(reference), open_access)


_NOWHERE = SourceLocation("")


def _fields_text(reference: Reference) -> str:
    # Moving an entry in its file changes nothing about it. The record's own repr names every
    # field in order (a quarter of the time of serialising it: a rebuild keys every entry).
    return repr(replace(reference, location=_NOWHERE))


def _unkeyed_text(reference: Reference) -> str:
    """Every field of a reference but its key and its place: what its verdict depends on."""
    return repr(replace(reference, key="", location=_NOWHERE))


def _keyed(fields_text: str, open_access: bool) -> str:
    asked = ("open-access",) if open_access else ()
    return content_key(LOGIC_VERSION, fields_text, *asked)


class RegistryVerifier:
    """Checks references against the registries (Verifier protocol)."""

    def __init__(
        self,
        settings: ClientSettings,
        cache_path: Path | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        snapshot_path: Path | Sequence[Path] | None = None,
        shared_rate: SharedRate | None = None,
        open_access: bool = False,
    ) -> None:
        self.settings = settings
        self.open_access = open_access  # ask Unpaywall for each verified DOI's free copy
        self.shared_rate = shared_rate  # the rates of a cluster's workers, kept together
        self.cache_path = cache_path
        # Snapshots asked before any registry, together (a file, a folder, or several).
        self.snapshot_path = (
            (snapshot_path,) if isinstance(snapshot_path, Path) else tuple(snapshot_path or ())
        )
        self.transport = transport
        self.requests_sent = 0
        self.outage: Outage | None = None  # what the last run could not check, and why
        self.cache: Cache | None = None
        self._closed = False

    def verify(self, references: Sequence[Reference]) -> Mapping[str, ReferenceResult]:
        """A verdict for every reference (the network only for those not judged before);
        `outage` says afterwards what every call so far could not check, and why."""
        snapshot = None
        if self.snapshot_path:
            # start-up: the snapshot's reader and its title matching (~18 ms): only with one.
            from citecore.registries.snapshot import Snapshot

            snapshot = Snapshot(self.snapshot_path)
        # Offline against a complete snapshot, verdicts hold for that snapshot only: they are
        # neither taken from nor written to the cache that online runs share.
        self._closed = snapshot is not None and snapshot.complete and self.settings.offline
        try:
            with Cache(self.cache_path) as cache:
                self.cache = cache
                try:
                    return self._verify(references, snapshot)
                finally:
                    self.cache = None
        finally:
            if snapshot is not None:
                snapshot.close()

    def _verify(
        self, references: Sequence[Reference], snapshot: Snapshot | None
    ) -> dict[str, ReferenceResult]:
        results: dict[str, ReferenceResult] = {}
        pending = []
        cached = self._cached(references)
        for reference in references:
            if reference.key in cached:
                results[reference.key] = cached[reference.key]
            else:
                pending.append(reference)
        if pending:
            import asyncio  # start-up: only when something must really be asked

            for result in asyncio.run(self._verify_all(pending, snapshot)):
                results[result.key] = result
        return results

    async def _verify_all(
        self, references: Sequence[Reference], snapshot: Snapshot | None
    ) -> list[ReferenceResult]:
        # start-up: the HTTP stack only when something must really be asked.
        import asyncio

        from citecore.registries.http import RegistryClient
        from citecore.verify.by_title import pace_advice
        from citecore.verify.resolve import verify_reference

        # Entries alike but for their keys (one work's BibTeX copied into many papers, as DBLP
        # exports it) are judged once: a verdict depends on every field but the key.
        texts = [_unkeyed_text(r) for r in references]
        alike = dict(zip(texts, references, strict=True))  # the last of each: any one will do
        async with RegistryClient(
            self.settings, self.cache, self.transport, shared_rate=self.shared_rate
        ) as client:
            judged = await asyncio.gather(
                *(
                    _guarded(verify_reference(r, client, snapshot, self.open_access), r)
                    for r in alike.values()
                )
            )
            by_text = dict(zip(alike, judged, strict=True))
            results = [
                by_text[text] if by_text[text].key == r.key else replace(by_text[text], key=r.key)
                for r, text in zip(references, texts, strict=True)
            ]
            self.requests_sent += sum(client.sent.values())
            advice = pace_advice(client.sent, self.settings.identity(), self.settings.policies)
            if advice:
                logger.warning(advice)
            network_down = client.network_down
            results = [_unreachable(r) if network_down else r for r in results]
            outage = _outage(client, results)
            if outage is not None:
                self.outage = Outage.combined(self.outage, outage)
        for reference, result in zip(references, results, strict=True):
            self._store(reference, result, network_down)
        return list(results)

    def _cached(self, references: Sequence[Reference]) -> dict[str, ReferenceResult]:
        """The cached verdicts of those references that have one, by key (read in one query:
        a rebuild reads them all)."""
        if self.cache is None or self.settings.refresh or self._closed:
            return {}
        texts = {r.key: _fields_text(r) for r in references}
        keys = {key: _keyed(text, self.open_access) for key, text in texts.items()}
        wider = {} if self.open_access else {key: _keyed(t, True) for key, t in texts.items()}
        stored = self.cache.get_many("verdict", [*keys.values(), *wider.values()])
        found = {}
        for reference in references:
            text = stored.get(keys[reference.key]) or stored.get(wider.get(reference.key, ""))
            if text is None:
                continue
            try:
                found[reference.key] = record_from_data(ReferenceResult, json.loads(text))
            except (ValueError, KeyError, TypeError) as exc:
                logger.debug("stale verdict for %s: %s", reference.key, exc)
        return found

    def _store(self, reference: Reference, result: ReferenceResult, network_down: bool) -> None:
        # What could not be asked is no verdict to keep: an outage, offline or with no network.
        unasked = self.settings.offline or network_down
        outage = result.verdict is ReferenceVerdict.ERROR or (
            result.verdict is ReferenceVerdict.UNVERIFIABLE and unasked
        )
        if self.cache is not None and not outage and not self._closed:
            payload = json.dumps(to_data(result))
            key = verdict_key(reference, self.open_access)
            self.cache.put("verdict", key, payload, ttl=VERDICT_TTL)


# How much of an exception's text a report shows (the type names the bug; the rest may be long).
_BUG_TEXT = 200


async def _guarded(verdict: Awaitable[ReferenceResult], reference: Reference) -> ReferenceResult:
    """The verdict, or `error` flagged `internal_error` when judging this one reference hit a
    bug in citecheck: one reference is lost, not the run, and it is reported as the bug it is,
    never as a registry outage to wait out."""
    try:
        return await verdict
    except Exception as exc:
        logger.debug("%s: could not be checked", reference.key, exc_info=True)
        return ReferenceResult(
            reference.key,
            ReferenceVerdict.ERROR,
            frozenset({ReferenceFlag.INTERNAL_ERROR}),
            notes=(f"{type(exc).__name__}: {str(exc)[:_BUG_TEXT]}",),
        )


def _outage(client: RegistryClient, results: Sequence[ReferenceResult]) -> Outage | None:
    """What `client`'s failures left unchecked among `results`, and why; None when nothing."""
    network_down = client.network_down
    unchecked = tuple(
        r.key
        for r in results
        if (r.verdict is ReferenceVerdict.ERROR and ReferenceFlag.INTERNAL_ERROR not in r.flags)
        or (network_down and r.verdict is ReferenceVerdict.UNVERIFIABLE)
    )
    if not unchecked:
        return None
    unreachable = {s.value for s in client.unreachable_sources() if s in client.failed}

    def failing(*failures: Failure) -> tuple[str, ...]:
        return tuple(
            sorted(
                s.value
                for s, f in client.failed.items()
                if f in failures and s.value not in unreachable
            )
        )

    return Outage(
        unchecked=unchecked,
        unreachable=tuple(sorted(unreachable)),
        rate_limited=failing(Failure.RATE_LIMITED),
        failed=failing(Failure.SERVER, Failure.NETWORK),
        network_down=network_down,
        recalled=client.network_down_recalled,
    )


def _unreachable(result: ReferenceResult) -> ReferenceResult:
    """A reference left unchecked because no registry could be reached: `unverifiable`, with
    the reason, whatever partial verdict the failures led to (cached answers still count)."""
    if ReferenceFlag.INTERNAL_ERROR in result.flags:
        return result  # a bug stays a bug, network or not
    if result.verdict not in (ReferenceVerdict.ERROR, ReferenceVerdict.UNVERIFIABLE):
        return result
    return replace(
        result,
        verdict=ReferenceVerdict.UNVERIFIABLE,
        flags=result.flags | {ReferenceFlag.COVERAGE_INCOMPLETE},
        notes=(*result.notes, _UNREACHABLE_NOTE),
    )


def registry_verifier(
    options: Options, shared_rate: SharedRate | None = None, open_access: bool = False
) -> RegistryVerifier | None:
    """The registry verifier the options ask for (None with `verify: false`): live registries,
    or only the cache with `offline`; base URLs and API keys from the environment. With
    `shared_rate`, each registry's rate is kept together with the other workers of a cluster;
    with `open_access`, each verified DOI's open-access copy is asked of Unpaywall."""
    if not options.verify:
        return None
    settings = settings_for(options)
    return RegistryVerifier(
        settings,
        options.cache,
        snapshot_path=options.snapshot,
        shared_rate=shared_rate,
        open_access=open_access,
    )
