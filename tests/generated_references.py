"""Generated bibliographic records printed by citeproc itself: the oracle for reading printed
references. A hypothesis strategy draws CSL JSON records (journal articles, books, conference
papers; names with particles, hyphens, accents and initials, and after the first author the odd
names real bibliographies hold; titles with colons and question marks); `printed_list` has
pandoc's citeproc print them in a CSL style as plain text, which the reference-list reader must
then read back into the same title, first author and year.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from citecore.pandoc.reader import pandoc_path
from tests.paths import SHARED
from tests.rendered_reflists import Expected

_FAMILIES = [
    ("", "Andrews"), ("", "Lüdecke"), ("", "O’Brien"), ("", "Vidal-Núñez"), ("", "Zhang"),
    ("van der", "Walt"), ("de", "Souza"), ("", "Kruschke"), ("", "Smith"), ("", "Müller"),
    ("", "Nguyen"), ("", "Wagenmakers"), ("von", "Neumann"), ("", "Al-Rfou"), ("", "Lee"),
]  # fmt: skip
_GIVENS = ["Mark", "Jean-Paul", "Li", "Anna K.", "E.-J.", "Paul-Christian", "Yoshua", "María"]
_WORDS = (
    "bayesian inference model data analysis learning network deep structure equation "
    "estimation sampling method robust efficient sparse climate protein galaxy survey "
    "reproducibility evidence measurement theory algorithm optimization"
).split()
_VENUES = ["Journal of Statistical Software", "Nature", "PLOS ONE", "Psychological Methods"]


@st.composite
def _person(draw: st.DrawFn) -> dict[str, str]:
    particle, family = draw(st.sampled_from(_FAMILIES))
    person = {"family": family, "given": draw(st.sampled_from(_GIVENS))}
    if particle:
        person["non-dropping-particle"] = particle
    return person


# Names that bibliographies hold after the first author and that no name form describes: a
# group, a single name, initials in lower case or a digit typed for a letter, a particle
# written as a suffix ("Rijn, van de, M."), "et al." typed as a name.
_ODD_NAMES: list[dict[str, str]] = [
    {"literal": "leaflet contributors"},
    {"literal": "the dc.js Developers"},
    {"literal": "The Astropy Collaboration"},
    {"family": "Prabhat"},
    {"family": "Murray", "given": "J. m."},
    {"family": "Ghattas", "given": "0."},
    {"family": "Rijn", "given": "M.", "suffix": "van de"},
    {"family": "al.", "given": "et"},
]


@st.composite
def _title(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(_WORDS), min_size=2, max_size=10))
    title = " ".join(words).capitalize()
    ending = draw(st.sampled_from(["", "", "?", ": subtitle"]))
    if ending == ": subtitle":
        return (
            title + ": " + " ".join(draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4)))
        )
    return title + ending


@st.composite
def record(draw: st.DrawFn, number: int) -> dict[str, Any]:
    """One CSL JSON record with id `r<number>`."""
    kind = draw(st.sampled_from(["article-journal", "book", "paper-conference"]))
    item: dict[str, Any] = {
        "id": f"r{number}",
        "type": kind,
        "title": draw(_title()),
        "author": [
            draw(_person()),
            *draw(st.lists(st.one_of(_person(), st.sampled_from(_ODD_NAMES)), max_size=4)),
        ],
        "issued": {"date-parts": [[draw(st.integers(1950, 2025))]]},
    }
    if kind == "article-journal":
        item["container-title"] = draw(st.sampled_from(_VENUES))
        item["volume"] = str(draw(st.integers(1, 120)))
        first = draw(st.integers(1, 900))
        item["page"] = f"{first}-{first + draw(st.integers(1, 40))}"
    elif kind == "book":
        item["publisher"] = draw(st.sampled_from(["Springer", "Academic Press", "CRC Press"]))
    else:
        item["container-title"] = "Proceedings of the International Conference on Learning"
    if draw(st.booleans()):
        item["DOI"] = f"10.{draw(st.integers(1000, 99999))}/x{draw(st.integers(1, 10**6))}"
    return item


def records() -> st.SearchStrategy[list[dict[str, Any]]]:
    """A bibliography of 2–12 records with distinct titles."""
    return (
        st.integers(2, 12)
        .flatmap(lambda n: st.tuples(*(record(i) for i in range(n))).map(list))
        .filter(lambda items: len({i["title"].lower() for i in items}) == len(items))
    )


def printed_list(items: list[dict[str, Any]], csl: str) -> str:
    """The bibliography of `items` as citeproc prints it in the CSL style `csl`, plain text."""
    with tempfile.TemporaryDirectory() as folder:
        bib = Path(folder) / "refs.json"
        bib.write_text(json.dumps(items), encoding="utf-8")
        document = Path(folder) / "doc.md"
        document.write_text("---\nnocite: '@*'\n---\n", encoding="utf-8")
        run = subprocess.run(
            [pandoc_path(), str(document), "--citeproc", f"--bibliography={bib}",
             f"--csl={SHARED / 'csl' / csl}", "-t", "plain", "--wrap=auto"],
            capture_output=True, text=True, timeout=120, check=True,
        )  # fmt: skip
    return run.stdout


def expected(items: list[dict[str, Any]]) -> list[Expected]:
    """What a reader should find in `items`' printed list."""
    result = []
    for item in items:
        first = item["author"][0]
        family = f"{first.get('non-dropping-particle', '')} {first['family']}".strip()
        result.append(
            Expected(
                item["id"],
                item["title"],
                family,
                item["issued"]["date-parts"][0][0],
                item.get("container-title", ""),
            )
        )
    return result
