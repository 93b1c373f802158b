"""Signals from citation prefixes and locators from suffixes."""

from __future__ import annotations

import pytest

from citecore.extract.signals import locator_of, signal_of
from citecore.model import Signal


@pytest.mark.parametrize(
    ("prefix", "signal"),
    [
        ("see", Signal.SEE),
        ("See", Signal.SEE),
        ("see also", Signal.SEE_ALSO),
        ("see, e.g.,", Signal.SEE_EG),
        ("e.g.,", Signal.EG),
        ("cf.", Signal.CF),
        ("but see", Signal.BUT_SEE),
        ("but cf.", Signal.BUT_CF),
        ("compare", Signal.COMPARE),
        ("contra", Signal.CONTRA),
        ("accord", Signal.ACCORD),
        ("see generally", Signal.SEE_GENERALLY),
        ("seen in", None),
        ("as reviewed by", None),
        ("", None),
    ],
)
def test_signal_of_prefix(prefix: str, signal: Signal | None) -> None:
    assert signal_of(prefix) is signal


@pytest.mark.parametrize(
    ("suffix", "locator"),
    [
        (", p. 42", "p. 42"),
        ("p.\u00a042", "p. 42"),
        (", pp. 3–5", "pp. 3–5"),
        (", chap. 3", "chap. 3"),
        (", sec. 2", "sec. 2"),
        (", §3", "§3"),
        (", 33", "33"),
        (", p. 42, emphasis added", "p. 42"),
        ("and elsewhere", ""),
        ("", ""),
    ],
)
def test_locator_of_suffix(suffix: str, locator: str) -> None:
    assert locator_of(suffix) == locator
