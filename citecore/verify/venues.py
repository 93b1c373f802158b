"""Is the cited venue the record's venue? Venues compared the way writers write them.

A journal is compared against every name the registries give it (full title, Crossref
`short-container-title`, PubMed ISO/NLM abbreviations, OpenAlex abbreviated and alternate titles)
and against the ISO 4 abbreviation of its full title (the LTWA word list shipped by `pyiso4`).
A conference is recognised through the table in `conferences` (acronyms, former names, the words
of its proceedings titles, the year it was first held); workshops and "Findings" are kept apart
from main tracks. An acronym is compared through the table, never skipped: "ICML"
for a paper of AAAI is a different venue. What cannot be decided is said, not accused.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from citecore.normalize import fold
from citecore.registries.dblp_dump import volume_name
from citecore.verify.conferences import CONFERENCES, Conference, Track
from citecore.verify.journal_names import (
    STOPWORDS,
    as_iso4,
    as_medline_section,
    as_written,
    is_acronym,
    joined_initials,
    venue_words,
)

_BY_ACRONYM = {acronym: c for c in CONFERENCES for acronym in c.acronyms}
# Collections that hold many venues' papers: they name a publisher's series, not a venue.
_SERIES = (
    r"lecture notes in",
    r"proceedings of machine learning research",
    r"^pmlr$",
    r"communications in computer and information science",
    r"advances in intelligent systems and computing",
    r"international conference proceeding series",
    r"^openreview",
    r"^ceur workshop proceedings",
    r"^leibniz international proceedings",
)
_JOURNAL_WORDS = re.compile(
    r"\b(journal|transactions|letters|review|reviews|magazine|bulletin|annals|jmlr|tmlr)\b"
)


@dataclass(frozen=True, slots=True)
class Venue:
    """What a venue string names: a table conference and its track, or neither."""

    conference: Conference | None
    track: Track
    year: int | None  # a year the text names ("NeurIPS 2021", "2023 IEEE/CVF …")


def _track(folded: str) -> Track:
    if re.search(r"\bfindings\b", folded):
        return Track.FINDINGS
    if re.search(r"\b(workshops?|companion|student research|demonstrations?)\b", folded):
        return Track.WORKSHOP
    if re.search(r"\b[a-z]{3,}w\b", folded) and any(
        re.search(rf"\b{c.acronyms[0]}w\b", folded) for c in CONFERENCES
    ):
        return Track.WORKSHOP  # CVPRW, ICCVW
    return Track.MAIN


# A year written short: after an apostrophe ("ICML'19", "ICML '19"), or after an acronym
# ("NIPS 17"). After a word it is a volume: "Advances in Neural Information Processing Systems
# 35" is NeurIPS 2022, and "Proceedings of Machine Learning Research 97" PMLR's volume 97.
_SHORT_YEAR = re.compile(r"(?:\b[A-Za-z]{2,} ?['’]|\b[A-Z][A-Za-z]*[A-Z][A-Za-z]* )(\d{2})\b")


def _named_year(venue: str) -> int | None:
    years = [int(y) for y in re.findall(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)", venue)]
    if years:
        return years[0]
    short = _SHORT_YEAR.search(venue)
    return 2000 + int(short.group(1)) if short and int(short.group(1)) < 50 else None


# A bibliography names few venues many times over: each is identified once per run.
@lru_cache(maxsize=1024)
def identify(venue: str) -> Venue:
    """The table conference a venue string names (by name or acronym), its track and year."""
    folded = fold(venue.replace("&", " and "))
    track = _track(folded)
    year = _named_year(venue)
    for conference in CONFERENCES:
        if any(re.search(rf"(?<!\w)(?:{pattern})", folded) for pattern in conference.names):
            return Venue(conference, track, year)
    unbroken = re.sub(r"(?<=\w)&(?=\w)", "", venue)  # "S&P" is the acronym "SP"
    words = re.sub(r"\b(19|20)\d\d\b|\b\d{2}\b", " ", fold(unbroken)).split()
    for size in (2, 1):
        for start in range(len(words) - size + 1):
            candidate = " ".join(words[start : start + size])
            named = _BY_ACRONYM.get(candidate) or _BY_ACRONYM.get(candidate.removesuffix("w"))
            if named is not None and _written_as_acronym(candidate, unbroken):
                return Venue(named, track, year)
    return Venue(None, track, year)


def venue_patterns(venue: str) -> tuple[str, ...]:
    """Regular expressions that find the table conference `venue` names among folded venue
    names, under any of its names or acronyms ("CVPR" and "Computer Vision and Pattern
    Recognition" alike); none for a venue the table does not know."""
    conference = identify(venue).conference if venue else None
    if conference is None:
        return ()
    return (*conference.names, *(rf"\b{re.escape(a)}\b" for a in conference.acronyms))


def without_crossref_doi(venue: str, year: int | None) -> bool:
    """True only when `venue` is a table conference whose proceedings of `year` gave their
    papers no Crossref DOI (NeurIPS, ICLR, USENIX Security; ICML outside ACM's years), so that
    Crossref cannot hold the paper. An unknown venue or year is never assumed to lack one."""
    conference = identify(venue).conference if venue else None
    if conference is None or conference.crossref_years is None or year is None:
        return False
    return not any(year in years for years in conference.crossref_years)


def _written_as_acronym(candidate: str, venue: str) -> bool:
    """ "ACL" or "NeurIPS" is an acronym; the word "chi" in a journal title ("Chi") less so."""
    if len(candidate) > 3 or " " in candidate:
        return True
    return bool(re.search(rf"\b{re.escape(candidate)}\w?\b", venue, re.IGNORECASE)) and any(
        token.isupper() for token in re.findall(r"[A-Za-z&]+", venue)
    )


class Agreement(Enum):
    """The outcome of comparing a cited venue with a record's names for its venue."""

    SAME = "same"
    DIFFERENT = "different"
    UNDECIDED = "undecided"


@dataclass(frozen=True, slots=True)
class VenueComparison:
    """Whether two venues agree, and a reason a writer can read when they do not."""

    agreement: Agreement
    reason: str = ""


def _initials(words: list[str]) -> str:
    return "".join(w[0] for w in words if w)


# The societies that organise conferences ("ACM SIGSOFT", "IEEE/CVF").
_ORGANISER = re.compile(r"ieee|acm|usenix|siam|ifip|cvf|rsj|aaai|sig[a-z]+")


def _initialisms(name: str, content_words: list[str]) -> set[str]:
    """What an initialism of a venue can spell: the initials of its content words, with and
    without words such as "Proceedings" ("PNAS" for the Proceedings of the National Academy of
    Sciences, "JMLR" for the Journal of Machine Learning Research, "ISSRE" for the Proceedings of
    the 30th International Symposium on Software Reliability Engineering)."""
    folded = fold(re.sub(r"\(.*?\)", " ", name.replace("&", " and "))).split()
    every = [
        w
        for w in joined_initials(folded)
        if w not in STOPWORDS and not re.fullmatch(r"\d+(st|nd|rd|th)?", w)
    ]
    named = every[1:] if every[:1] in (["proceedings"], ["proc"]) else every
    # The societies that organise a conference are rarely in its acronym: "ACM SIGSOFT
    # International Symposium on Software Testing and Analysis" is ISSTA.
    unorganised = [w for w in named if not _ORGANISER.fullmatch(w)]
    content = [w for w in content_words if not _ORGANISER.fullmatch(w)]
    return {_initials(w) for w in (content_words, every, named, unorganised, content)}


def _spelled(acronym: str, venue: str, venue_words: list[str]) -> bool:
    """Whether a venue written out spells the acronym a record gives it ("ISSRE", "DATE 2019")."""
    letters = re.sub(r"[^a-z]", "", fold(re.sub(r"['’]?\d{2,4}", "", acronym)))
    return len(letters) >= 2 and letters in _initialisms(venue, venue_words)


def compare_venues(cited: str, names: Sequence[str]) -> VenueComparison:
    """The cited venue against every name a record gives its venue (the first is the full name).

    SAME when any name agrees (as written, abbreviated word by word, by ISO 4, as an acronym of
    the name's words, or as the same table conference and track); DIFFERENT when the record names a
    venue and none agrees; UNDECIDED when the record names only a publisher's series or an
    acronym the table does not know meets a name it cannot be checked against.
    """
    names = _name_variants(names)
    if not names or not cited.strip():
        return VenueComparison(Agreement.UNDECIDED, "no venue to compare")
    cited_venue = identify(cited)
    known = [v for v in (identify(n) for n in names) if v.conference is not None]
    if cited_venue.conference is not None and known:
        return _compare_conferences(cited_venue, known)
    cited_words = venue_words(cited)
    for agrees in _AGREEMENTS:
        if any(agrees(cited, cited_words, name) for name in names):
            return VenueComparison(Agreement.SAME)
    return _without_agreement(cited, cited_venue, names, known)


def _name_variants(names: Sequence[str]) -> list[str]:
    """A record's names with the variants each is also compared as: NLM titles qualify in
    parentheses ("Angewandte Chemie (International ed. in English)"), so with and without what
    they hold; a journal's subtitle is often left out ("Journal of Physics A: Mathematical and
    …"); DBLP numbers the volumes of a proceedings ("CAV (1)", "ECCV (12)")."""
    variants = (
        (
            n,
            re.sub(r"[()]", " ", n),
            n.split(":")[0] if n.count(":") == 1 else n,
            re.sub(r"\s*\(\d{1,2}\)$", "", n),
            *volume_name(n),
        )
        for n in names
    )
    return list(dict.fromkeys(v for group in variants for v in group if v.strip()))


def _as_initialism(cited: str, cited_words: list[str], name: str) -> bool:
    """One cited word that is the name's initialism ("JMLR", "PNAS")."""
    return len(cited_words) == 1 and cited_words[0] in _initialisms(name, venue_words(name))


def _as_acronym_in_name(cited: str, cited_words: list[str], name: str) -> bool:
    """A cited acronym the name holds ("ISIT" in "… Theory (ISIT)")."""
    return bool(re.search(rf"\b{re.escape(fold(cited))}\b", fold(name))) and is_acronym(cited)


def _as_name_spelled(cited: str, cited_words: list[str], name: str) -> bool:
    """A record's acronym that the cited name, written out, spells (DBLP's "ISSRE")."""
    return is_acronym(name) and _spelled(name, cited, cited_words)


# How a cited venue may agree with one of a record's names, tried in this order (ISO 4, the
# costliest, last but for a section letter left out).
_AGREEMENTS = (
    as_written, _as_initialism, _as_acronym_in_name, _as_name_spelled, as_iso4,
    as_medline_section,
)  # fmt: skip


def _without_agreement(
    cited: str, cited_venue: Venue, names: list[str], known: list[Venue]
) -> VenueComparison:
    """No name agrees: DIFFERENT, unless what the record names cannot be checked against the
    cited venue (a publisher's series, an acronym the table does not know)."""
    full = names[0]
    if all(any(re.search(p, fold(n)) for p in _SERIES) for n in names):
        return VenueComparison(Agreement.UNDECIDED, f"the record names only the series '{full}'")
    if cited_venue.conference is not None:
        return VenueComparison(Agreement.DIFFERENT, f"'{cited}' is not the venue of the record")
    if is_acronym(cited) and not any(_JOURNAL_WORDS.search(fold(n)) for n in names):
        return VenueComparison(
            Agreement.UNDECIDED, f"'{cited}' is an acronym citecheck cannot match to '{full}'"
        )
    # DBLP names a conference by an acronym alone ("QSIC", "CoDIT"): a name written out cannot
    # be checked against one the table does not know (a journal's name can: a journal is no
    # conference's acronym).
    unknown = not known and all(is_acronym(n) for n in names)
    if unknown and not _JOURNAL_WORDS.search(fold(cited)):
        return VenueComparison(
            Agreement.UNDECIDED,
            f"the record names its venue only as '{full}', an acronym citecheck cannot match "
            f"to '{cited}'",
        )
    return VenueComparison(Agreement.DIFFERENT)


def _compare_conferences(cited: Venue, found: list[Venue]) -> VenueComparison:
    assert cited.conference is not None
    same = [v for v in found if v.conference == cited.conference]
    if not same:
        other = found[0].conference
        assert other is not None
        return VenueComparison(
            Agreement.DIFFERENT,
            f"{cited.conference.acronyms[0].upper()} is not {other.acronyms[0].upper()}",
        )
    if all(v.track is not cited.track for v in same):
        return VenueComparison(
            Agreement.DIFFERENT,
            f"{cited.track.value} track cited, the record is in the {same[0].track.value} track",
        )
    return VenueComparison(Agreement.SAME)


def venue_year_problem(cited_venue: str, year: int | None) -> str:
    """A reason when the cited venue cannot have published in the cited year: before the
    conference was first held, or an edition the venue text names for another year."""
    venue = identify(cited_venue)
    if venue.conference is None or year is None:
        return ""
    if year < venue.conference.first_year:
        return (
            f"{venue.conference.acronyms[0].upper()} was first held in "
            f"{venue.conference.first_year}, after the cited year {year}"
        )
    if venue.year is not None and abs(venue.year - year) > 1:
        return f"the venue names the year {venue.year}, the entry {year}"
    return ""
