"""The title and venue of a printed reference, found after its authors and date: the sentence
that follows them, the italic run a PDF shows, or what the style's tail leaves."""

from __future__ import annotations

import re
from collections.abc import Sequence

from citecore.bib.reflist.authors import SENTENCE_END, formal_list
from citecore.bib.reflist.shapes import DOI, QUOTED, URL, YEAR, quoted_body

DATE_AFTER_AUTHORS = re.compile(
    r"^[\s,.]*(?:\((?:[^()]*?\s)?(?P<paren>(?:1[5-9]|20)\d\d)[a-z]?(?:[,\s][^)]*)?\)"
    r"|(?:(?P<bare>(?:1[5-9]|20)\d\d)[a-z]?|n\.d\.?)(?:\s\[[^\]]{1,30}\])?(?=[.,])"
    r"|\(n\.\s?d\.\)"
    # The Royal Society's and AIP's year with no stop, before the title: "Shaman J. 2020 Title"
    r"|(?P<spaced>(?:1[5-9]|20)\d\d)[a-z]?(?=\s+[\"“‘(]?[^\W\d_]))[.,]?\s*"
)
_ABBREVIATION = re.compile(
    r"(?i:\b(?:vol|no|pp|ed|eds|edn|Proc|Conf|Int|Intl|J|Trans|Rev|Lett|Phys|Natl|Acad|Sci|"
    r"Inc|Ltd|Co|Dept|Univ|St|vs|al|e\.g|i\.e|cf|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|"
    r"Nov|Dec))$"
)


# A species named with its authority, abbreviated: "Ocimum sanctum Linn.", "Mangifera indica L."
_AUTHORITY = re.compile(r"\b[A-Z][a-z]+\s+[a-z]{3,}\s+(?:[Ll]inn|L)$")
# A journal and its year, as Vancouver styles print them after a title: "J Ethnopharmacol
# 2004;93", "Phytomedicine 2000;7".
_JOURNAL_AND_YEAR = re.compile(r"[^.]{2,80}?\s(?:1[5-9]|20)\d\d\s*[;:,(]")


def _not_an_end(before: str, after: str) -> bool:
    """Whether a period between `before` and `after` is inside a title: after an abbreviation
    or a dotted word ("U.S."), or between a title and its numbered part ("… - II. Choosing",
    "… orientation. IV. Further …", "…. Part 2: …")."""
    last = before.rsplit(None, 1)[-1] if before.strip() else ""
    if re.search(r"\d(?:st|nd|rd|th)\s+ed$", before) and after[:1].isupper():
        return False  # "…: An Algorithmic Approach, 3rd ed. McGraw-Hill": the edition ends it
    dotted = re.fullmatch(r"(?:[A-Za-z]\.)+[A-Za-z]", last)  # "U.S", "e.g"
    if _ABBREVIATION.search(before) or dotted or before.endswith("."):
        return True
    if _AUTHORITY.search(before):  # the title goes on, unless a journal and its year follow
        return not _JOURNAL_AND_YEAR.match(after)
    genus = re.search(r"(?:^|[\s/(-])[A-Z]$", before)
    if genus and re.match(r"(?!(?:https?|www|doi|ftp)\b)[a-z]{3,}", after):
        return True  # a genus abbreviated before its species: "LPS/E. coli", "C. elegans"
    numbered = re.search(r"(?:\b|-)[IVX]{1,4}$", before) or re.match(r"[IVX]{1,4}\.\s", after)
    return bool(numbered or re.match(r"Part\s", after))


def _subtitle_follows(after: str) -> bool:
    """Whether what follows a title's "?" or "!" is more of the title: a parenthesis, a dash,
    or a long phrase without figures ("… Shoreline? A Water-rich Atmosphere or …"); a venue
    is short or comes with its volume and year."""
    parenthesis = re.match(r"\(([^)]*)\)", after)
    if parenthesis:  # "(Or, Real-World …)" is title; "(Springer, 1987)" is the imprint
        return not re.search(r"\b(?:1[5-9]|20)\d\d\b", parenthesis.group(1))
    if re.match(r"[–—-]", after):
        return True
    if re.match(r"(?:In\b|Proc|Journal|J\.|Trans|Annals|Advances|IEEE|ACM|arXiv)", after):
        return False
    if re.match(r"[^.?!]{3,120}[.?!]\s+In\s", after):  # "… my code? Falsification-driven
        return True  # verification. In ASE.": the book or proceedings come after the subtitle
    phrase = re.split(r"\.\s|[,;:]\s", after, maxsplit=1)[0]
    return len(phrase.split()) >= 6 and not re.search(r"\d", phrase)


def _first_sentence(text: str) -> str:
    """The text up to its first sentence end: a period, outside brackets, after a word that is
    not a common abbreviation ("?" and "!" are kept, they belong to the title)."""
    depth = 0
    for index, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif char in ".?!" and depth == 0 and (index + 1 == len(text) or text[index + 1] == " "):
            before, after = text[:index], text[index + 1 :].lstrip()
            if (char == "." and _not_an_end(before, after)) or (
                char != "." and _subtitle_follows(after)
            ):
                continue  # "Damn You, Little h! (Or, Real-World …)" goes on
            return text[: index + 1] if char in "?!" else before
    return text


_TRAILERS = re.compile(
    # IEEE: "…, 2nd ed." / "…, vol. 84."
    r"(?:,\s*(?:\d+(?:st|nd|rd|th)?(?:\s+ed\.?)?|vol\.?\s*\d+)$"
    # a date run on: "Java-Adaptive-Resonance-Theory, 2018", "… Research Data, May 2017"
    r"|,\s*(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+)?"
    r"(?:1[5-9]|20)\d\d$"
    r"|\s*\([^()]*\b(?:1[5-9]|20)\d\d\)$"  # Nature's imprint: "… of Data (2020)"
    # Volume and pages run on where no journal name was printed: "… WASP-17b 956, L29".
    r"|\s+\d+(?:\s*\(\d+\))?,\s*[A-Za-z]?\d+(?:[–-][A-Za-z]?\d+)?$"
    r"|(?:\s*(?:\[[^\]]*\]|\((?i:[^()]*\b(?:ed|eds|edn|edition|vol|pp|thesis|dissertation|(?-i:Version))\b[^()]*)\)))+$)"
)


def clean_title(title: str) -> str:
    if URL.match(title.strip()) or DOI.match(title.strip()) or _LINK_LEAD.match(title.strip()):
        return ""  # an entry that goes from its date straight to a link has no title here
    # Vancouver's editors after the title: "…, editor. Name" / "… psychology. Marinazzo D, editor"
    title = re.sub(r"(?:\.\s+[^.]{1,80})?,\s*editors?(?=\W|[A-Z]|$).*$", "", title.strip())
    title = _TRAILERS.sub("", title)
    title = re.sub(r"\s+(?:In|in):?$", "", title)
    return title.strip(" ,.;:")


_LINK_LEAD = re.compile(r"(?i:available(?:\s+from)?:|\[online\]|url:?\s)")


# An edition note that Harvard styles print between the date and the title.
_EDITION_NOTE = re.compile(
    r"(?i)(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|"
    r"tenth|revised|new|expanded|updated)\s+(?:edition|edn|ed)\.?(?:,\s*(?:1[5-9]|20)\d\d)?$"
)


def title_after(text: str) -> tuple[str, int]:
    """The title at the start of `text` (quoted, or its first sentence) and where it ends."""
    text_start = len(text) - len(text.lstrip(" ,.:"))
    rest = text[text_start:]
    quoted = QUOTED.match(rest)
    if quoted:
        return clean_title(quoted_body(quoted)), text_start + quoted.end()
    sentence = _first_sentence(rest)
    if re.fullmatch(r"\[[^\[\]]+\]", sentence):  # a translated title, as NLM brackets it
        return clean_title(sentence[1:-1]), text_start + len(sentence)
    edition = _EDITION_NOTE.match(sentence)
    if edition and len(sentence) < len(rest):  # "(1975) second edition, 1992. Adaptation in …"
        title, end = title_after(rest[len(sentence) + 1 :])
        return title, text_start + len(sentence) + 1 + end
    # Where a venue follows the title without a capital: "… normalization. arXiv preprint …".
    sentence = re.split(r"[.,]\s+(?:arXiv|[Ii]n:?\s|CoRR|Proc\.|Proceedings)", sentence)[0]
    # ACS books and software: "Title; Publisher, 1959." / "Title; 2019." ("; Part I" is title)
    sentence = re.sub(r";\s(?!Part\b)[^()\[\]]*$", "", sentence)
    return clean_title(sentence), text_start + len(sentence)


def late_year(text: str) -> int | None:
    """The publication year of a numbered-style entry: the first year after the title, outside
    URLs and identifiers."""
    bare = URL.sub(" ", DOI.sub(" ", text))
    # Pages, issues and article numbers look like years: "p. 1834", "no. 1995", "4(40), 1541".
    bare = re.sub(r"\b(?:pp?|no|vol|art|ch|sec|nr)\.\s*[A-Za-z]?\d+|\(\d+\),\s*\d+", " ", bare)
    found = YEAR.search(bare)
    return int(found.group(1)) if found else None


def title_by_italics(region: str, title: str, italic: Sequence[str]) -> tuple[str, str]:
    """The title as the typesetting shows it, and the venue it shows, where the entry came with
    its italic runs: an italic run right where the title starts is the title (a book, a
    thesis) unless the sentence goes on after it ("*In vivo* radioprotection …", a species
    opening a title); one that follows a sentence end after the title is the venue, and the
    title runs up to it — through the sentences titles have ("Stellar limb darkening. A new
    MPS-ATLAS library …"). Italic words inside a title (a species, a program) follow no
    sentence end and change nothing."""
    rest = region[len(region) - len(region.lstrip(" ,.:")) :]
    for run in italic:
        head = run[:16]
        if len(head.strip()) < 3:
            continue
        if rest.startswith(head):
            if re.match(r"\s*(?:[^\W\d_]|\d)", rest[len(run) :]) and rest.startswith(run):
                continue  # the title's own first words ("*In vivo* radioprotection by …")
            return clean_title(run) or title, ""
        inside = rest.find(head, 1)
        if 0 < inside < len(title) - 1 and re.search(r"[.?!]$", rest[:inside].rstrip()):
            # A journal inside the first sentence read ("… reasoning—I. *Information
            # Sciences*. [Online] 8 (3)"): the title ends before it, if it reads as a venue.
            venue = venue_of(run, rest[inside + len(run) :])
            if venue:
                return clean_title(rest[:inside].rstrip().rstrip(".")) or title, venue
        at = rest.find(head, max(len(title) - 1, 0))
        before = rest[:at].rstrip() if at > 0 else ""
        # "Title. In: Editors (eds.). *Proceedings*": the book the title is in, not its end.
        if re.search(r"[.,]\s+[Ii]n:?\s", before[max(len(title) - 1, 0) :]):
            return title, ""
        if before and re.search(r"[.?!]$", before) and len(before) >= len(title):
            return clean_title(before.rstrip(".")) or title, venue_of(run, rest[at + len(run) :])
    return title, ""


# What follows a journal or proceedings name: its volume, issue or pages ("*Nature* 521, 436",
# "*J. Stat. Softw.*, vol. 80", "*Proc. X* (pp. 1–10)"); a venue's own run may end with them.
_AFTER_VENUE = re.compile(r"\s*[,:]?\s*(?:vol\.|no\.|pp?\.|\(\d|\(pp|\d)", re.IGNORECASE)
_VOLUME_IN_RUN = re.compile(r"[,;:]?\s+\(?\d+[\w()–-]*$|,\s*\d+[\w()–-]*$")


def venue_of(run: str, following: str) -> str:
    """The venue an italic run names, when what follows it (or its own end) is a volume, issue
    or pages — the mark of a journal or proceedings rather than a book or a program; without
    the volume that styles set in italic with the name ("Journal of Statistical Software, 80").
    "" when the run does not read as a venue: no venue rather than a wrong one."""
    volume = _VOLUME_IN_RUN.search(run)
    # A note between the venue and its volume ("*Information Sciences*. [Online] 8 (3)").
    following = re.sub(r"^\s*[.,]?\s*\[[^\]]{1,20}\]", "", following)
    if not (volume or _AFTER_VENUE.match(following)):
        return ""
    name = run[: volume.start()] if volume else run
    name = re.sub(r"\s*arXiv:\S+$", "", name).strip(" ,.;:")
    no_name = not re.search(r"[^\W\d_]{2}", name)  # a volume alone, where no journal printed
    if no_name or URL.search(name) or re.match(r"(?i)(?:in|et al)\b", name):
        return ""
    return name


# The tail of a Vancouver/PLOS entry: ". Journal Abbrev. 2013;66(1):1–7" or ". … 2013 Jan;66".
# Where the record had no journal, the title runs straight into the date and volume (". 2000
# Nov;363:1081") or, in Nature's order, into volume, pages and year (". 948, L11 (2023)").
_NLM_TAIL = re.compile(
    r"[.?!]\s+(?:(?P<venue>[^.;?!]{2,100}?)\.\s+)?"
    r"(?:1[5-9]|20)\d\d(?:\s+[A-Z][a-z]{2}(?:\s+\d{1,2})?)?\s*[;:]"
    r"|\.\s+\d+,\s*[A-Za-z]?\d+(?:[–-][A-Za-z]?\d+)?\s+\((?:1[5-9]|20)\d\d\)"
)
# Elsevier–Harvard's: ". Journal 406, 747–752." – the journal named without a period in it.
_ELSEVIER_TAIL = re.compile(
    r"[.?!]\s+(?P<venue>[^.;?!\d\[\]]{2,100}?)\s+\d+(?:\s*\(\d+\))?,\s*[A-Za-z]?\d+"
    r"(?:[–-][A-Za-z]?\d+)?\.(?=\s|$)"
)

# Elsevier's numbered style: "…, Title, Journal 347 (2015) 527–529." – the journal after the
# title's last comma, then volume, (year) and pages (whose dash some fonts map to an "e").
_PAGES = r"[A-Za-z]?\d+(?:(?:[–-]|e(?=\d))[A-Za-z]?\d+)?"
_ELSEVIER_NUMBERED_TAIL = re.compile(
    rf",\s+(?P<venue>[^,;?!\d\[\]]{{2,100}}?)\s+(?:\d+(?:\s*\(\d+\))?\s+)?"
    rf"\((?:1[5-9]|20)\d\d[a-z]?\)"
    # pages, an article number and its pages ("e1838, 1–13"), or the link printed instead
    rf"(?:(?:\s+{_PAGES}(?:,\s*{_PAGES})?)?[.,](?=\s|$)|,\s+(?:https?://|doi))"
)


_IN_BOOK = re.compile(r"[.,]\s+[Ii]n:?\s")


def title_by_tail(region: str, title: str) -> tuple[str, str]:
    """In NLM styles the journal is the sentence right before "YEAR;volume", in Elsevier's
    the sentence that ends with "volume, pages." (or, numbered, the phrase after the title's
    last comma before "volume (year) pages."): the title is all that comes before it — its
    own sentences included — and the journal is that sentence. The title read so far is kept
    unless the tail comes after it."""
    rest = region[len(region) - len(region.lstrip(" ,.:")) :]
    tail = _NLM_TAIL.search(rest) or _ELSEVIER_TAIL.search(rest)
    if not tail or tail.start() < len(title) - 1:
        # A title read past its last comma into "Journal 347 (2015) 527–529." ends there.
        tail = _ELSEVIER_NUMBERED_TAIL.search(rest)
        if not tail:
            return title, ""
    if tail.start() > 400 or _IN_BOOK.search(rest, len(title) - 1, tail.start()):
        return title, ""  # "Title. In Book (editors), Publisher. 2007; 125–139": a chapter
    mark = rest[tail.start()]
    whole = clean_title(rest[: tail.start()] + (mark if mark in "?!" else ""))
    venue = re.sub(r"\s*\[[^\]]*\]$", "", tail.group("venue") or "").strip(" ,")
    return (whole or title), venue


def with_own_year(title: str, region: str) -> str:
    """`title` with the parenthesis it ends with in `region` ("… of Banerjee, Chatterjee, and
    Sinha (2012)", "… Susceptibility (Shih, Pittinsky, & Ambady, 1999)"), where the entry's
    date came before the title: a year at the title's end is then the title's own (what it
    replicates or reviews), not the imprint that Nature-like styles print there."""
    at = region.find(title)
    own = _OWN_YEAR.match(region, at + len(title)) if at >= 0 else None
    return title + own.group(0) if own and re.match(r"\s*[.?!]", region[own.end() :]) else title


_OWN_YEAR = re.compile(r"\s*\([^()]{0,80}\b(?:1[5-9]|20)\d\d[a-z]?\)")


# A manual, a program or a web page that prints no author: one unquoted phrase, its edition and
# year, then its link ("Intel C++ Compiler. https://…", "ISO/IEC 14882:2014, Standard for
# Programming Language C++, 2014, https://…", "… Manual, 325383-059US ed., 2016, https://…").
_TITLE_ALONE = re.compile(
    r"(?P<title>[^“”\"]{3,200}?)(?:,\s*\S+\s+ed\.)?(?:,\s*(?:1[5-9]|20)\d\d)?[.,]\s+"
    r"(?:(?i:available(?:\s+from)?:|url:?)\s*)?(?:https?://|www\.)"
)


def title_alone(text: str) -> str:
    """The title of an entry that is only a title, its edition, year and link; "" otherwise
    (a name list opens it, or the phrase holds sentences: authors then a title)."""
    alone = _TITLE_ALONE.match(text)
    if alone is None:
        return ""
    formal = formal_list(text)
    # A name list would leave no title before the link ("Intel VTune Amplifier XE. https://…"
    # read as "Amplifier, X. E."): the phrase is the title.
    if formal is not None and formal.end < alone.end("title"):
        return ""
    title = alone.group("title")
    # A date inside the phrase is an author–year entry's ("ISO, 2019. ISO/TS 12913-3 …").
    dated = re.search(r"\b(?:1[5-9]|20)\d\d[a-z]?[.)]\s", title)
    return "" if SENTENCE_END.search(title) or dated else clean_title(title)
