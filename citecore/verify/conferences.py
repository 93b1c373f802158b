"""The table of computing conferences citecheck recognises: acronyms (current and former), the
words that name each in proceedings titles, the year it was first held, and the years its
proceedings gave papers Crossref DOIs. Rules that read it live in `venues`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


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
    Conference(
        "sigcomm",
        ("sigcomm",),
        (r"\bsigcomm\b", r"special interest group on data communication"),
        1981,
    ),
    Conference("nsdi", ("nsdi",), (r"networked systems design and implementation",), 2004),
    Conference("mobicom", ("mobicom",), (r"mobile computing and networking",), 1995),
    Conference("sosp", ("sosp",), (r"symposium on operating systems principles",), 1967),
    Conference("osdi", ("osdi",), (r"operating systems design and implementation",), 1994),
    Conference(
        "eurosys", ("eurosys",), (r"\beurosys\b", r"european conference on computer systems"), 2006
    ),
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
