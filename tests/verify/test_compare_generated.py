"""The matching rules as a librarian states them, on the real works of the registry world
(../shared/fixtures/world/, Crossref records) and references generated from them (hypothesis):

- a reference a careful writer made from the record (any casing, protective braces, a trailing
  period, names written "Family, Given", "Given Family" or with initials, a long author list cut
  with "and others", the journal named in full or abbreviated) is not a mismatch: false
  accusations are the second enemy;
- the same reference with one thing changed the way fabricated references change it (a year off
  by more than one, another work's title, an author the work does not have) is a mismatch on
  that field.
"""

from __future__ import annotations

import json
from functools import cache

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citecore.bib.bibtex import parse_bibtex
from citecore.model import Person, Reference
from citecore.registries.record import WorkRecord
from citecore.registries.snapshot_build import parse_line
from citecore.verify.compare import compare, compare_titles
from tests.world import WORLD

_UNWRITABLE = set("{}\\~^<>")  # titles a writer would need LaTeX markup for: left out


@cache
def records() -> tuple[WorkRecord, ...]:
    """Crossref records of the world a reference can be written from by hand."""
    found = []
    with (WORLD / "crossref-works.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            record = parse_line(line)
            if (
                record is not None
                and len(record.title.split()) >= 3
                and record.year
                and record.authors
                and all(a.family and not a.is_organization for a in record.authors)
                and not _UNWRITABLE & set(record.title + "".join(a.family for a in record.authors))
                and not json.loads(line).get("subtitle")
            ):
                found.append(record)
    return tuple(found)


def _escape(text: str) -> str:
    for special in "&%$#_":
        text = text.replace(special, "\\" + special)
    return text


@st.composite
def written_title(draw: st.DrawFn, title: str) -> str:
    words = title.split()
    style = draw(st.sampled_from(["as is", "lower", "title"]))
    if style == "lower":
        words = [w.lower() for w in words]
    elif style == "title":
        words = [w[:1].upper() + w[1:] for w in words]
    protected = draw(st.sets(st.integers(0, len(words) - 1), max_size=2))
    words = [f"{{{w}}}" if i in protected else w for i, w in enumerate(words)]
    return _escape(" ".join(words)) + draw(st.sampled_from(["", "."]))


@st.composite
def written_name(draw: st.DrawFn, person: Person) -> str:
    family = " ".join(p for p in (person.particle, person.family) if p)
    forms = [f"{family}, {person.given}" if person.given else family]
    if person.given:
        initials = " ".join(f"{part[0]}." for part in person.given.replace("-", " ").split())
        forms.append(f"{family}, {initials}")
        if " " not in family:
            forms.append(f"{person.given} {family}")
    return _escape(draw(st.sampled_from(forms)))


@st.composite
def written(draw: st.DrawFn) -> tuple[WorkRecord, dict[str, str]]:
    """A record of the world and the BibTeX fields a careful writer gives it."""
    record = draw(st.sampled_from(records()))
    count = len(record.authors)
    kept = draw(st.integers(1, count)) if count > 3 else count
    names = [draw(written_name(person)) for person in record.authors[:kept]]
    if kept < count:
        names.append("others")
    fields = {
        "title": draw(written_title(record.title)),
        "author": " and ".join(names),
        "year": str(record.year),
    }
    if record.venue and draw(st.booleans()):  # the journal's name, or an abbreviation of it
        fields["journal"] = _escape(draw(st.sampled_from([record.venue, *record.venue_names])))
    return record, fields


def _reference(fields: dict[str, str]) -> Reference:
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items())
    parsed = parse_bibtex(f"@article{{k,\n{body}\n}}\n", "refs.bib")
    assert not parsed.unparsed, fields
    return parsed.references[0]


@settings(max_examples=150, deadline=None)
@given(written())
def test_a_reference_written_from_the_record_is_no_mismatch(
    case: tuple[WorkRecord, dict[str, str]],
) -> None:
    record, fields = case
    assert compare(_reference(fields), record).mismatches == (), fields


@settings(max_examples=80, deadline=None)
@given(written(), st.integers(2, 15), st.booleans())
def test_a_year_off_by_more_than_one_is_a_year_mismatch(
    case: tuple[WorkRecord, dict[str, str]], shift: int, earlier: bool
) -> None:
    record, fields = case
    assert record.year is not None
    fields["year"] = str(record.year - shift if earlier else record.year + shift)
    fields.pop("journal", None)  # "2023 IEEE/CVF CVPR" would rightly disagree with the year too
    assert [m.field for m in compare(_reference(fields), record).mismatches] == ["year"]


@settings(max_examples=80, deadline=None)
@given(written(), st.data())
def test_another_works_title_is_a_title_mismatch(
    case: tuple[WorkRecord, dict[str, str]], data: st.DataObject
) -> None:
    record, fields = case
    other = data.draw(st.sampled_from(records()))
    assume(not compare_titles(other.title, record.title).same)
    fields["title"] = _escape(other.title)
    assert "title" in [m.field for m in compare(_reference(fields), record).mismatches]


@settings(max_examples=80, deadline=None)
@given(written(), st.sampled_from(["Zyxwvut, Quentin", "Oyelaran-Pfeffer, M.", "Quibble, A. B."]))
def test_an_author_the_work_does_not_have_is_an_author_mismatch(
    case: tuple[WorkRecord, dict[str, str]], invented: str
) -> None:
    record, fields = case
    fields["author"] = f"{invented} and {fields['author']}"
    fields_named = {m.field for m in compare(_reference(fields), record).mismatches}
    assert fields_named & {"authors", "first_author"}
