"""Extraction against what LaTeX itself records (.aux for natbib/BibTeX, .bcf for
biblatex/biber) on generated projects (hypothesis). CI runs a bounded number;
bench/latex_differential.py runs hundreds."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from tests.conftest import requires_latex
from tests.generated_latex import Project, disagreements, project


@requires_latex
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(project())
def test_extraction_equals_what_latex_records(generated: Project) -> None:
    assert disagreements(generated) == [], (generated.main, generated.parts)
