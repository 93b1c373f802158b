"""Name splitting against BibTeX itself (hypothesis): for generated author lists in every form
BibTeX knows ("First von Last", "von Last, First", "von Last, Jr, First", braces, accents,
hyphens, corporate names), the family, given, particle and suffix citecheck reads are the ones
BibTeX's `format.name$` reads (tests/bib/oracle/names.bst prints them)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from tempfile import TemporaryDirectory

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.bib.latex_text import decode_latex
from citecore.bib.names import parse_bibtex_names
from citecore.model import Person

BST = Path(__file__).parent / "oracle" / "names.bst"
pytestmark = pytest.mark.skipif(shutil.which("bibtex") is None, reason="needs BibTeX")

CAPITALIZED = st.sampled_from(
    ["Maria", "Jean-Pierre", "Heged{\\H u}s", "P{\\'e}ter", "{\\O}rsted", "Smith", "Li", "O'Neil",
     "{Van}", "MacDonald", "J.", "A.-M.", "Zo{\\\"e}", "{\\AA}se", "Nguyen", "Jean-pierre",
     "Smith-Jones", "{van Dyke}", "Paul~Jones", "{\\'E}mile", "{\\ss}a", "{\\relax Ch}ristoph"]
)  # fmt: skip
LOWER = st.sampled_from(
    ["van", "de", "la", "von", "der", "di", "du", "ten", "{d}e", "{\\'e}mile", "d'", "al-Farabi"]
)
SUFFIX = st.sampled_from(["Jr.", "Sr.", "III", "jr"])


@st.composite
def name(draw: st.DrawFn) -> str:
    first = draw(st.lists(CAPITALIZED, max_size=2))
    von = draw(st.lists(LOWER, max_size=2))
    last = draw(st.lists(CAPITALIZED, min_size=1, max_size=2))
    form = draw(st.sampled_from(["first von last", "von last, first", "von last, jr, first",
                                 "corporate"]))  # fmt: skip
    if form == "corporate":
        return "{" + " ".join([*last, "Institute"]) + "}"
    if form == "first von last":
        return " ".join([*first, *von, *last])
    jr = f"{draw(SUFFIX)}, " if form == "von last, jr, first" else ""
    return f"{' '.join([*von, *last])}, {jr}{' '.join(first)}".rstrip(", ")


def bibtex_parts(author: str) -> list[Person]:
    """Each name of `author` as BibTeX splits it."""
    with TemporaryDirectory() as folder:
        where = Path(folder)
        shutil.copy(BST, where / "names.bst")
        (where / "refs.bib").write_text(f"@article{{k, author = {{{author}}}}}\n")
        (where / "main.aux").write_text("\\citation{*}\n\\bibdata{refs}\n\\bibstyle{names}\n")
        subprocess.run(["bibtex", "main"], cwd=where, capture_output=True, check=True)
        written = (where / "main.bbl").read_text().splitlines()
    # BibTeX breaks an output line longer than 79 characters at a space and indents the rest by
    # two spaces: joined back, it is the line the style wrote.
    lines: list[str] = []
    for line in written:
        if line.startswith("  ") and lines:
            lines[-1] += " " + line.lstrip()
        else:
            lines.append(line)
    people = []
    for line in lines[: lines.index("=")]:
        given, particle, family, suffix = (
            decode_latex(p.replace("~", " ")) for p in line.split("|")
        )
        people.append(Person(family=family, given=given, particle=particle, suffix=suffix))
    return people


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(name(), min_size=1, max_size=3))
def test_names_split_as_bibtex_splits_them(names: list[str]) -> None:
    author = " and ".join(names)
    ours = [
        Person(family=p.family, given=p.given, particle=p.particle, suffix=p.suffix)
        for p in parse_bibtex_names(author)
    ]
    assert ours == bibtex_parts(author), author


def test_a_name_wholly_in_braces_is_an_organisation() -> None:
    [person] = parse_bibtex_names("{World Health Organization}")
    assert person.is_organization and person.family == "World Health Organization"
    assert bibtex_parts("{World Health Organization}")[0].family == "World Health Organization"


@pytest.mark.parametrize(
    ("name", "parts"),
    [
        ("{\\O}rsted, Hans Christian", ("Hans Christian", "", "Ørsted", "")),
        ("Hans Christian {\\O}rsted", ("Hans Christian", "", "Ørsted", "")),
        ("van Gogh", ("", "van", "Gogh", "")),
        ("{\\'E}mile Durkheim", ("Émile", "", "Durkheim", "")),  # {\'E}: upper case
        ("Abu Nasr al-Farabi", ("Abu Nasr", "al", "Farabi", "")),
        ("Jean-Pierre Smith-Jones", ("Jean-Pierre", "", "Smith-Jones", "")),
        ("de la Fontaine, Jr., Jean", ("Jean", "de la", "Fontaine", "Jr.")),
        ("Ørsted, Åse", ("Åse", "", "Ørsted", "")),  # raw Unicode: its own case, as biber reads it
    ],
)
def test_names_people_write(name: str, parts: tuple[str, str, str, str]) -> None:
    [person] = parse_bibtex_names(name)
    assert (person.given, person.particle, person.family, person.suffix) == parts
