"""Options: layers, precedence and validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.errors import OptionsError
from citecore.model import FindingKind
from citecore.options import ReportFormat, build_options, environment_layer, project_layer
from citecore.policy import failing_kinds


def test_later_layers_win() -> None:
    options = build_options(
        {"strict": True, "format": "json"},  # environment
        {"strict": "false", "report": "R.md"},  # metadata
        {"fail-on": "undefined,duplicate_key"},  # command line
    )
    assert options.strict is False
    assert options.report == Path("R.md")
    assert options.report_format is ReportFormat.JSON
    assert options.fail_on == frozenset({FindingKind.UNDEFINED, FindingKind.DUPLICATE_KEY})


def test_environment_layer_reads_only_option_names() -> None:
    layer = environment_layer(
        {"CITECHECK_STRICT": "1", "CITECHECK_FAIL_ON": "unparsed", "CITECHECK_PANDOC": "/x"}
    )
    assert layer == {"strict": "1", "fail_on": "unparsed"}


def test_project_file(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text('[citecheck]\nstrict = true\nfail-on = ["unparsed"]\n')
    options = build_options(project_layer(tmp_path))
    assert options.strict
    assert options.fail_on == frozenset({FindingKind.UNPARSED})
    assert project_layer(tmp_path / "elsewhere") == {}


@pytest.mark.parametrize(
    ("layer", "message"),
    [
        ({"strict": "maybe"}, "expected true or false"),
        ({"fail-on": ["undefined", "typo"]}, "unknown finding kind 'typo'"),
        ({"format": "pdf"}, "unknown report format"),
        ({"colour": "red"}, "unknown citecheck option 'colour'"),
        ({"timeout": "soon"}, "expected seconds"),
        ({"timeout": 0}, "expected a positive number"),
    ],
)
def test_bad_values_are_one_clear_error(layer: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        build_options(layer)


def test_strict_fails_on_error_kinds_and_fail_on_overrides() -> None:
    assert failing_kinds(build_options({})) == frozenset()
    strict = failing_kinds(build_options({"strict": True}))
    assert FindingKind.UNDEFINED in strict and FindingKind.UNUSED not in strict
    assert failing_kinds(build_options({"strict": True, "fail_on": "unused"})) == {
        FindingKind.UNUSED
    }
