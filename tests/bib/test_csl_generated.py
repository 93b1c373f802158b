"""The CSL JSON and CSL YAML readers against their oracle on generated items: the generator
knows what each item means (title, names with particles and literal names, the date in any
of CSL's forms, identifiers); both readers must give it back, agree with each other, and place
each item at the line of its `id`."""

from __future__ import annotations

import json
import os
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.bib.csl import parse_csl_json, parse_csl_yaml
from citecore.model import Person

EXAMPLES = int(os.environ.get("CITECHECK_FUZZ_EXAMPLES", "100"))
TITLES = (
    st.text(
        st.characters(
            codec="utf-8", categories=("L", "N", "Zs"), exclude_characters="\x85\u2028\u2029"
        ),
        min_size=1,
        max_size=40,
    )
    .map(lambda t: " ".join(t.split()))
    .filter(bool)
)
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")  # fmt: skip


@st.composite
def name(draw: st.DrawFn) -> tuple[dict[str, str], Person]:
    """(CSL name object, the person it means)."""
    if draw(st.integers(0, 7)) == 0:
        literal = draw(st.sampled_from(("World Health Organization", "CERN", "The Ensembl Team")))
        return {"literal": literal}, Person(literal, is_organization=True)
    family = draw(st.sampled_from(("Smith", "Nguyen", "Müller", "Okafor", "Ivanova")))
    given = draw(st.sampled_from(("Ada", "Jean-Luc", "Zoë", "K.", "")))
    data = {"family": family}
    if given:
        data["given"] = given
    particle = draw(st.sampled_from(("", "van", "de la")))
    if particle:
        data["non-dropping-particle"] = particle
    return data, Person(family, given, particle)


@st.composite
def issued(draw: st.DrawFn) -> tuple[dict[str, Any], int, str]:
    """(CSL `issued`, the year, the date as "YYYY[-MM[-DD]]")."""
    year = draw(st.integers(1900, 2025))
    month = draw(st.integers(1, 12))
    day = draw(st.integers(1, 28))
    form = draw(st.sampled_from(("y", "ym", "ymd", "raw", "literal", "string-parts")))
    if form == "y":
        return {"date-parts": [[year]]}, year, str(year)
    if form == "ym":
        return {"date-parts": [[year, month]]}, year, f"{year}-{month:02d}"
    if form == "ymd":
        return {"date-parts": [[year, month, day]]}, year, f"{year}-{month:02d}-{day:02d}"
    if form == "string-parts":  # some exporters write the parts as strings
        return {"date-parts": [[str(year), str(month)]]}, year, f"{year}-{month:02d}"
    if form == "raw":
        return {"raw": f"{year}-{month:02d}-{day:02d}"}, year, f"{year}-{month:02d}-{day:02d}"
    return {"literal": f"{MONTH_NAMES[month - 1]} {year}"}, year, f"{year}-{month:02d}"


@st.composite
def items(draw: st.DrawFn) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """[(CSL item, what it means)]."""
    made = []
    for index in range(draw(st.integers(1, 5))):
        names = draw(st.lists(name(), min_size=0, max_size=4))
        date, year, iso = draw(issued())
        title = draw(TITLES)
        item: dict[str, Any] = {
            "id": f"item{index}-{draw(st.sampled_from(('a', 'b:c', 'd_e')))}",
            "type": draw(st.sampled_from(("article-journal", "paper-conference", "book"))),
            "title": title,
            "issued": date,
        }
        if names:
            item["author"] = [n for n, _ in names]
        doi = ""
        if draw(st.booleans()):
            doi = f"10.{draw(st.integers(1000, 9999))}/csl.{index}"
            item["DOI"] = draw(st.sampled_from((doi, f"https://doi.org/{doi}")))
        meant = {
            "title": title,
            "people": [p for _, p in names],
            "year": year,
            "date": iso,
            "doi": doi,
        }
        made.append((item, meant))
    return made


def _check(references: list[Any], made: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    assert [r.key for r in references] == [item["id"] for item, _ in made]
    for reference, (_, meant) in zip(references, made, strict=True):
        assert reference.title == meant["title"]
        assert reference.year == meant["year"]
        assert reference.date == meant["date"]
        assert reference.doi == meant["doi"]
        got = [(p.family, p.given, p.particle, p.is_organization) for p in reference.authors]
        assert got == [(p.family, p.given, p.particle, p.is_organization) for p in meant["people"]]


@settings(max_examples=EXAMPLES, deadline=None)
@given(items(), st.sampled_from((None, 2)))
def test_csl_json_gives_back_what_was_meant(made: list[Any], indent: int | None) -> None:
    text = json.dumps([item for item, _ in made], ensure_ascii=False, indent=indent)
    references, unparsed = parse_csl_json(text, "refs.json")
    assert unparsed == []
    _check(references, made)
    for reference in references:
        line = text.splitlines()[(reference.location.line or 1) - 1]
        assert json.dumps(reference.key) in line  # placed at its id


@settings(max_examples=EXAMPLES, deadline=None)
@given(items(), st.booleans())
def test_csl_yaml_gives_back_what_was_meant(made: list[Any], wrapped: bool) -> None:
    data: Any = [item for item, _ in made]
    text = yaml.safe_dump({"references": data} if wrapped else data, allow_unicode=True)
    references, unparsed = parse_csl_yaml(text, "refs.yaml")
    assert unparsed == []
    _check(references, made)
    json_references, _ = parse_csl_json(json.dumps(data), "refs.json")
    assert [r.title for r in references] == [r.title for r in json_references]
