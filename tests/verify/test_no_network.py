"""A run without network stops trying at once and says so once: every registry's address is a
loopback port nobody listens on, so each connection is refused as on a laptop offline."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from citecore.api import check_citations
from citecore.model import (
    Bibliography,
    Citation,
    CitationId,
    CitationMode,
    FindingKind,
    Reference,
    ReferenceFlag,
    ReferenceVerdict,
    Source,
    SourceLocation,
)
from citecore.options import build_options
from citecore.policy import exit_status
from citecore.registries import reachability
from citecore.registries.settings import ClientSettings
from citecore.verify.registry import RegistryVerifier


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _references(count: int) -> list[Reference]:
    return [
        Reference(
            key=f"ref{i}",
            entry_type="article",
            location=SourceLocation("refs.bib", i + 1),
            title=f"A study of topic number {i} in depth",
            year=2000 + i % 20,
            doi=f"10.1234/example.{i}" if i % 2 else "",
            arxiv_id="" if i % 3 else f"2101.{i:05d}",
        )
        for i in range(count)
    ]


def test_unreachable_registries_are_given_up_at_once_and_reported_once(tmp_path: Path) -> None:
    port = _closed_port()
    urls = {source: f"http://127.0.0.1:{port}" for source in Source}
    verifier = RegistryVerifier(ClientSettings(base_urls=urls), tmp_path / "cache.sqlite")
    references = _references(40)
    bibliography = Bibliography(("refs.bib",), {r.key: r for r in references})
    options = build_options({"strict": True})
    result = check_citations([], bibliography, options, None, documents=(), folder=tmp_path)
    assert result.outage is None  # no verifier, no outage
    verified = verifier.verify(references)
    # Connections tried while the first requests wait to try again, then none: the circuit
    # opened (without it: every reference's every source, four attempts each, ~12 per reference).
    assert verifier.requests_sent < 2 * len(references)
    assert {r.verdict for r in verified.values()} == {ReferenceVerdict.UNVERIFIABLE}
    assert all(ReferenceFlag.COVERAGE_INCOMPLETE in r.flags for r in verified.values())
    assert verifier.outage is not None and verifier.outage.network_down
    assert len(verifier.outage.unchecked) == 40


def test_names_that_do_not_resolve_say_the_network_is_down_without_retrying(
    tmp_path: Path,
) -> None:
    # A laptop offline fails to resolve every name at once (`.invalid` never resolves): two
    # sources failing so are enough, and none is asked again, so an edit rebuilt offline does
    # not wait out retries on every build.
    urls = {source: f"http://{source.value}.invalid" for source in Source}
    verifier = RegistryVerifier(ClientSettings(base_urls=urls), tmp_path / "cache.sqlite")
    verified = verifier.verify(_references(20))
    # Two names tried, maybe another under way: no source twice (retrying, ~40 requests).
    assert verifier.requests_sent <= len(Source)
    assert {r.verdict for r in verified.values()} == {ReferenceVerdict.UNVERIFIABLE}
    assert verifier.outage is not None and verifier.outage.network_down


def test_the_outage_is_one_finding_and_fails_only_when_asked(tmp_path: Path) -> None:
    port = _closed_port()
    urls = {source: f"http://127.0.0.1:{port}" for source in Source}
    references = _references(12)
    bibliography = Bibliography(("refs.bib",), {r.key: r for r in references})
    for fail_on, expected in ((None, 0), ("errors,outage", 6)):
        # A cache of its own: one shared would recall the first run's outage (tested below).
        cache = tmp_path / f"cache-{expected}.sqlite"
        verifier = RegistryVerifier(ClientSettings(base_urls=urls), cache)
        options = build_options({"strict": True, "fail_on": fail_on})
        citations = [
            Citation(
                r.key, CitationMode.NORMAL, SourceLocation("doc.md", 1), CitationId("doc.md", n)
            )
            for n, r in enumerate(references)
        ]
        result = check_citations(
            citations, bibliography, options, verifier, documents=("doc.md",), folder=tmp_path
        )
        outages = [f for f in result.findings if f.kind is FindingKind.OUTAGE]
        assert [f.message for f in outages] == [
            "registries unreachable: 12 references not checked; cached answers used; run "
            "again online, or with --offline to skip the network"
        ]
        assert not [f for f in result.findings if f.kind is FindingKind.UNVERIFIABLE]
        assert exit_status(result, options) == expected


def test_the_next_minutes_runs_do_not_ask_a_network_found_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A writer behind a network that hangs would wait out the timeouts on every build: the
    # runs after one that found the network down do not ask, until the minute is over.
    urls = {source: f"http://{source.value}.invalid" for source in Source}
    cache = tmp_path / "cache.sqlite"
    first = RegistryVerifier(ClientSettings(base_urls=urls), cache)
    first.verify(_references(4))
    assert first.requests_sent > 0 and first.outage is not None and first.outage.network_down
    second = RegistryVerifier(ClientSettings(base_urls=urls), cache)
    verified = second.verify(_references(4))
    assert second.requests_sent == 0
    assert {r.verdict for r in verified.values()} == {ReferenceVerdict.UNVERIFIABLE}
    assert second.outage is not None and second.outage.network_down
    assert second.outage.message().startswith(
        "registries not asked: the network was down less than a minute ago; 4 references"
    )
    assert "--refresh to ask now" in second.outage.message()
    refreshing = RegistryVerifier(ClientSettings(base_urls=urls, refresh=True), cache)
    refreshing.verify(_references(4))
    assert refreshing.requests_sent > 0  # --refresh asks the registries anyway
    monkeypatch.setattr(reachability, "NETWORK_DOWN_TTL", 0.0)
    RegistryVerifier(ClientSettings(base_urls=urls, refresh=True), cache).verify(_references(4))
    later = RegistryVerifier(ClientSettings(base_urls=urls), cache)
    later.verify(_references(4))
    assert later.requests_sent > 0  # the minute is over: asked again
