"""Field-by-field comparison of a cited reference with a registry record (docs/verification.md,
"What is compared"). Pure functions: no network, no state.

What is not given is not checked; a rule that cannot decide adds a note instead of a mismatch.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from citecore.model import FieldMismatch, Person, Reference, Source
from citecore.normalize import fold
from citecore.registries.record import WorkRecord
from citecore.verify.venues import Agreement, compare_venues, venue_year_problem

TITLE_SIMILAR = 0.75
_VARIANT_MIN_LETTERS = 6
_SUBTITLE_MIN_WORDS = 3
_STOPWORDS = frozenset(
    """a an the of in on for to and with by at from into as via about over under between
    or is are its their our this that und der die das des le la les du de et""".split()
)
_GREEK = {
    "α": "alpha",
    "β": "beta",
    "γ": "gamma",
    "δ": "delta",
    "ε": "epsilon",
    "ζ": "zeta",
    "η": "eta",
    "θ": "theta",
    "ι": "iota",
    "κ": "kappa",
    "λ": "lambda",
    "μ": "mu",
    "ν": "nu",
    "ξ": "xi",
    "π": "pi",
    "ρ": "rho",
    "σ": "sigma",
    "τ": "tau",
    "υ": "upsilon",
    "φ": "phi",
    "χ": "chi",
    "ψ": "psi",
    "ω": "omega",
}


@functools.lru_cache(maxsize=4096)  # a cited title is compared with every record found for it
def _title_words(title: str) -> tuple[str, ...]:
    """Content words of a title: folded, Greek letters spelled, hyphens joined, no stopwords."""
    spelled = "".join(_GREEK.get(ch, ch) for ch in title.casefold())
    joined = re.sub(r"(\w)[-‐‑–](\w)", r"\1\2", spelled)
    return tuple(w for w in fold(joined).split() if w not in _STOPWORDS)


def _main_title(title: str) -> str:
    """The title before a subtitle separator (":", " - ", "?", "!"), or "" when there is none."""
    match = re.match(r"^(.+?)(?:\s*[:?!]\s+|\s+[-–—]{1,2}\s+)", title)
    return match.group(1) if match else ""


@dataclass(frozen=True, slots=True)
class TitleMatch:
    """How two titles relate: the same work's title, a near miss, or another work."""

    same: bool
    similarity: float


def compare_titles(cited: str, found: str) -> TitleMatch:
    """Same after folding (one side may omit a subtitle when the main title has at least three
    content words); otherwise their similarity (0–1) on folded content words."""
    cited_words, found_words = _title_words(cited), _title_words(found)
    if cited_words and cited_words == found_words:
        return TitleMatch(True, 1.0)
    for whole, other in ((cited, found_words), (found, cited_words)):
        main = _title_words(_main_title(whole))
        if len(main) >= _SUBTITLE_MIN_WORDS and main == other:
            return TitleMatch(True, 1.0)
    similarity = fuzz.ratio(" ".join(cited_words), " ".join(found_words)) / 100.0
    return TitleMatch(False, similarity)


# A record's authors are compared with every cited author, and the same people recur from
# reference to reference (a screened venue cites the same authors thousands of times).
@functools.lru_cache(maxsize=16_384)
def _family_forms(person: Person) -> frozenset[str]:
    """The ways a family name may be matched: "von Neumann" and "Neumann"; and for BibTeX's
    reading of "LeCun Y" (family "Y", given "LeCun"), the given name too."""
    forms = {fold(person.family), fold(f"{person.particle} {person.family}")}
    forms |= {fold(person.family).replace(" ", "")}
    if re.fullmatch(r"(?:[A-Z]\.?\s*){1,3}", person.family) and person.given:
        forms.add(fold(person.given))
    return frozenset(f for f in forms if f)


def same_person(cited: Person, found: Person) -> bool:
    """Family names agree in any of their forms (accents, particles, word order folded)."""
    if cited.is_organization or found.is_organization:
        return fold(cited.display()) == fold(found.display())
    cited_forms, found_forms = _family_forms(cited), _family_forms(found)
    if cited_forms & found_forms:
        return True
    # "García Márquez" vs "Márquez": compound family names cited in part.
    if any(
        c.split()[-1] == f.split()[-1] for c in cited_forms for f in found_forms if " " in c + f
    ):
        return True
    # One letter apart in a long name is a spelling variant or a slip ("Antoniol", "Antonio";
    # "Tschebyscheff"-style transliterations differ more and are not guessed at).
    return any(
        len(c) >= _VARIANT_MIN_LETTERS and c[0] == f[0] and Levenshtein.distance(c, f) <= 1
        for c in cited_forms
        for f in found_forms
    )


@dataclass(frozen=True, slots=True)
class AuthorCheck:
    """The authors rule applied to one record: accusations, and cited authors the record may
    lack only because its own list is short (to be confirmed with another source)."""

    mismatches: tuple[FieldMismatch, ...] = ()
    unconfirmed: tuple[Person, ...] = ()


def _on_record(person: Person, found: tuple[Person, ...]) -> bool:
    return any(same_person(person, f) for f in found)


def corroborated(reference: Reference, record: WorkRecord) -> bool:
    """Whether something besides a title that is only similar says the record is the cited
    work: a cited person on the record; where no one is cited, years at most one apart (a
    preprint and its publication), or no year either (nothing to say against it). A similar
    title by none of the cited people is another work, whatever its year."""
    if reference.authors:
        return any(_on_record(person, record.authors) for person in reference.authors)
    return not reference.year or not record.year or abs(reference.year - record.year) <= 1


def missing_authors(cited: tuple[Person, ...], found: tuple[Person, ...]) -> list[Person]:
    """Cited people (after the first) whom the record does not list."""
    return [p for p in cited[1:] if not p.is_organization and not _on_record(p, found)]


def not_on_record(missing: list[Person], found: tuple[Person, ...]) -> FieldMismatch:
    """The mismatch naming cited authors a record does not list."""
    return FieldMismatch(
        "authors",
        "; ".join(p.display() for p in missing),
        "; ".join(f.display() for f in found[:8]) + (" …" if len(found) > 8 else ""),
        "cited authors not on the record: " + ", ".join(p.display() for p in missing),
    )


def compare_authors(
    cited: tuple[Person, ...], found: tuple[Person, ...], cited_complete: bool = True
) -> AuthorCheck:
    """The first author must be the record's; every cited author must be on the record; a cited
    list that stops early without "and others" omits authors. Cited authors missing from a
    record that lists fewer authors than cited are only `unconfirmed`: registries sometimes
    keep just the first author, so another source must confirm before anyone is accused."""
    if not cited or not found or cited[0].is_organization:
        return AuthorCheck()  # corporate authors are named too variously to accuse
    problems = []
    if not same_person(cited[0], found[0]):
        problems.append(
            FieldMismatch(
                "first_author", cited[0].display(), found[0].display(), "the first author differs"
            )
        )
    missing = missing_authors(cited, found)
    if missing and len(found) < len(cited):
        return AuthorCheck(tuple(problems), tuple(missing))
    if missing:
        problems.append(not_on_record(missing, found))
    elif cited_complete and not problems:
        # Counted in people: a consortium the record lists beside them is no omitted author.
        people = [f for f in found if not f.is_organization]
        omitted = [f for f in people if not any(same_person(c, f) for c in cited)]
        if omitted and len(people) > len(cited):
            problems.append(
                FieldMismatch(
                    "authors",
                    f"{len(cited)} authors",
                    f"{len(people)} authors",
                    f"the author list stops after {len(cited)} of {len(people)} without "
                    f"'and others': {len(omitted)} omitted",
                )
            )
    return AuthorCheck(tuple(problems))


@dataclass(frozen=True, slots=True)
class Comparison:
    """The outcome of comparing one reference with one record.

    `unconfirmed_authors` are cited authors missing from a record whose list is shorter than
    the cited one; `needs_published` says the reference claims a venue and the record is a
    preprint, so only a published version can confirm or refute the venue."""

    title: TitleMatch
    mismatches: tuple[FieldMismatch, ...]
    notes: tuple[str, ...]
    unconfirmed_authors: tuple[Person, ...] = ()
    needs_published: bool = False
    # The cited year one off the record's, as online-first and print years often are: no
    # mismatch, unless another version of the work is of the cited year (resolve.py).
    year_off_by_one: str = ""

    @property
    def remarks(self) -> tuple[str, ...]:
        """Everything a reader is told besides the mismatches, the year's remark last."""
        return (*self.notes, *([self.year_off_by_one] if self.year_off_by_one else []))


_PREPRINT_VENUE = re.compile(r"^\s*(arxiv|corr|biorxiv|medrxiv|chemrxiv|ssrn|preprints?)\b", re.I)


def venue_claimed(reference: Reference) -> bool:
    """True when the entry names a venue: "arXiv preprint arXiv:NNNN" names a preprint, and a
    thesis's school or a report's institution is no venue either."""
    return bool(reference.venue.strip()) and not _PREPRINT_VENUE.match(reference.venue)


def is_preprint_record(record: WorkRecord) -> bool:
    """A record of a preprint (arXiv, bioRxiv, …): it says nothing about where a work appeared."""
    if record.is_preprint or record.source is Source.ARXIV:
        return True
    if record.venue:
        return bool(_PREPRINT_VENUE.match(record.venue))
    return record.doi.startswith("10.48550/")  # an arXiv DOI and no other venue named


def _venue_mismatch(reference: Reference, record: WorkRecord) -> FieldMismatch | str | None:
    """The venue rule: a mismatch, a note (str) when it cannot be decided, or None."""
    comparison = compare_venues(reference.venue, (record.venue, *record.venue_names))
    if comparison.agreement is Agreement.DIFFERENT:
        return FieldMismatch("venue", reference.venue, record.venue, comparison.reason)
    if comparison.agreement is Agreement.UNDECIDED and record.venue:
        return f"venue '{reference.venue}' not compared: {comparison.reason}"
    return None


def compare(reference: Reference, record: WorkRecord) -> Comparison:
    """Every rule of docs/verification.md applied to one reference and one record."""
    mismatches: list[FieldMismatch] = []
    notes: list[str] = []
    title = (
        compare_titles(reference.title, record.title) if reference.title else TitleMatch(True, 1.0)
    )
    if reference.title and not title.same:
        mismatches.append(
            FieldMismatch(
                "title", reference.title, record.title, f"title similarity {title.similarity:.2f}"
            )
        )
    authors = compare_authors(reference.authors, record.authors, reference.authors_complete)
    mismatches.extend(authors.mismatches)
    if numbered := [p for p in reference.authors if p.homonym]:
        names = ", ".join(f"{p.given} {p.family} {p.homonym}".strip() for p in numbered)
        notes.append(f"DBLP's homonym numbers are not part of the names compared ({names})")
    year_off_by_one = ""
    if reference.year is not None and record.year is not None:
        if abs(reference.year - record.year) == 1:
            year_off_by_one = (
                f"year {reference.year} vs {record.year} in {record.source.value} "
                "(online-first and print years often differ by one)"
            )
        elif reference.year != record.year:
            mismatches.append(FieldMismatch("year", str(reference.year), str(record.year)))
    needs_published = False
    if venue_claimed(reference):
        if problem := venue_year_problem(reference.venue, reference.year):
            mismatches.append(FieldMismatch("venue", reference.venue, record.venue, problem))
        elif is_preprint_record(record):
            needs_published = True
        elif isinstance(outcome := _venue_mismatch(reference, record), FieldMismatch):
            mismatches.append(outcome)
        elif outcome:
            notes.append(outcome)
    return Comparison(
        title,
        tuple(mismatches),
        tuple(notes),
        authors.unconfirmed,
        needs_published,
        year_off_by_one,
    )
