"""A realistic mixed reference list drawn from the registry world (../shared/fixtures/world/).

Real works of every field the world holds, cited as writers cite them — medical and biological
articles with their PMID, journal articles with their Crossref DOI or by title alone, DataCite
datasets and software by DOI, computer-science conference papers by title, authors, year and the
venue's full name, arXiv preprints by arXiv id — and beside them the fabrications writers meet,
one kind each as HALLMARK names them: a plausible title nobody wrote, a chimera of two titles
from different fields, a title with a word changed, another work's authors, a wrong venue, a
date in the future, a DOI or arXiv id that does not exist, another work's DOI, a year shifted,
two works merged. Deterministic per seed; each reference carries its label.

Used by bench/registry_copies.py (complete copies standing for their registries) and by
tests/verify/test_registry_copies.py.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from citecore.model import Person, Reference, SourceLocation
from tests.world import Work, World, fold_words

REAL, FABRICATED = "real", "fabricated"


@dataclass(frozen=True)
class Labelled:
    """A reference and what it is: `real` (cited right) or `fabricated`, with its kind."""

    reference: Reference
    label: str
    kind: str


def _people(work: Work) -> tuple[Person, ...]:
    people = []
    for name in work.names:
        given, _, family = name.rpartition(" ")
        people.append(Person(family=family, given=given))
    return tuple(people)


def field_of(work: Work) -> str:
    """Which part of the world a work comes from, as a writer would cite it."""
    if work.arxiv_id and work.doi.startswith("10.48550/"):
        return "preprint"
    if work.dblp_venue and work.dblp_venue != "CoRR":
        return "conference"
    if work.pmid:
        return "medicine"
    if work.crossref is not None:
        return "journal"
    if work.doi:
        return "dataset"
    return ""


def _citable(work: Work) -> bool:
    """A work a writer could cite whole: a title, people as authors, a year."""
    names = work.names
    return bool(
        work.title
        and 20 <= len(work.title) < 250
        and names
        and all(" " in n for n in names)
        and work.year
        and field_of(work)
    )


def cited(work: Work, key: str, line: int) -> Reference:
    """The work cited as writers cite works of its field."""
    kind = field_of(work)
    base = Reference(
        key,
        {"conference": "inproceedings", "dataset": "misc", "preprint": "misc"}.get(kind, "article"),
        SourceLocation("mixed.bib", line),
        title=work.title,
        authors=_people(work),
        year=work.year,
        venue=work.venue if kind != "preprint" else "arXiv",
    )
    if kind == "preprint":
        return replace(base, arxiv_id=work.arxiv_id)
    if kind == "medicine":
        return replace(base, pmid=work.pmid) if line % 2 else replace(base, doi=work.doi)
    # Data are cited by their DOI (the FORCE11 and DataCite data citation principles); a
    # journal article now and then by its title alone.
    if kind == "dataset" or (kind == "journal" and line % 3):
        return replace(base, doi=work.doi)
    return base


def _other(rng: random.Random, works: list[Work], not_field: str) -> Work:
    return rng.choice([w for w in works if field_of(w) != not_field])


def _words(text: str) -> list[str]:
    return text.split()


# -- the fabrications: each makes one reference from a real work and the rest of the world ----


def _plausible(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    """A title of its field's words that no work has, by people of the field."""
    same = [w for w in works if field_of(w) == field_of(work)]
    vocabulary = sorted({word for w in same for word in fold_words(w.title) if len(word) > 4})
    title = " ".join(rng.sample(vocabulary, min(8, len(vocabulary)))).capitalize()
    return _bare(work, title=title)


def _chimeric(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    """The first half of this work's title joined to the second half of another field's."""
    other = _other(rng, works, field_of(work))
    head, tail = _words(work.title), _words(other.title)
    title = " ".join(head[: max(3, len(head) // 2)] + tail[len(tail) // 2 :])
    return _bare(work, title=title)


def _near_miss(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    """The title with one of its longer words replaced by a word of another field's title."""
    words = _words(work.title)
    places = [n for n, w in enumerate(words) if len(w) > 5] or [len(words) - 1]
    donor = [w for w in _words(_other(rng, works, field_of(work)).title) if len(w) > 5] or ["novel"]
    words[rng.choice(places)] = rng.choice(donor)
    return _bare(work, title=" ".join(words))


def _swapped_authors(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    return _bare(work, authors=_people(_other(rng, works, "")))


def _wrong_venue(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    venue = _other(rng, [w for w in works if w.venue], field_of(work)).venue
    return _bare(work, venue=venue)


def _future(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    return _bare(work, year=2031)


def _fabricated_doi(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    """A DOI under the work's own registrant that nobody registered."""
    prefix = work.doi.split("/", 1)[0] if work.doi else "10.1371"
    return replace(_bare(work), doi=f"{prefix}/fabricated.{rng.randrange(10**6, 10**7)}")


def _fabricated_arxiv(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    """An arXiv id of a month long past that no paper has."""
    return replace(
        _bare(work), arxiv_id=f"{rng.randrange(15, 22):02d}07.{rng.randrange(90000, 99999)}"
    )


def _another_doi(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    other = _other(rng, [w for w in works if w.doi and w.crossref], field_of(work))
    return replace(_bare(work), doi=other.doi)


def _year_shifted(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    return _bare(work, year=(work.year or 2000) - rng.choice((3, 4, 6)))


def _merged(rng: random.Random, work: Work, works: list[Work]) -> Reference:
    """This work's title with another's authors, venue and year."""
    other = _other(rng, works, field_of(work))
    return _bare(work, authors=_people(other), venue=other.venue, year=other.year)


def _bare(work: Work, **changed: object) -> Reference:
    """The work cited without identifiers, with `changed` fields."""
    reference = Reference(
        "",
        "inproceedings" if field_of(work) == "conference" else "article",
        SourceLocation("mixed.bib"),
        title=work.title,
        authors=_people(work),
        year=work.year,
        venue=work.venue,
    )
    return replace(reference, **changed)  # type: ignore[arg-type]


Fabrication = Callable[[random.Random, Work, list[Work]], Reference]
FABRICATIONS: dict[str, Fabrication] = {
    "plausible_fabrication": _plausible,
    "chimeric_title": _chimeric,
    "near_miss_title": _near_miss,
    "swapped_authors": _swapped_authors,
    "wrong_venue": _wrong_venue,
    "future_date": _future,
    "fabricated_doi": _fabricated_doi,
    "fabricated_arxiv_id": _fabricated_arxiv,
    "doi_of_another_work": _another_doi,
    "wrong_year": _year_shifted,
    "merged_citation": _merged,
}
# The fields fabricated from: the DOI and arXiv kinds need works that carry one.
_MADE_FROM = {
    "fabricated_doi": ("journal", "medicine"),
    "fabricated_arxiv_id": ("preprint",),
    "doi_of_another_work": ("journal", "medicine"),
}
FIELDS = ("medicine", "journal", "dataset", "conference", "preprint")


def mixed_bibliography(
    world: World, real: int = 45, per_kind: int = 2, seed: int = 0
) -> list[Labelled]:
    """`real` works cited right, drawn evenly from every field, and `per_kind` fabrications of
    each kind, shuffled together; keys r1, r2, … in the order of the list."""
    rng = random.Random(seed)
    works = [w for w in world.works if _citable(w)]
    by_field = {f: [w for w in works if field_of(w) == f] for f in FIELDS}
    chosen: list[Work] = []
    while len(chosen) < real:
        for name in FIELDS:
            pool = [w for w in by_field[name] if w not in chosen]
            if pool and len(chosen) < real:
                chosen.append(rng.choice(pool))
    made: list[tuple[Reference, str, str]] = [(cited(w, "", 0), REAL, field_of(w)) for w in chosen]
    for kind, fabricate in FABRICATIONS.items():
        sources = [w for w in works if field_of(w) in _MADE_FROM.get(kind, FIELDS)]
        for _ in range(per_kind):
            made.append((fabricate(rng, rng.choice(sources), works), FABRICATED, kind))
    rng.shuffle(made)
    listed = []
    for line, (reference, label, kind) in enumerate(made, 1):
        if label == REAL:
            work = next(w for w in chosen if w.title == reference.title)
            reference = cited(work, f"r{line}", line)
        else:
            reference = replace(
                reference, key=f"r{line}", location=SourceLocation("mixed.bib", line)
            )
        listed.append(Labelled(reference, label, kind))
    return listed


_LATEX_SPECIALS = str.maketrans({c: f"\\{c}" for c in "&%$#_{}"})


def as_bibtex(reference: Reference) -> str:
    """The reference as a BibTeX entry, as a writer's .bib file holds it."""
    fields = {
        "title": reference.title,
        "author": " and ".join(f"{p.family}, {p.given}" for p in reference.authors),
        "year": str(reference.year or ""),
        "booktitle" if reference.entry_type == "inproceedings" else "journal": reference.venue,
        "doi": reference.doi,
        "eprint": reference.arxiv_id,
        "archiveprefix": "arXiv" if reference.arxiv_id else "",
        "pmid": reference.pmid,
    }
    body = ",\n".join(
        f"  {name} = {{{value.translate(_LATEX_SPECIALS) if name != 'doi' else value}}}"
        for name, value in fields.items()
        if value
    )
    return f"@{reference.entry_type}{{{reference.key},\n{body}\n}}\n"
