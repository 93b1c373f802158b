"""Field-by-field comparison of a cited reference with a registry record (DESIGN.md,
"Rules for verification"). Pure functions: no network, no state.

What is not given is not checked; a rule that cannot decide adds a note instead of a mismatch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rapidfuzz import fuzz

from citecore.model import FieldMismatch, Person, Reference
from citecore.normalize import fold
from citecore.registries.record import Source, WorkRecord

TITLE_SIMILAR = 0.75
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
_VENUE_NOISE = frozenset(
    {
        "proceedings",
        "proc",
        "annual",
        "conference",
        "conf",
        "international",
        "intl",
        "int",
        "workshop",
        "symposium",
        "journal",
        "j",
    }
)


def _title_words(title: str) -> list[str]:
    """Content words of a title: folded, Greek letters spelled, hyphens joined, no stopwords."""
    spelled = "".join(_GREEK.get(ch, ch) for ch in title.casefold())
    joined = re.sub(r"(\w)[-‐‑–](\w)", r"\1\2", spelled)
    return [w for w in fold(joined).split() if w not in _STOPWORDS]


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


def _family_forms(person: Person) -> set[str]:
    """The ways a family name may be matched: "von Neumann" and "Neumann"; and for BibTeX's
    reading of "LeCun Y" (family "Y", given "LeCun"), the given name too."""
    forms = {fold(person.family), fold(f"{person.particle} {person.family}")}
    forms |= {fold(person.family).replace(" ", "")}
    if re.fullmatch(r"(?:[A-Z]\.?\s*){1,3}", person.family) and person.given:
        forms.add(fold(person.given))
    return {f for f in forms if f}


def same_person(cited: Person, found: Person) -> bool:
    """Family names agree in any of their forms (accents, particles, word order folded)."""
    if cited.is_organization or found.is_organization:
        return fold(cited.display()) == fold(found.display())
    cited_forms, found_forms = _family_forms(cited), _family_forms(found)
    if cited_forms & found_forms:
        return True
    # "García Márquez" vs "Márquez": compound family names cited in part.
    return any(
        c.split()[-1] == f.split()[-1] for c in cited_forms for f in found_forms if " " in c + f
    )


def compare_authors(cited: tuple[Person, ...], found: tuple[Person, ...]) -> list[FieldMismatch]:
    """First author must match; every cited author must be in the record when the record lists
    at least as many (truncated lists and "et al." are fine)."""
    people = [p for p in cited if not p.is_organization]
    if not cited or not found:
        return []
    if cited[0].is_organization:
        return []  # corporate authors are named too variously to accuse
    problems = []
    if not same_person(cited[0], found[0]):
        problems.append(
            FieldMismatch(
                "first_author", cited[0].display(), found[0].display(), "the first author differs"
            )
        )
    if len(found) >= len(cited):
        missing = [p for p in people[1:] if not any(same_person(p, f) for f in found)]
        if missing:
            problems.append(
                FieldMismatch(
                    "authors",
                    "; ".join(p.display() for p in missing),
                    "; ".join(f.display() for f in found[:8]),
                    "cited authors not in the record",
                )
            )
    return problems


def _venue_words(venue: str) -> list[str]:
    words = fold(re.sub(r"\(.*?\)", " ", venue)).split()
    return [
        w
        for w in words
        if w not in _STOPWORDS
        and w not in _VENUE_NOISE
        and not re.fullmatch(r"\d+(st|nd|rd|th)?", w)
    ]


def _abbreviates_word(short: str, full: str) -> bool:
    """ "natl" abbreviates "national": same first letter, the rest in order (ISO 4 style)."""
    if not short or short[0] != full[0] or len(short) > len(full):
        return False
    letters = iter(full)
    return all(char in letters for char in short)


def _abbreviates(short: list[str], full: list[str]) -> bool:
    """ "natl acad sci" abbreviates "national academy sciences", word by word."""
    return len(short) == len(full) and all(
        _abbreviates_word(s, f) for s, f in zip(short, full, strict=True)
    )


def is_bare_acronym(venue: str) -> bool:
    """ "NeurIPS", "CVPR", "ICLR 2015": a short acronym we note but do not compare."""
    core = re.sub(r"['’]?\d{2,4}", "", venue).strip()
    return bool(re.fullmatch(r"[A-Za-z-]{2,10}", core)) and sum(c.isupper() for c in core) >= 2


def same_venue(cited: str, found: str) -> bool:
    """The same journal or conference, abbreviations allowed; "Nature" ≠ "Nature Communications"."""
    cited_words, found_words = _venue_words(cited), _venue_words(found)
    if not cited_words or not found_words:
        return True
    if cited_words == found_words:
        return True
    if _abbreviates(cited_words, found_words) or _abbreviates(found_words, cited_words):
        return True
    if min(len(cited_words), len(found_words)) >= 3:
        return fuzz.token_sort_ratio(" ".join(cited_words), " ".join(found_words)) >= 90
    return False


@dataclass(frozen=True, slots=True)
class Comparison:
    """The outcome of comparing one reference with one record."""

    title: TitleMatch
    mismatches: tuple[FieldMismatch, ...]
    notes: tuple[str, ...]


def _venue_claimed(reference: Reference) -> bool:
    """ "arXiv preprint arXiv:NNNN" in a journal field names a preprint, not a venue."""
    return bool(reference.venue) and not re.match(
        r"^\s*(arxiv|corr|biorxiv|medrxiv)\b", reference.venue, re.IGNORECASE
    )


def compare(reference: Reference, record: WorkRecord) -> Comparison:
    """Every rule of DESIGN.md applied to one reference and one record."""
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
    mismatches.extend(compare_authors(reference.authors, record.authors))
    if reference.year is not None and record.year is not None:
        if abs(reference.year - record.year) == 1:
            notes.append(
                f"year {reference.year} vs {record.year} in {record.source.value} "
                "(online-first and print years often differ by one)"
            )
        elif reference.year != record.year:
            mismatches.append(FieldMismatch("year", str(reference.year), str(record.year)))
    if _venue_claimed(reference) and record.venue and record.source is not Source.ARXIV:
        if is_bare_acronym(reference.venue):
            notes.append(f"venue '{reference.venue}' is an acronym; not compared")
        elif not same_venue(reference.venue, record.venue):
            mismatches.append(FieldMismatch("venue", reference.venue, record.venue))
    return Comparison(title, tuple(mismatches), tuple(notes))
