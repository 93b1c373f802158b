"""The matching rules, table-driven on real-world name, title and venue forms."""

from __future__ import annotations

import pytest

from citecore.bib.bibtex import parse_bibtex
from citecore.bib.names import parse_bibtex_name
from citecore.model import Person, Reference, SourceLocation
from citecore.registries.record import Source, WorkRecord
from citecore.verify.compare import (
    compare,
    compare_titles,
    is_bare_acronym,
    same_person,
    same_venue,
)


@pytest.mark.parametrize(
    ("cited", "found", "same"),
    [
        ("Attention Is All You Need", "Attention is all you need", True),
        (
            "{BERT}: Pre-training of Deep Bidirectional Transformers",
            "BERT: Pretraining of deep bidirectional transformers",
            True,
        ),
        (
            "Deep Residual Learning for Image Recognition",
            "Deep residual learning for image recognition: a study",
            True,
        ),  # subtitle omitted
        ("Deep Learning", "Deep learning: a critical appraisal", False),  # main title too short
        ("The α-decay of heavy nuclei", "The alpha-decay of heavy nuclei", True),
        ("Café society in Zürich", "Cafe Society in Zurich", True),
        ("Generative adversarial nets", "Generative adversarial networks", False),
        ("Generative adversarial nets", "Conditional image synthesis", False),
    ],
)
def test_titles(cited: str, found: str, same: bool) -> None:
    assert compare_titles(cited, found).same is same


def test_title_similarity_separates_near_misses_from_other_works() -> None:
    near = compare_titles("Generative adversarial nets", "Generative adversarial networks")
    other = compare_titles("Generative adversarial nets", "Conditional image synthesis")
    assert near.similarity >= 0.75 > other.similarity


@pytest.mark.parametrize(
    ("cited", "found", "same"),
    [
        ("LeCun, Yann", Person("LeCun", "Yann"), True),
        ("Yann LeCun", Person("LeCun", "Y."), True),
        ("LeCun Y", Person("LeCun", "Yann"), True),
        (r"Heged{\H u}s, P{\'e}ter", Person("Hegedűs", "Péter"), True),
        ("von Neumann, John", Person("von Neumann", "John"), True),
        ("von Neumann, John", Person("Neumann", "J."), True),
        ("Maria de la Cruz", Person("de la Cruz", "Maria"), True),
        ("García Márquez, Gabriel", Person("Márquez", "G."), True),
        ("Smith, John", Person("Smyth", "John"), False),
        (
            "{World Health Organization}",
            Person("World Health Organization", is_organization=True),
            True,
        ),
    ],
)
def test_people(cited: str, found: Person, same: bool) -> None:
    assert same_person(parse_bibtex_name(cited), found) is same


@pytest.mark.parametrize(
    ("cited", "found", "same"),
    [
        ("Nature", "Nature", True),
        ("Nature", "Nature Communications", False),
        ("Proc. Natl. Acad. Sci.", "Proceedings of the National Academy of Sciences", True),
        ("PLoS ONE", "PLOS ONE", True),
        ("J. Mach. Learn. Res.", "Journal of Machine Learning Research", True),
        (
            "Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
            "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
            True,
        ),
        ("Physical Review Letters", "Physical Review B", False),
    ],
)
def test_venues(cited: str, found: str, same: bool) -> None:
    assert same_venue(cited, found) is same


@pytest.mark.parametrize(
    ("venue", "bare"),
    [("NeurIPS", True), ("CVPR 2016", True), ("ICLR", True), ("Nature", False), ("Science", False)],
)
def test_bare_acronyms(venue: str, bare: bool) -> None:
    assert is_bare_acronym(venue) is bare


def reference(bib: str) -> Reference:
    return parse_bibtex(bib, "r.bib").references[0]


RECORD = WorkRecord(
    Source.CROSSREF,
    "Deep learning",
    (Person("LeCun", "Yann"), Person("Bengio", "Yoshua"), Person("Hinton", "Geoffrey")),
    2015,
    "Nature",
    "10.1038/nature14539",
)


@pytest.mark.parametrize(
    ("bib", "fields", "notes"),
    [
        (
            "@article{k, title={Deep Learning}, author={LeCun, Yann and Bengio, Yoshua}, "
            "journal={Nature}, year=2015}",
            [],
            0,
        ),
        ("@article{k, title={Deep Learning}, author={LeCun, Yann and others}, year=2016}", [], 1),
        (
            "@article{k, title={Deep Learning}, author={Bengio, Yoshua and LeCun, Yann}, "
            "year=2015}",
            ["first_author"],
            0,
        ),
        (
            "@article{k, title={Deep Learning}, author={LeCun, Y. and Smith, J.}, year=2015}",
            ["authors"],
            0,
        ),
        ("@article{k, title={Deep Learning}, author={LeCun, Yann}, year=2012}", ["year"], 0),
        (
            "@article{k, title={Deep Learning}, author={LeCun, Yann}, "
            "journal={Nature Communications}}",
            ["venue"],
            0,
        ),
        ("@article{k, title={Deep Learning}, author={LeCun, Yann}, journal={NeurIPS}}", [], 1),
        ("@article{k, title={Deep Learning}, journal={arXiv preprint arXiv:1234.56789}}", [], 0),
        ("@article{k, title={Deep Learning Revisited}, author={LeCun, Yann}}", ["title"], 0),
    ],
)
def test_field_comparison(bib: str, fields: list[str], notes: int) -> None:
    result = compare(reference(bib), RECORD)
    assert [m.field for m in result.mismatches] == fields
    assert len(result.notes) == notes


def test_arxiv_record_venues_are_not_compared() -> None:
    preprint = WorkRecord(
        Source.ARXIV, "Deep learning", (Person("LeCun", "Yann"),), 2015, "some journal ref"
    )
    ref = Reference(
        "k",
        "article",
        SourceLocation("r.bib", 1),
        "Deep Learning",
        (Person("LeCun", "Yann"),),
        venue="Nature",
    )
    assert compare(ref, preprint).mismatches == ()
