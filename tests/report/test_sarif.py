"""SARIF 2.1.0 for code scanning: valid against the official OASIS schema
(../shared/schemas/sarif-schema-2.1.0.json) for generated results and for real `check`, `latex`
and `verify` runs; one rule per kind of finding; levels from severities; fingerprints that
survive lines moving; paths as code scanning resolves them."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft4Validator

from citecore.cli import main
from citecore.model import (
    SEVERITY,
    Bibliography,
    CheckResult,
    Finding,
    FindingKind,
    Severity,
    SourceLocation,
)
from citecore.report.kinds import HELP
from citecore.report.sarif import FINGERPRINT, to_sarif_data
from tests.paths import CASES, SHARED
from tests.report.test_reports_generated import results

SCHEMA = json.loads((SHARED / "schemas" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
VALIDATOR = Draft4Validator(SCHEMA)


def _errors(log: object) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(log)]


@settings(max_examples=80, deadline=None)
@given(results(), st.booleans())
def test_logs_of_generated_results_are_valid_sarif(result: CheckResult, only_issues: bool) -> None:
    log = json.loads(json.dumps(to_sarif_data(result, only_issues, Path.cwd())))
    assert _errors(log) == []
    shown = [f for f in result.findings if not only_issues or f.severity is not Severity.INFO]
    assert len(log["runs"][0]["results"]) == len(shown)
    fingerprints = [r["partialFingerprints"][FINGERPRINT] for r in log["runs"][0]["results"]]
    assert len(set(fingerprints)) == len(fingerprints)  # every alert its own


def test_one_rule_per_kind_with_help_and_its_default_level() -> None:
    rules = to_sarif_data(CheckResult((), Bibliography(), (), {}, ()))["runs"][0]["tool"]["driver"][
        "rules"
    ]
    assert [r["id"] for r in rules] == [k.value for k in FindingKind]
    assert set(HELP) == set(FindingKind)
    levels = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
    for rule, kind in zip(rules, FindingKind, strict=True):
        assert rule["defaultConfiguration"]["level"] == levels[SEVERITY[kind]]
        assert rule["help"]["text"] and rule["shortDescription"]["text"]


PAPER, REFS = SourceLocation("paper.md", 7), SourceLocation("refs/main refs.bib", 3)
FINDINGS = (
    Finding(FindingKind.UNDEFINED, Severity.ERROR, "no entry", "ghost", PAPER),
    Finding(FindingKind.UNDEFINED, Severity.ERROR, "no entry", "ghost", replace(PAPER, line=9)),
    Finding(FindingKind.MISMATCH, Severity.ERROR, "year 2019 vs 2020", "lee", REFS),
    Finding(FindingKind.OUTAGE, Severity.WARNING, "Crossref did not answer"),
    Finding(FindingKind.UNUSED, Severity.INFO, "never cited", "old",
            SourceLocation("/elsewhere/x.bib", 1)),
)  # fmt: skip


def _results(findings: tuple[Finding, ...], root: Path) -> list[dict[str, object]]:
    result = CheckResult(("paper.md",), Bibliography(("refs/main refs.bib",)), (), {}, findings)
    runs: list[dict[str, object]] = to_sarif_data(result, root=root)["runs"]
    return runs[0]["results"]  # type: ignore[return-value]


def test_fingerprints_survive_text_moving_and_tell_repeats_apart(tmp_path: Path) -> None:
    before = _results(FINDINGS, tmp_path)
    moved = tuple(
        replace(f, location=replace(f.location, line=(f.location.line or 0) + 12))
        if f.location
        else f
        for f in FINDINGS
    )
    after = _results(moved, tmp_path)
    assert [r["partialFingerprints"] for r in after] == [r["partialFingerprints"] for r in before]
    assert before[0]["partialFingerprints"] != before[1]["partialFingerprints"]


def test_places_levels_and_messages(tmp_path: Path) -> None:
    shown = _results(FINDINGS, tmp_path)
    places = [r["locations"][0]["physicalLocation"] for r in shown]  # type: ignore[index]
    assert places[0] == {
        "artifactLocation": {"uri": "paper.md", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 7},
    }
    assert places[2]["artifactLocation"]["uri"] == "refs/main%20refs.bib"
    # Without a place, a finding is shown at the top of the document.
    assert places[3] == {
        "artifactLocation": {"uri": "paper.md", "uriBaseId": "%SRCROOT%"},
        "region": {"startLine": 1},
    }
    assert places[4]["artifactLocation"] == {"uri": "file:///elsewhere/x.bib"}
    assert [r["level"] for r in shown] == ["error", "error", "error", "warning", "note"]
    assert shown[2]["message"] == {"text": "lee: year 2019 vs 2020"}


def test_a_file_inside_the_root_given_absolute_is_named_relative(tmp_path: Path) -> None:
    inside = Finding(FindingKind.UNUSED, Severity.INFO, "m", "k",
                     SourceLocation(str(tmp_path / "sub" / "refs.bib"), 2))  # fmt: skip
    [shown] = _results((inside,), tmp_path)
    location = shown["locations"][0]["physicalLocation"]["artifactLocation"]  # type: ignore[index]
    assert location == {"uri": "sub/refs.bib", "uriBaseId": "%SRCROOT%"}


def _valid_run(args: list[str], out: Path) -> dict[str, object]:
    main([*args, "--offline", "-o", str(out)])  # the suffix picks SARIF
    log: dict[str, object] = json.loads(out.read_text(encoding="utf-8"))
    assert _errors(log) == []
    return log


def test_check_latex_and_verify_write_valid_sarif(tmp_path: Path) -> None:
    markdown = _valid_run(["check", str(CASES / "problems" / "paper.md")], tmp_path / "md.sarif")
    results = markdown["runs"][0]["results"]  # type: ignore[index]
    assert any(r["ruleId"] == "undefined" for r in results)
    latex = _valid_run(["latex", str(CASES / "latex-natbib" / "main.tex")], tmp_path / "tex.sarif")
    assert any(
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("intro.tex")
        for r in latex["runs"][0]["results"]  # type: ignore[index]
    )
    _valid_run(["verify", str(CASES / "latex-natbib" / "refs.bib")], tmp_path / "bib.sarif")


def test_sarif_on_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(CASES / "problems" / "paper.md"), "--offline", "-f", "sarif"])
    assert json.loads(capsys.readouterr().out)["version"] == "2.1.0"


@settings(max_examples=60, deadline=None)
@given(results(), st.randoms())
def test_fingerprints_do_not_depend_on_the_order_of_other_findings(
    result: CheckResult, random: Any
) -> None:
    shuffled = list(result.findings)
    random.shuffle(shuffled)
    reordered = replace(result, findings=tuple(shuffled))

    def prints(r: CheckResult) -> dict[tuple[str, str], int]:
        counts: dict[tuple[str, str], int] = {}
        for item in to_sarif_data(r, root=Path.cwd())["runs"][0]["results"]:
            key = (item["ruleId"], item["partialFingerprints"][FINGERPRINT])
            counts[key] = counts.get(key, 0) + 1
        return counts

    assert prints(reordered) == prints(result)
