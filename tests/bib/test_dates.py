"""Dates as bibliographies write them, and the cut-off rule exactly as docs/design.md states it:
a cited work must strictly predate the cut-off; a year alone counts as December 31, a year and
month as the 1st of the month."""

from __future__ import annotations

import pytest

from citecore.bib.bibtex import month_number, parse_bibtex
from citecore.bib.csl import csl_to_reference
from citecore.model import SourceLocation
from citecore.pool.policy import before_cutoff, cutoff_date

CUTOFF = cutoff_date("2024-10-01")


@pytest.mark.parametrize(
    ("fields", "date", "before"),
    [
        ("year = 2024, month = sep", "2024-09", True),
        ("year = 2024, month = {sep}", "2024-09", True),
        ("year = 2024, month = {Sep.}", "2024-09", True),
        ("year = 2024, month = {September}", "2024-09", True),
        ("year = 2024, month = {sept}", "2024-09", True),
        ("year = 2024, month = 9", "2024-09", True),
        ("year = 2024, month = {09}", "2024-09", True),
        ("year = 2024, month = oct", "2024-10", False),  # October 1st is not before October 1st
        ("year = 2024, month = {Oktober}", "2024-10", False),
        ("year = 2024, month = {Sep--Oct}", "2024-09", True),
        ("year = 2024, month = {Spring}", "", False),  # no month: December 31
        ("year = 2024", "", False),
        ("year = 2023", "", True),
        ("date = {2024}", "2024", False),
        ("date = {2024-09}", "2024-09", True),
        ("date = {2024-09-30}", "2024-09-30", True),
        ("date = {2024-10-01}", "2024-10-01", False),
        ("date = {2024-09/2024-11}", "2024-09/2024-11", True),  # a range began in September
        ("date = {2024-10-01/2024-10-03}", "2024-10-01/2024-10-03", False),
    ],
)
def test_bibtex_dates_and_the_cutoff(fields: str, date: str, before: bool) -> None:
    text = f"@string{{sep = {{September}}}}\n@article{{k, title = {{T}}, {fields}}}\n"
    (reference,) = parse_bibtex(text, "refs.bib").references
    assert reference.date == date
    assert before_cutoff(reference.date, reference.year, CUTOFF) is before


@pytest.mark.parametrize(
    ("issued", "date", "before"),
    [
        ({"date-parts": [[2024, 9]]}, "2024-09", True),
        ({"date-parts": [[2024, 9, 30]]}, "2024-09-30", True),
        ({"date-parts": [[2024, 10, 1]]}, "2024-10-01", False),
        ({"date-parts": [[2024]]}, "2024", False),
        ({"raw": "2024-09"}, "2024-09", True),
        ({"literal": "September 2024"}, "2024-09", True),
        ({"literal": "Oct. 2024"}, "2024-10", False),
        ("2023", "2023", True),
    ],
)
def test_csl_dates_and_the_cutoff(issued: object, date: str, before: bool) -> None:
    item = {"id": "k", "type": "article-journal", "title": "T", "issued": issued}
    reference = csl_to_reference(item, SourceLocation("refs.json"))
    assert reference.date == date
    assert before_cutoff(reference.date, reference.year, CUTOFF) is before


@pytest.mark.parametrize(
    ("text", "month"),
    [
        ("9", 9),
        ("09", 9),
        ("sep", 9),
        ("Sep.", 9),
        ("September", 9),
        ("septembre", 9),
        ("März", 3),
        ("13", None),
        ("Spring", None),
        ("", None),
    ],
)
def test_month_names(text: str, month: int | None) -> None:
    assert month_number(text) == month


@pytest.mark.parametrize(
    ("cutoff", "first_day"),
    [("2024", "2024-01-01"), ("2024-10", "2024-10-01"), ("2024-10-15", "2024-10-15")],
)
def test_cutoff_forms(cutoff: str, first_day: str) -> None:
    assert cutoff_date(cutoff).isoformat() == first_day
