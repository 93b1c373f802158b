"""The one line a run gets when it waited long on DBLP's published pace: which free key lets a
faster title search answer first. Said only when it is true and useful."""

from __future__ import annotations

import logging

import pytest

from citecore.model import Source
from citecore.registries.registry import Identity, SourcePolicy
from citecore.registries.settings import POLICIES
from citecore.verify import by_title
from citecore.verify.by_title import pace_advice
from tests.emulator import RegistryEmulator
from tests.verify.test_resolve import FAST, no_hits, reference, verify

NO_KEYS = Identity()


def test_a_long_wait_on_dblp_names_the_key_that_spares_it() -> None:
    advice = pace_advice({Source.DBLP: 43, Source.CROSSREF: 20}, NO_KEYS, POLICIES)
    assert advice.startswith("43 title searches waited on DBLP's pace (1 request/s, about 43 s)")
    assert "OPENALEX_API_KEY" in advice
    # Semantic Scholar's keyed search runs at DBLP's own pace: it would not be faster.
    assert "S2_API_KEY" not in advice


def test_nothing_is_said_for_a_short_wait() -> None:
    assert pace_advice({Source.DBLP: 14}, NO_KEYS, POLICIES) == ""
    assert pace_advice({Source.CROSSREF: 500}, NO_KEYS, POLICIES) == ""


def test_nothing_is_said_when_the_key_is_held() -> None:
    held = Identity(api_keys={"OPENALEX_API_KEY": "k"})
    assert pace_advice({Source.DBLP: 60}, held, POLICIES) == ""


def test_nothing_is_said_when_the_users_own_limits_make_dblp_fast() -> None:
    mirror = {**POLICIES, Source.DBLP: SourcePolicy(20.0, 4)}  # CITECHECK_DBLP_RATE=20
    assert pace_advice({Source.DBLP: 60}, NO_KEYS, mirror) == ""


def test_the_verifier_says_it_once_at_the_end_of_the_run(
    emulator: RegistryEmulator, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # DBLP at its published pace (one request here: no wait) and a threshold any wait passes.
    monkeypatch.setattr(by_title, "_PACE_WORTH_SAYING", 0.0)
    policies = {**FAST, Source.DBLP: POLICIES[Source.DBLP]}
    ref = reference("@inproceedings{k, title = {A Paper Nobody Wrote}, author = {Doe, Jane}}")
    no_hits(emulator, ref)
    with caplog.at_level(logging.WARNING, logger="citecore.verify.registry"):
        verify(emulator, ref, policies=policies)
    said = [r.getMessage() for r in caplog.records if "DBLP's pace" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith("1 title searches waited")
