"""Is the cited venue the record's venue? Venues compared the way writers write them.

A journal is compared against every name the registries give it (full title, Crossref
`short-container-title`, PubMed ISO/NLM abbreviations, OpenAlex abbreviated and alternate titles)
and against the ISO 4 abbreviation of its full title (the LTWA word list shipped by `pyiso4`).
A conference is recognised through `CONFERENCES`, a table of acronyms, former names and the
words of its proceedings titles, with the year it was first held; workshops and "Findings" are
kept apart from main tracks. An acronym is compared through the table, never skipped: "ICML"
for a paper of AAAI is a different venue. What cannot be decided is said, not accused.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache

from pyiso4.ltwa import Abbreviate
from rapidfuzz import fuzz

from citecore.normalize import fold


class Track(Enum):
    """Which part of a conference a paper appeared in; main, workshop and Findings differ."""

    MAIN = "main"
    WORKSHOP = "workshop"
    FINDINGS = "findings"


@dataclass(frozen=True, slots=True)
class Conference:
    """A recurring computing conference: how it is cited and named over the years."""

    key: str
    acronyms: tuple[str, ...]
    names: tuple[str, ...]  # regular expressions over folded venue text
    first_year: int
    # The years whose proceedings gave each paper a Crossref DOI; None: every year (or not known).
    crossref_years: tuple[range, ...] | None = None


# Acronyms (current and former) and the words that name a conference in proceedings titles.
# Patterns run over folded text (lower case, no punctuation); more specific conferences come first
# where one name contains another (PAKDD before KDD, SDM before ICDM).
CONFERENCES: tuple[Conference, ...] = (
    # NeurIPS and ICLR papers never had DOIs; ICML's had them only while ACM published it.
    Conference(
        "neurips", ("neurips", "nips"), (r"neural information processing systems",), 1987, ()
    ),
    Conference(
        "icml",
        ("icml",),
        (r"international conference on machine learning(?! and)",),
        1980,
        (range(2004, 2010),),
    ),
    Conference(
        "iclr", ("iclr",), (r"international conference on learning representations",), 2013, ()
    ),
    Conference("iccv", ("iccv",), (r"international conference on computer vision",), 1987),
    Conference("eccv", ("eccv",), (r"european conference on computer vision",), 1990),
    Conference("wacv", ("wacv",), (r"winter conference on applications of computer vision",), 1992),
    Conference("cvpr", ("cvpr",), (r"computer vision and pattern recognition",), 1983),
    Conference("bmvc", ("bmvc",), (r"british machine vision conference",), 1990),
    Conference("emnlp", ("emnlp",), (r"empirical methods in natural language processing",), 1996),
    Conference(
        "naacl",
        ("naacl", "naacl hlt", "hlt naacl"),
        (r"north american chapter of the association for computational linguistics",),
        2000,
    ),
    Conference(
        "eacl",
        ("eacl",),
        (r"european chapter of the association for computational linguistics",),
        1983,
    ),
    Conference(
        "aacl",
        ("aacl", "ijcnlp"),
        (r"asia pacific chapter of the association for computational",),
        2020,
    ),
    Conference(
        "conll", ("conll",), (r"conference on computational natural language learning",), 1997
    ),
    Conference(
        "coling", ("coling",), (r"international conference on computational linguistics",), 1965
    ),
    Conference("lrec", ("lrec",), (r"language resources and evaluation",), 1998),
    Conference(
        "acl",
        ("acl",),
        (
            r"annual meeting of the association for computational linguistics",
            r"^association for computational linguistics$",
        ),
        1963,
    ),
    Conference(
        "aaai",
        ("aaai",),
        (
            r"aaai conference on artificial intelligence",
            r"national conference on artificial intelligence",
        ),
        1980,
    ),
    Conference(
        "ijcai", ("ijcai",), (r"international joint conference on artificial intelligence",), 1969
    ),
    Conference("ecai", ("ecai",), (r"european conference on artificial intelligence",), 1982),
    Conference("pakdd", ("pakdd",), (r"pacific asia conference on knowledge discovery",), 1997),
    Conference(
        "ecmlpkdd",
        ("ecml", "pkdd", "ecml pkdd", "ecmlpkdd"),
        (
            r"european conference on machine learning",
            r"principles and practice of knowledge discovery",
        ),
        1986,
    ),
    Conference("kdd", ("kdd", "sigkdd"), (r"knowledge discovery and data mining",), 1995),
    Conference("sdm", ("sdm",), (r"siam international conference on data mining",), 2001),
    Conference("icdm", ("icdm",), (r"international conference on data mining",), 2001),
    Conference("wsdm", ("wsdm",), (r"web search and data mining",), 2008),
    Conference("cikm", ("cikm",), (r"conference on information and knowledge management",), 1992),
    Conference(
        "www",
        ("www", "thewebconf", "webconf"),
        (r"world wide web", r"^the web conference", r"\bweb conference\b"),
        1994,
    ),
    Conference("sigir", ("sigir",), (r"research and development in information retrieval",), 1978),
    Conference("recsys", ("recsys",), (r"conference on recommender systems",), 2007),
    Conference("chi", ("chi",), (r"human factors in computing systems",), 1982),
    Conference("uist", ("uist",), (r"user interface software and technology",), 1988),
    Conference("uai", ("uai",), (r"uncertainty in artificial intelligence",), 1985),
    Conference("aistats", ("aistats",), (r"artificial intelligence and statistics",), 1985),
    Conference(
        "colt",
        ("colt",),
        (r"conference on learning theory", r"computational learning theory"),
        1988,
    ),
    Conference("alt", ("alt",), (r"algorithmic learning theory",), 1990),
    Conference("acml", ("acml",), (r"asian conference on machine learning",), 2009),
    Conference("mlsys", ("mlsys", "sysml"), (r"machine learning and systems", r"^sysml"), 2018),
    Conference("corl", ("corl",), (r"conference on robot learning",), 2017),
    Conference("l4dc", ("l4dc",), (r"learning for dynamics and control",), 2019),
    Conference("rss", ("rss",), (r"robotics science and systems",), 2005),
    Conference("icra", ("icra",), (r"international conference on robotics and automation",), 1984),
    Conference("iros", ("iros",), (r"intelligent robots and systems",), 1988),
    Conference("aamas", ("aamas",), (r"autonomous agents and multi ?agent systems",), 2002),
    Conference("icaps", ("icaps",), (r"automated planning and scheduling",), 2003),
    Conference("kr", ("kr",), (r"principles of knowledge representation and reasoning",), 1989),
    Conference("miccai", ("miccai",), (r"medical image computing and computer assisted",), 1998),
    Conference("icassp", ("icassp",), (r"acoustics speech and signal processing",), 1976),
    Conference("interspeech", ("interspeech",), (r"^interspeech",), 2000),
    Conference("icpr", ("icpr",), (r"international conference on pattern recognition",), 1973),
    Conference(
        "mm",
        ("acm mm", "acmmm"),
        (r"acm international conference on multimedia", r"^acm multimedia"),
        1993,
    ),
    Conference("isit", ("isit",), (r"international symposium on information theory",), 1954),
    Conference(
        "infocom", ("infocom",), (r"\binfocom\b", r"conference on computer communications"), 1982
    ),
    Conference("sigcomm", ("sigcomm",), (r"\bsigcomm\b",), 1981),
    Conference("nsdi", ("nsdi",), (r"networked systems design and implementation",), 2004),
    Conference("mobicom", ("mobicom",), (r"mobile computing and networking",), 1995),
    Conference("sosp", ("sosp",), (r"symposium on operating systems principles",), 1967),
    Conference("osdi", ("osdi",), (r"operating systems design and implementation",), 1994),
    Conference("eurosys", ("eurosys",), (r"\beurosys\b",), 2006),
    Conference("asplos", ("asplos",), (r"architectural support for programming languages",), 1982),
    Conference("isca", ("isca",), (r"international symposium on computer architecture",), 1973),
    Conference("pldi", ("pldi",), (r"programming language design and implementation",), 1979),
    Conference("popl", ("popl",), (r"principles of programming languages",), 1973),
    Conference("icse", ("icse",), (r"international conference on software engineering",), 1975),
    Conference("fse", ("fse", "esec fse"), (r"foundations of software engineering",), 1993),
    Conference("stoc", ("stoc",), (r"symposium on theory of computing",), 1969),
    Conference("focs", ("focs",), (r"foundations of computer science",), 1960),
    Conference("soda", ("soda",), (r"symposium on discrete algorithms",), 1990),
    Conference("sigmod", ("sigmod",), (r"management of data",), 1975),
    Conference("vldb", ("vldb", "pvldb"), (r"very large data bases",), 1975),
    Conference("icde", ("icde",), (r"international conference on data engineering",), 1984),
    Conference("ccs", ("ccs",), (r"computer and communications security",), 1993),
    Conference("sp", ("s&p", "sp", "oakland"), (r"symposium on security and privacy",), 1980),
    Conference("usenixsec", ("usenix security",), (r"usenix security symposium",), 1990, ()),
    Conference("ndss", ("ndss",), (r"network and distributed system security",), 1993),
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
_STOPWORDS = frozenset(
    "a an the of in on for to and with by at from und der die das de la le et".split()
)
_NOISE = frozenset(
    "proceedings proc annual conference conf international intl int workshop symposium".split()
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


def _named_year(venue: str) -> int | None:
    years = [int(y) for y in re.findall(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)", venue)]
    if years:
        return years[0]
    short = re.search(r"\b[A-Za-z]{2,}[ '’](\d{2})\b", venue)  # "ICML'19", "NIPS 17"
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


def is_acronym(venue: str) -> bool:
    """ "NeurIPS", "CVPR", "ICLR 2015", "NAACL-HLT": a short acronym, not a written-out name or
    an abbreviated one ("Nat Commun")."""
    core = re.sub(r"['’]?\d{2,4}", "", venue).strip()
    tokens = re.split(r"[\s-]+", core)
    return bool(re.fullmatch(r"[A-Za-z&-]{2,12}(?: [A-Za-z&-]{2,8})?", core)) and all(
        sum(c.isupper() for c in token) >= 2 for token in tokens
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


def _words(venue: str) -> list[str]:
    """Content words of a venue: folded, runs of initials joined ("U. S. A." → "usa"), no
    parentheses, numbers, stopwords or noise words."""
    folded = _joined_initials(fold(re.sub(r"\(.*?\)", " ", venue.replace("&", " and "))).split())
    return [
        w
        for i, w in enumerate(folded)
        if (w not in _STOPWORDS or (len(w) == 1 and i == len(folded) - 1))  # "J. Phys. A"
        and w not in _NOISE
        and not re.fullmatch(r"\d+(st|nd|rd|th)?", w)
    ]


def _joined_initials(words: list[str]) -> list[str]:
    joined: list[str] = []
    run = ""
    for word in words:
        if len(word) == 1 and word.isalpha():
            run += word
            continue
        if run:
            joined.append(run)
            run = ""
        joined.append(word)
    return [*joined, run] if run else joined


def _abbreviates_word(short: str, full: str) -> bool:
    """ "natl" abbreviates "national": same first letter, the rest in order (ISO 4 style)."""
    if not short or not full or short[0] != full[0] or len(short) > len(full):
        return False
    letters = iter(full)
    return all(char in letters for char in short)


def _same_words(cited: list[str], found: list[str]) -> bool:
    if not cited or not found:
        return False
    if cited == found:
        return True
    if len(cited) == len(found) and all(
        _abbreviates_word(c, f) or _abbreviates_word(f, c)
        for c, f in zip(cited, found, strict=True)
    ):
        return True
    shorter, longer = sorted((cited, found), key=len)
    if len(shorter) >= 3 and longer[: len(shorter)] == shorter:
        return True  # "Proc Natl Acad Sci" and "… USA"
    differing = set(cited) ^ set(found)
    if any(len(word) <= 2 for word in differing):
        return False  # "Physical Review B" is not "… D": a section letter is the journal
    if min(len(cited), len(found)) >= 3:
        return fuzz.token_sort_ratio(" ".join(cited), " ".join(found)) >= 90
    return False


@cache
def _ltwa() -> object:
    return Abbreviate.create()


@cache
def iso4(title: str) -> str:
    """The ISO 4 abbreviation of a journal title ("Proc. Natl. Acad. Sci. U. S. A.")."""
    abbreviate = _ltwa()
    try:
        return str(abbreviate(title, remove_part=True))  # type: ignore[operator]
    except (ValueError, KeyError, IndexError, AttributeError):
        return ""


def _initials(words: list[str]) -> str:
    return "".join(w[0] for w in words if w)


def _initialisms(name: str, content_words: list[str]) -> set[str]:
    """What an initialism of a venue can spell: the initials of its content words, with and
    without words such as "Proceedings" ("PNAS" for the Proceedings of the National Academy of
    Sciences, "JMLR" for the Journal of Machine Learning Research)."""
    folded = fold(re.sub(r"\(.*?\)", " ", name.replace("&", " and "))).split()
    every = [w for w in _joined_initials(folded) if w not in _STOPWORDS and not w.isdigit()]
    return {_initials(content_words), _initials(every)}


def compare_venues(cited: str, names: Sequence[str]) -> VenueComparison:
    """The cited venue against every name a record gives its venue (the first is the full name).

    SAME when any name agrees (as written, abbreviated word by word, by ISO 4, as an acronym of
    the name's words, or as the same table conference and track); DIFFERENT when the record names a
    venue and none agrees; UNDECIDED when the record names only a publisher's series or an
    acronym the table does not know meets a name it cannot be checked against.
    """
    # NLM titles qualify in parentheses ("Angewandte Chemie (International ed. in English)"):
    # the name is compared with and without what the parentheses hold.
    # A journal's subtitle is often left out ("Journal of Physics A: Mathematical and …").
    variants = (
        (n, re.sub(r"[()]", " ", n), n.split(":")[0] if n.count(":") == 1 else n) for n in names
    )
    names = list(dict.fromkeys(v for group in variants for v in group if v.strip()))
    if not names or not cited.strip():
        return VenueComparison(Agreement.UNDECIDED, "no venue to compare")
    cited_venue = identify(cited)
    found_venues = [identify(n) for n in names]
    known = [v for v in found_venues if v.conference is not None]
    if cited_venue.conference is not None and known:
        return _compare_conferences(cited_venue, known)
    cited_words = _words(cited)
    for name in names:
        found_words = _words(name)
        if _same_words(cited_words, found_words):
            return VenueComparison(Agreement.SAME)
        if len(cited_words) == 1 and cited_words[0] in _initialisms(name, found_words):
            return VenueComparison(Agreement.SAME)  # "JMLR", "PNAS"-style initialisms
        if re.search(rf"\b{re.escape(fold(cited))}\b", fold(name)) and is_acronym(cited):
            return VenueComparison(Agreement.SAME)  # "ISIT" in "… Theory (ISIT)"
    full = names[0]
    if not is_acronym(cited) and not is_acronym(full):
        abbreviated = _words(iso4(full))
        if abbreviated and _same_words(cited_words, abbreviated):
            return VenueComparison(Agreement.SAME)
    if all(any(re.search(p, fold(n)) for p in _SERIES) for n in names):
        return VenueComparison(Agreement.UNDECIDED, f"the record names only the series '{full}'")
    if cited_venue.conference is not None:
        return VenueComparison(Agreement.DIFFERENT, f"'{cited}' is not the venue of the record")
    if is_acronym(cited) and not any(_JOURNAL_WORDS.search(fold(n)) for n in names):
        return VenueComparison(
            Agreement.UNDECIDED, f"'{cited}' is an acronym citecheck cannot match to '{full}'"
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
