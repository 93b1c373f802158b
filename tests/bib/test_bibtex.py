"""BibTeX/BibLaTeX reading: strings, crossref, LaTeX decoding, names, malformed entries."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.bib.bibtex import parse_bibtex
from citecore.bib.names import parse_bibtex_name
from citecore.bib.parsed import BibtexFile
from citecore.model import Person
from tests.conftest import CORPUS, run_pandoc

BIB = r"""
@string{jml = "Journal of Machine Learning"}
@article{hegedus2020,
  author = {Heged{\H u}s, P{\'e}ter and {World Health Organization} and von Neumann, John},
  title = {A {GPU} study of $\alpha$-decay},
  subtitle = {With {\"U}berraschungen},
  journal = jml # " Research",
  month = mar,
  year = 2020,
  doi = {https://doi.org/10.1234/ABC.5},
  eprint = {2001.00001v2}, archivePrefix = {arXiv},
  file = {:papers/hegedus.pdf:PDF}
}
@article{broken,
  author = {Smith, J.,
  title = {Broken
  year = 2019

@incollection{child, author = {Child, C.}, title = {A chapter}, crossref = {parent}, pages = {1--9}}
@book{parent, title = {The Parent Book}, editor = {Ed, E.}, publisher = {Pub}, year = {2001}}
@misc{arxivonly, title = {Preprint}, journal = {arXiv preprint arXiv:1706.03762}, year = {2017}}
@misc{dated, title = {Dated}, date = {2021-05-04}}
@article{hegedus2020, title = {again}}
@article{nodelim, title = {Fine}, author = Smith and Jones}
@article{emptyyear, title = {Fine}, year = ,}
"""


@pytest.fixture(scope="module")
def parsed() -> BibtexFile:
    return parse_bibtex(BIB, "refs.bib")


def test_fields_are_expanded_and_decoded(parsed: BibtexFile) -> None:
    ref = next(r for r in parsed.references if r.key == "hegedus2020")
    assert ref.title == "A GPU study of α-decay: With Überraschungen"
    assert ref.venue == "Journal of Machine Learning Research"
    assert (ref.year, ref.date) == (2020, "2020-03")
    assert ref.doi == "10.1234/ABC.5"
    assert ref.arxiv_id == "2001.00001v2"
    assert ref.files == (":papers/hegedus.pdf:PDF",)
    assert ref.location.line == 3
    assert ref.authors == (
        Person("Hegedűs", "Péter"),
        Person("World Health Organization", is_organization=True),
        Person("Neumann", "John", particle="von"),
    )


def test_malformed_entry_is_unparsed_and_the_rest_is_read(parsed: BibtexFile) -> None:
    keys = [r.key for r in parsed.references]
    assert keys == ["hegedus2020", "child", "parent", "arxivonly", "dated"]
    unparsed = {u.key: u for u in parsed.unparsed}
    assert set(unparsed) == {"broken", "nodelim", "emptyyear"}
    assert unparsed["broken"].location.line == 14
    assert unparsed["broken"].reason.startswith("line 15: a value opened with `{`")
    assert "Smith and Jones" in unparsed["nodelim"].reason
    assert unparsed["emptyyear"].reason == "field 'year' has no value"


def test_duplicate_key_is_kept_as_duplicate(parsed: BibtexFile) -> None:
    assert [(d.key, d.title, d.location.line) for d in parsed.duplicates] == [
        ("hegedus2020", "again", 23)
    ]


def test_crossref_inherits_from_parent(parsed: BibtexFile) -> None:
    child = next(r for r in parsed.references if r.key == "child")
    assert (child.title, child.venue, child.year, child.publisher) == (
        "A chapter",
        "The Parent Book",
        2001,
        "Pub",
    )
    assert child.editors == (Person("Ed", "E."),)


def test_arxiv_in_journal_field_and_biblatex_date(parsed: BibtexFile) -> None:
    refs = {r.key: r for r in parsed.references}
    assert refs["arxivonly"].arxiv_id == "1706.03762"
    assert (refs["dated"].year, refs["dated"].date) == (2021, "2021-05-04")


@pytest.mark.parametrize(
    ("name", "person"),
    [
        ("LeCun, Yann", Person("LeCun", "Yann")),
        ("Yann LeCun", Person("LeCun", "Yann")),
        ("{World Health Organization}", Person("World Health Organization", is_organization=True)),
        ("von Neumann, John", Person("Neumann", "John", particle="von")),
        ("Maria de la Cruz", Person("Cruz", "Maria", particle="de la")),
        ("Ford, Jr., Henry", Person("Ford", "Henry", suffix="Jr.")),
        (r"M{\"u}ller, J{\"o}rg", Person("Müller", "Jörg")),
    ],
)
def test_name_forms(name: str, person: Person) -> None:
    assert parse_bibtex_name(name) == person


BIB_FILES = sorted(CORPUS.glob("*/*/*.bib")) + sorted(CORPUS.glob("*/*/*/*.bib"))


@pytest.mark.parametrize("bib", BIB_FILES, ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_bibliographies_have_the_keys_pandoc_reads(bib: Path) -> None:
    """Pandoc's own BibTeX reader is the oracle for which keys a file defines."""
    parsed = parse_bibtex(bib.read_text(encoding="utf-8", errors="replace"), str(bib))
    completed = run_pandoc("-f", "biblatex", bib.name, "-t", "csljson", cwd=bib.parent, check=False)
    if completed.returncode != 0:
        pytest.skip(f"pandoc itself cannot read {bib.name}")
    pandoc_keys = {item["id"] for item in json.loads(completed.stdout)}
    ours = {r.key for r in parsed.references} | {u.key for u in parsed.unparsed if u.key}
    assert ours >= pandoc_keys


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "@article{a,\n  title = {One},\n  author {Smith, J},\n  year = 2020\n}\n",
            "line 3: field 'author' has no `=` before its value",
        ),
        (
            "@article{b,\n  title = {Two\n  year = 2020\n}\n@misc{c, title={C}}\n",
            'line 2: a value opened with `{` or `"` is not closed before the next entry starts',
        ),
        ("@article{c\n  title = {Three},\n}\n", "line 1: no comma after the key"),
        (
            '@article{d,\n  title = "Four,\n  year = 2021,\n}\n',
            'line 2: a value opened with `{` or `"` is not closed before the file ends',
        ),
    ],
)
def test_an_entry_bibtex_rejects_is_said_in_the_writers_words_at_its_line(
    text: str, reason: str
) -> None:
    unparsed = parse_bibtex(text, "refs.bib").unparsed[0]
    assert unparsed.reason.startswith(reason)
    assert "entry key" not in unparsed.reason  # the parser's own words are not the writer's
