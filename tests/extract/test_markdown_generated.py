"""Extraction against pandoc's own AST on generated documents (hypothesis): every construct
able to hold a citation, mixed. CI runs a bounded number; bench/extraction_differential.py
runs thousands."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from tests.generated_markdown import disagreements, document


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document())
def test_extraction_equals_pandocs_ast(text: str) -> None:
    assert disagreements(text) == [], text
