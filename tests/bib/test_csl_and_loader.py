"""CSL JSON, CSL YAML, inline references, and merging several bibliographies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.bib.loader import load_bibliographies, resolve_bibliography
from citecore.errors import BibliographyNotFoundError, InputError
from citecore.model import Person

CSL_ITEMS = [
    {
        "id": "doe2020",
        "type": "article-journal",
        "title": "A CSL article",
        "author": [
            {"family": "Doe", "given": "Jane"},
            {"family": "Neumann", "given": "John", "non-dropping-particle": "von"},
            {"literal": "World Health Organization"},
        ],
        "issued": {"date-parts": [[2020, 5, 1]]},
        "container-title": "Journal of Tests",
        "DOI": "10.1000/xyz",
        "PMID": "123456",
    },
    {"id": "raw2019", "title": "Raw date", "issued": {"raw": "2019-11"}},
    {"title": "no id at all"},
]

CSL_YAML = """---
references:
- id: yaml2018
  type: book
  title: A YAML book
  author:
  - family: Roe
    given: Richard
  issued: 2018
  ISBN: 0-201-52983-1
...
"""


def test_csl_json(tmp_path: Path) -> None:
    path = tmp_path / "refs.json"
    path.write_text(json.dumps(CSL_ITEMS, indent=2))
    bibliography = load_bibliographies([path])
    doe = bibliography.references["doe2020"]
    assert doe.authors == (
        Person("Doe", "Jane"),
        Person("Neumann", "John", particle="von"),
        Person("World Health Organization", is_organization=True),
    )
    assert (doe.year, doe.date, doe.venue, doe.doi, doe.pmid) == (
        2020,
        "2020-05-01",
        "Journal of Tests",
        "10.1000/xyz",
        "123456",
    )
    assert doe.location.line == 3
    assert bibliography.references["raw2019"].year == 2019
    assert [u.reason for u in bibliography.unparsed] == ["item 3 is not a CSL item with an id"]


def test_csl_yaml(tmp_path: Path) -> None:
    path = tmp_path / "refs.yaml"
    path.write_text(CSL_YAML)
    reference = load_bibliographies([path]).references["yaml2018"]
    assert (reference.title, reference.year, reference.isbn) == ("A YAML book", 2018, "0201529831")
    assert reference.location.line == 3


def test_inline_references_are_located_in_the_document() -> None:
    text = "---\nreferences:\n- id: inline1\n  title: Inline\n---\nBody [@inline1]\n"
    bibliography = load_bibliographies(
        [], [{"id": "inline1", "title": "Inline"}], inline_file="doc.md", inline_text=text
    )
    assert bibliography.references["inline1"].location.line == 3
    assert bibliography.sources == ("doc.md",)


def test_first_definition_wins_across_files(tmp_path: Path) -> None:
    first, second = tmp_path / "a.bib", tmp_path / "b.json"
    first.write_text("@misc{same, title = {From BibTeX}}\n")
    second.write_text(json.dumps([{"id": "same", "title": "From CSL"}]))
    bibliography = load_bibliographies([first, second])
    assert bibliography.references["same"].title == "From BibTeX"
    assert [(d.key, d.location.file) for d in bibliography.duplicates] == [("same", str(second))]


def test_missing_bibliography_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BibliographyNotFoundError, match=r"'nowhere\.bib' not found"):
        resolve_bibliography("nowhere.bib", [tmp_path])


def test_relative_bibliography_is_found_beside_the_document(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text("")
    assert resolve_bibliography("refs.bib", [tmp_path]) == tmp_path / "refs.bib"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("refs.ris", "TY  - JOUR", "unsupported bibliography format"),
        ("refs.json", "[{", "not valid CSL JSON"),
        ("refs.yaml", "references: [", "not valid CSL YAML"),
    ],
)
def test_unreadable_formats_name_the_file(
    tmp_path: Path, name: str, content: str, message: str
) -> None:
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(InputError, match=message) as raised:
        load_bibliographies([path])
    assert str(path) in str(raised.value)


def test_latin1_bibtex_is_read(tmp_path: Path) -> None:
    path = tmp_path / "old.bib"
    path.write_bytes("@misc{k, title = {Caf\xe9}}\n".encode("latin-1"))
    assert load_bibliographies([path]).references["k"].title == "Café"
