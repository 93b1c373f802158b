"""The conference table on generated venue strings: every way a proceedings title or a citation
names a conference of the table is that conference, and never another one."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.verify.conferences import CONFERENCES, Conference
from citecore.verify.venues import Agreement, compare_venues, identify, without_crossref_doi

ORDINALS = {1: "st", 2: "nd", 3: "rd"}


def name_of(conference: Conference) -> str:
    """The conference's name as written, from the first pattern of its table row."""
    pattern = conference.names[0]
    plain = re.sub(r"\(\?!.*?\)|\\b|[\^$]", "", pattern).replace(" ?", " ")
    return plain.title().replace(" And ", " and ").replace(" Of ", " of ").replace(" On ", " on ")


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else ORDINALS.get(number % 10, "th")
    return f"{number}{suffix}"


def written_forms(conference: Conference, year: int, edition: int) -> list[str]:
    """How registries and writers name a conference's main track in a given year."""
    name, acronym = name_of(conference), conference.acronyms[0].upper()
    return [
        f"Proceedings of the {ordinal(edition)} {name}",
        f"{year} {name} ({acronym})",
        f"Proceedings of the {year} {name}",
        f"{acronym} {year}",
        f"{acronym}'{year % 100:02d}",
        f"{name} {year}",
    ]


conferences = st.sampled_from([c for c in CONFERENCES if not re.search(r"[|()\[\]]", c.names[0])])


@settings(max_examples=300, deadline=None)
@given(
    conferences,
    conferences,
    st.integers(min_value=1995, max_value=2026),
    st.integers(min_value=1, max_value=60),
    st.data(),
)
def test_every_written_form_names_its_conference(
    conference: Conference, other: Conference, year: int, edition: int, data: st.DataObject
) -> None:
    form = data.draw(st.sampled_from(written_forms(conference, year, edition)))
    assert identify(form).conference == conference, form
    for acronym in conference.acronyms:
        if len(acronym) > 2:
            assert compare_venues(acronym.upper(), [form]).agreement is Agreement.SAME, form
    if other != conference:
        outcome = compare_venues(other.acronyms[0].upper(), [form])
        assert outcome.agreement is Agreement.DIFFERENT, (other.key, form)


@given(conferences, st.sampled_from(["Workshop on Robust Learning at", "Findings of"]))
def test_workshops_and_findings_are_not_the_main_track(conference: Conference, prefix: str) -> None:
    venue = f"{prefix} {conference.acronyms[0].upper()} 2022"
    assert compare_venues(conference.acronyms[0].upper(), [venue]).agreement is Agreement.DIFFERENT


@pytest.mark.parametrize(
    ("venue", "year", "without"),
    [
        ("Advances in Neural Information Processing Systems", 2017, True),
        ("NeurIPS", 2023, True),
        ("ICLR", 2021, True),
        ("International Conference on Machine Learning", 2019, True),
        ("ICML", 2007, False),  # ACM published ICML 2004-2009, with DOIs
        ("ICML", None, False),  # no year: Crossref may hold it
        ("CVPR", 2016, False),  # IEEE gives CVPR papers DOIs
        ("Nature", 2020, False),
        ("", 2020, False),
    ],
)
def test_proceedings_without_crossref_dois(venue: str, year: int | None, without: bool) -> None:
    assert without_crossref_doi(venue, year) is without
