"""A bug while checking one reference is reported as a bug in citecheck: the rest is checked, the
CLI exits 70, a lenient build warns and goes on, and nothing tells the writer to wait for a
registry outage to pass."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import citecore.verify.resolve as resolve
from citecore.cli import main
from citecore.filter.run import run_filter
from citecore.model import ReferenceFlag, ReferenceVerdict
from citecore.pandoc.reader import read_markdown
from citecore.registries.settings import ClientSettings
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator
from tests.verify.test_resolve import ELIFE, FAST, reference, serve_elife


def _broken_for(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Judging the reference `key` raises, as a bug in a parser or a rule would."""
    real: Callable[..., Any] = resolve.verify_reference

    async def judged(ref: Any, *args: Any, **kwargs: Any) -> Any:
        if ref.key == key:
            raise TypeError("'NoneType' object is not subscriptable")
        return await real(ref, *args, **kwargs)

    monkeypatch.setattr(resolve, "verify_reference", judged)


def test_one_reference_hits_a_bug_the_others_are_judged(
    emulator: RegistryEmulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve_elife(emulator)
    fine = reference(ELIFE)
    buggy = reference("@article{buggy, title = {Anything}, author = {Doe, Jane}}")
    _broken_for("buggy", monkeypatch)
    settings = ClientSettings.from_environment(emulator.environment(), policies=FAST)
    verifier = RegistryVerifier(settings, None)
    results = verifier.verify([fine, buggy])
    assert results[fine.key].verdict is ReferenceVerdict.VERIFIED
    bug = results["buggy"]
    assert bug.verdict is ReferenceVerdict.ERROR
    assert bug.flags == frozenset({ReferenceFlag.INTERNAL_ERROR})
    assert bug.notes == ("TypeError: 'NoneType' object is not subscriptable",)
    assert verifier.outage is None  # no registry failed: nothing to wait out


def test_check_says_it_is_a_bug_and_exits_70(
    problems: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _broken_for("he2016deep", monkeypatch)
    assert main(["check", "--format", "json", str(problems / "paper.md")]) == 70
    out = capsys.readouterr().out
    assert '"kind": "internal_error"' in out and "a bug in citecheck" in out
    assert "ghost2020" in out  # the rest of the document was checked
    assert "run again later" not in out and '"kind": "outage"' not in out


def test_a_lenient_build_warns_and_goes_on_a_strict_one_stops(
    problems: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _broken_for("he2016deep", monkeypatch)
    monkeypatch.chdir(problems)
    stderr = io.StringIO()
    outcome = run_filter(read_markdown(problems / "paper.md"), "html", stderr=stderr)
    assert outcome.exit_code == 0
    assert "[internal_error] he2016deep: not checked: a bug in citecheck" in stderr.getvalue()
    monkeypatch.setenv("CITECHECK_STRICT", "1")
    strict = run_filter(read_markdown(problems / "paper.md"), "html", stderr=io.StringIO())
    assert strict.exit_code == 70
