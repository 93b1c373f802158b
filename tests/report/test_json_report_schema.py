"""The JSON report holds to its published schema (docs/report.schema.json, the contract
docs/design.md states): the schema's vocabularies are the code's, and reports of generated
results and of a real run validate against it (jsonschema, draft 2020-12)."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from citecore.cli import main
from citecore.model import (
    CheckResult,
    CitationContext,
    CitationMode,
    FieldMismatch,
    FindingKind,
    GroundingStatus,
    Match,
    Outage,
    ReferenceFlag,
    ReferenceVerdict,
    Severity,
    Source,
)
from citecore.report.json_report import to_json_data
from tests.paths import CASES, CORPUS, REPO
from tests.report.test_reports_generated import TEXT, results

SCHEMA = json.loads((REPO / "docs" / "report.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)


def _errors(report: object) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(report)]


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize(
    ("where", "vocabulary"),
    [
        (("$defs", "reference", "properties", "verdict"), ReferenceVerdict),
        (("$defs", "grounding", "properties", "status"), GroundingStatus),
        (("$defs", "finding", "properties", "kind"), FindingKind),
        (("$defs", "finding", "properties", "severity"), Severity),
        (("$defs", "citation", "properties", "mode"), CitationMode),
        (("$defs", "citation", "properties", "context"), CitationContext),
        (("$defs", "reference", "properties", "flags", "items"), ReferenceFlag),
        (("$defs", "reference", "properties", "match", "properties", "source"), Source),
    ],
)
def test_the_schemas_vocabularies_are_the_codes(
    where: tuple[str, ...], vocabulary: type[Enum]
) -> None:
    node = SCHEMA
    for step in where:
        node = node[step]
    assert node["enum"] == [v.value for v in vocabulary]


MATCHES = st.builds(
    Match,
    st.sampled_from(Source),
    doi=st.text(max_size=20),
    title=TEXT,
    authors=st.lists(st.text(max_size=10), max_size=3).map(tuple),
    year=st.none() | st.integers(1500, 2100),
)
MISMATCHES = st.builds(FieldMismatch, st.sampled_from(["title", "year", "doi"]), TEXT, TEXT, TEXT)
OUTAGES = st.none() | st.builds(
    Outage, st.lists(st.text(max_size=8), max_size=3).map(tuple), network_down=st.booleans()
)


@settings(max_examples=80, deadline=None)
@given(results(), st.lists(st.tuples(MATCHES, MISMATCHES)), OUTAGES, st.booleans())
def test_reports_of_generated_results_validate(
    result: CheckResult,
    found: list[tuple[Match, FieldMismatch]],
    outage: Outage | None,
    only_issues: bool,
) -> None:
    references = dict(result.references)
    for (key, verdict), (match, mismatch) in zip(references.items(), found, strict=False):
        references[key] = type(verdict)(
            key, verdict.verdict, match=match, suggested=match, mismatches=(mismatch,)
        )
    result = CheckResult(
        result.documents,
        result.bibliography,
        result.citations,
        references,
        result.findings,
        result.grounding,
        outage,
    )
    assert _errors(json.loads(json.dumps(to_json_data(result, only_issues)))) == []


def test_a_real_runs_report_validates(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    main(["check", str(CASES / "problems" / "paper.md"), "-f", "json", "-o", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["citations"] and report["findings"]
    assert _errors(report) == []


def test_a_pdf_reference_list_report_validates_and_shows_each_entry(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pdf = CORPUS / "pdfs" / "he2016-deep-residual-learning-arXiv1512.03385.pdf"
    assert main(["verify", str(pdf), "--offline", "-f", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert _errors(report) == []
    first = report["references"][0]
    assert first["text"].startswith("Y. Bengio, P. Simard, and P. Frasconi. Learning long-term")
    assert first["entry"] == {
        "authors": ["Bengio, Y."],
        "year": 1994,
        "title": "Learning long-term dependencies with gradient descent is difficult",
        "venue": "IEEE Transactions on Neural Networks",
    }
    # Every finding about an entry read from a PDF says which entry: its printed text (the
    # table folds it within its column).
    for form, shown in (
        ("sarif", "printed as “Y. Bengio, P. Simard, and P. Frasconi."),
        ("markdown", "printed as “Y. Bengio, P. Simard, and P. Frasconi."),
        ("table", "“Y. Bengio, P. Simard,"),
    ):
        assert main(["verify", str(pdf), "--offline", "-f", form]) == 0
        assert shown in capsys.readouterr().out
