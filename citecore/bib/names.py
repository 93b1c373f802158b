"""Author and editor names parsed into family / given / particle / suffix.

BibTeX names follow BibTeX's own rules ("von Last, Jr, First", "First von Last", `{Corporate}`),
split by bibtexparser before LaTeX decoding, so that braces still mark a corporate author. CSL names
come structured already; a `literal` CSL name is an organisation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from citecore.bib.latex_text import decode_latex
from citecore.bib.name_parts import split_name
from citecore.model import Person


def _is_braced_whole(name: str) -> bool:
    """True for `{World Health Organization}`: one brace group around the whole name."""
    name = name.strip()
    if not (name.startswith("{") and name.endswith("}")):
        return False
    depth = 0
    for index, char in enumerate(name):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0 and index < len(name) - 1:
            return False
    return True


# DBLP tells homonyms apart with a four-digit number after the name: "Rohit Agrawal 0002" in
# natural order, "Lehmann 0001, Jens" in BibTeX's inverted one. BibTeX prints it as part of the
# name; it is no part of the person's name, so it is read off before the name is split.
_HOMONYM_NATURAL = re.compile(r"^(?P<name>[^,]*\S)\s+(?P<number>0\d{3})\s*$")
_HOMONYM_INVERTED = re.compile(r"^(?P<name>[^,]*\S)\s+(?P<number>0\d{3})\s*(?P<rest>,.*)$", re.S)


def split_homonym_number(name: str) -> tuple[str, str]:
    """A name without DBLP's homonym number, and the number ("" when there is none)."""
    if match := _HOMONYM_INVERTED.match(name.strip()):
        return match["name"] + match["rest"], match["number"]
    if match := _HOMONYM_NATURAL.match(name.strip()):
        return match["name"], match["number"]
    return name, ""


def parse_bibtex_name(name: str) -> Person:
    """One BibTeX name as a Person; a brace-wrapped name is an organisation, kept whole; DBLP's
    homonym number ("Jens Lehmann 0001") is kept apart from the name, in `homonym`."""
    if _is_braced_whole(name):
        return Person(family=decode_latex(name), is_organization=True)
    name, number = split_homonym_number(name)
    parts = split_name(name)
    return Person(
        family=decode_latex(parts.last),
        given=decode_latex(parts.first),
        particle=decode_latex(parts.von),
        suffix=decode_latex(parts.jr),
        homonym=number,
    )


def parse_display_name(name: str) -> Person:
    """A name written "Given Family" as registries display it ("Ashish Vaswani", "Madeleine van
    Zuylen"), read by BibTeX's rules so that particles are recognized."""
    return parse_bibtex_name(" ".join(name.replace("{", "").replace("}", "").split()))


_OTHERS = frozenset({"others", "et al", "et al.", "et. al.", "{et al.}", "et~al."})


def _is_others(name: str) -> bool:
    return name.strip().casefold() in _OTHERS


def parse_bibtex_names(value: str) -> tuple[Person, ...]:
    """An `author`/`editor` field ("A and B and others") as Persons; "others" is dropped."""
    # start-up: bibtexparser only where a name list is read (a cached rebuild reads none).
    from bibtexparser.middlewares.names import split_multiple_persons_names

    names = split_multiple_persons_names(value)
    return tuple(parse_bibtex_name(n) for n in names if n.strip() and not _is_others(n))


def ends_with_others(value: str) -> bool:
    """True when a BibTeX name list says it is incomplete ("… and others", "et al.")."""
    # start-up: as above
    from bibtexparser.middlewares.names import split_multiple_persons_names

    names = split_multiple_persons_names(value)
    return bool(names) and (
        _is_others(names[-1]) or bool(re.search(r"\bet\.?\s*al\b\.?\s*$", names[-1]))
    )


def csl_names_complete(values: Iterable[Mapping[str, Any]] | None) -> bool:
    """False when a CSL name list ends with an "et al." / "others" entry."""
    listed = [v for v in values or () if isinstance(v, Mapping)]
    return not listed or not _is_others(
        str(listed[-1].get("literal") or listed[-1].get("family") or "")
    )


def parse_csl_names(values: Iterable[Mapping[str, Any]] | None) -> tuple[Person, ...]:
    """CSL name objects (`family`, `given`, `non-dropping-particle`, `literal` …) as Persons."""
    people = []
    for value in values or ():
        if not isinstance(value, Mapping):
            continue
        if _is_others(str(value.get("literal") or value.get("family") or "x")):
            continue
        if value.get("literal"):
            people.append(Person(family=str(value["literal"]), is_organization=True))
            continue
        particle = " ".join(
            str(value[k]) for k in ("dropping-particle", "non-dropping-particle") if value.get(k)
        )
        people.append(
            Person(
                family=str(value.get("family", "")),
                given=str(value.get("given", "")),
                particle=particle,
                suffix=str(value.get("suffix", "")),
            )
        )
    return tuple(people)
