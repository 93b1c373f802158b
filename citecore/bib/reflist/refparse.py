"""One printed reference read into fields: authors, year, title, venue, DOI, arXiv id, URL.

A reference is read the way a librarian reads an unfamiliar style: find the identifiers (they
have fixed shapes), then the author list from how its first name is written — "Family, G. G."
(APA, Nature, ACS), "Family GG" (Vancouver, PLOS), "G. G. Family" (IEEE), "Given Family" (ACL,
NeurIPS) — and where that list ends; then the year, either right after the authors (author–year
styles: "(2013).", ". 2013.", ", 2013.") or late in the entry (numbered styles); then the title:
the quoted text, or the sentence after the authors and year. What cannot be read is left empty,
never guessed: verification then says `unverifiable` rather than `mismatch`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from citecore.identifiers import arxiv_in_text, normalize_doi
from citecore.model import Person, Reference, SourceLocation

# A year, not the start of an arXiv id ("1607.06450"), part of a longer number or of an article
# number ("e1503"), or the end of a page range ("1638–1649").
YEAR = re.compile(r"(?<![\w./:–-])(1[5-9]\d\d|20\d\d)[a-z]?(?![\d–]|\.\d)")
DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"<>]+", re.IGNORECASE)
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
# A quoted title, closed by the mark that matches its opening one; inside single quotes an
# apostrophe within a word ("cell’s") or after a plural before a lower-case word ("Species’
# roles", "metrics’ standardization") does not close it.
_QUOTED = re.compile(
    r"(?:“(?P<curly>[^”]{3,}?)”|\"(?P<straight>[^\"]{3,}?)\""
    r"|‘(?P<single>(?:[^’]|’(?=[^\W\d_])|(?<=s)’(?=\s(?!in\b)[a-z])){3,}?)’"
    r"(?!\s(?!in\b)[a-z]))(?=[\s,.;:?!]|$)"
)


def _quoted_body(match: re.Match[str]) -> str:
    return match.group("curly") or match.group("straight") or match.group("single") or ""


def _stands_alone(text: str, quoted: re.Match[str]) -> bool:
    """Whether a quotation is a title of its own ("Doe, J. “Title,” Venue"), not words quoted
    inside an unquoted title ("… functions for “grid” graphics", "“Utilitarian” judgments in
    …", "A Response to “Redefine Statistical Significance”. PsyArXiv"): it opens after a
    punctuation mark or the entry's start, and closes before punctuation or with its own."""
    before = text[: quoted.start()].rstrip()
    opens = not before or before[-1] in ".,:;)]"
    closes = bool(re.match(r"\s*(?:[.,;:?!(\[]|$)", text[quoted.end() :]))
    return opens and (closes or quoted.group(0)[-2:-1] in ".,?!")


_LETTER = r"[^\W\d_]"
_CAPITAL = r"[^\W\d_a-zß-ÿ]"  # a letter that is not ASCII or Latin-1 lower case
_PARTICLE = r"(?:van|von|der|den|de|del|della|di|da|do|dos|du|la|le|ter|ten|bin|al|el)\b"
_FAMILY = (
    rf"(?:{_PARTICLE}\s+)*"
    rf"{_CAPITAL}[\w'’\-\u0300-\u036f]*(?:\s+(?:Jr\.?|Sr\.?|II|III|IV))?"
)
_INITIALS = rf"{_CAPITAL}\.(?:\s?-?\s?{_CAPITAL}\.|-[a-z]\.)*"  # "J.-h." too
# APA's ellipsis for the authors left out: "…", "..." or, as APA 6 typesets it, ". . .".
_ELLIPSIS = r"(?:\.\.\.|\.\s\.\s\.|…)"
_SEPARATOR = rf"(?:,?\s*(?:&|and)\s+|,\s*(?:{_ELLIPSIS}\s*)?|;\s*)"
_ET_AL = rf"(?:[,;]?\s*(?:et\s+al\.?|{_ELLIPSIS})|[,;]\s*others\b\.?)"

# Each author-list form: one name, as a pattern; a list is names joined by separators. A family
# name before ", G." may be several words ("Adams Redai, J.", "van der Walt, S."), never a
# sentence: no period-space, digit or bracket inside it.
_LOOSE_FAMILY = r"(?:[^\W\d_]|[\s'’\-\u0300-\u036f]|\.(?!\s))+?"
# Initials with periods ("M. C. O. M. I.", "P.-C."), or without where a separator follows at
# once ("Imoto, S, Yamaguchi, R."): "Etz, J. A Bayesian …" must leave the "A" to the title.
# A later initial may have two letters ("Ivanov, P.Ch."); a nickname may follow in parentheses
# ("Li, Z.(Steven)").
_LOOSE_INITIALS = (
    rf"(?:{_CAPITAL}\.(?:\s?-?\s?{_CAPITAL}[a-z]?\.){{0,5}}(?:\s?\([^\W\d_]{{2,20}}\))?"
    rf"|{_CAPITAL}{{1,3}}(?=\s*[,;&(]|$))"
)
_FORMS = {
    # Andrews, M. / Tiana Roig, E. / Walt, S. van der
    "family_initials": rf"{_LOOSE_FAMILY},\s*{_LOOSE_INITIALS}(?:\s+{_PARTICLE})*",
    # Andrews M / Tiana Roig E / Absil P-A / Pagani C do
    "family_letters": (
        rf"{_LOOSE_FAMILY}\s+(?:[A-Z]\.(?:\s?[A-Z]\.){{0,3}}|[A-Z]{{1,4}})(?:-[A-Z]{{1,3}})?\.?(?=[,.\s])"
        rf"(?:\s+{_PARTICLE})*"
    ),
    # M. Andrews / S. J. van der Walt / M. Rijn van de
    "initials_family": rf"{_INITIALS}\s*{_FAMILY}(?:\s+{_PARTICLE})*",
}


@dataclass(frozen=True, slots=True)
class _Authors:
    """The author list at the start of an entry: where it ends and the first author."""

    end: int
    first: Person | None
    complete: bool
    formal: bool = False  # read in one of the name forms: a list, never a title


def _person(name: str, form: str) -> Person:
    name = name.strip(" ,;")
    if form == "family_initials":
        family, given = (part.strip() for part in name.split(",", 1))
    elif form == "family_letters":
        name = re.sub(rf"(?:\s+{_PARTICLE})+$", "", name)
        split = re.match(r"(.+?)\s+((?:[A-Z]\.\s?)+|[A-Z]{1,4}(?:-[A-Z]{1,3})?\.?)$", name)
        family, given = (split.group(1), split.group(2).strip()) if split else (name, "")
    elif form == "initials_family":
        match = re.match(rf"({_INITIALS})\s*(.*)$", name)
        given, family = (match.group(1), match.group(2)) if match else ("", name)
    else:  # "Given Family" or "Family, Given"
        if "," in name:
            family, given = (part.strip() for part in name.split(",", 1))
        else:
            words = name.split()
            particles = [w for w in words[:-1] if w.islower()]
            family = " ".join([*particles, words[-1]])
            given = " ".join(w for w in words[:-1] if not w.islower())
    trailing = re.search(rf"(?:^|\s)((?:{_PARTICLE}\s*)+)$", given)
    if trailing and not family.islower():  # "Walt, Mark van der" (particle shown last)
        given = given[: trailing.start()].strip()
        family = f"{trailing.group(1).strip()} {family}"
    particle_match = re.match(r"^((?:[a-z]+\s+)+)(.+)$", family)
    if particle_match:
        return Person(
            family=particle_match.group(2), given=given, particle=particle_match.group(1).strip()
        )
    return Person(family=family, given=given)


# What follows "Given I" when it is a name in natural order, not "Family I": its family name,
# then more names, or the ACL date.
_FAMILY_AFTER_GIVEN = re.compile(
    r"\s+(?:(?:[Vv]an|[Vv]on|[Dd]e|[Dd]er|[Dd]en|[Dd]a|[Dd]i|[Ll]e|[Ll]a)\s+)*"
    r"[A-Z][\w'’-]+(?:,\s*(?:and\s+)?(?:[A-Z]|others\b)"  # "John D Hunter, others."
    r"|\s+and\s+[A-Z][\w'’-]+\s+[A-Z]"
    r"|\.\s+(?:1[5-9]|20)\d\d[a-z]?\.\s+\S"  # ACL: "… Taylor. 1953. Title"
    r"|(?P<alone>\.\s+(?!In:)[A-Z][\w'’-]*(?P<colon>:)?))"
)


def _given_names_first(name: str, rest: str) -> bool:
    """Whether a name read as "Family I" ("Kevin P", "John K") is the start of "Given I
    Family": its family name follows, then more names, a date or — for one name alone — the
    title: after an initial without a period ("John K Kruschke. What …", where Vancouver's list
    would have ended with one), or one whose title opens "Word:" ("Kevin P. Lawton. Bochs: A
    …"; Vancouver's "Grecco HE. Pint. GitHub …" stays Vancouver's)."""
    after = _FAMILY_AFTER_GIVEN.match(rest)
    if after is None:
        return False
    if after.group("alone") is None:
        return True
    return not name.endswith(".") or after.group("colon") is not None


def _formal_list(text: str) -> _Authors | None:
    """An author list written in one of the formal forms, when the entry opens with one. After
    an inverted first name ("Barabási, A. L., and Z. N. Oltvai") the others may be in order."""
    for form, name in _FORMS.items():
        first = re.match(name, text)
        if not first or re.match(r"(?:The|A|An)\s", text):  # "The QGIS Team": no family "The"
            continue
        if form == "family_letters" and _given_names_first(first.group(0), text[first.end() :]):
            continue  # "Samuel R. Bowman, Gabor …", "Michael L. Van de Vanter, …": given first
        other = name
        if form == "family_initials":
            other = rf"(?:{name}|{_FORMS['initials_family']})"
        listing = re.match(
            rf"{name}(?:{_SEPARATOR}{other})*(?:{_ET_AL}|,?\s*&\s*[^()]{{1,60}}?(?=\s*\(\d))?",
            text,
        )
        assert listing is not None  # the first name alone already matched
        complete = not re.search(_ET_AL, listing.group(0))
        end = listing.end()
        if form == "initials_family":
            end = _natural_list_runs_on(text, end)
            # A list ends at a period, a comma before a title or "(" of an author-year date.
            if not re.match(r"\s*[,.:(“\"]", text[end:]):
                continue
        rest = text[end:]
        goes_on = re.match(r",\s*(?:and\s+)?[^\W\d_]", rest) or re.match(
            rf"\s*{_CAPITAL}[\w'’-]*(?:\s{_CAPITAL}[\w'’-]*)?,\s+(?:and|&)\s", rest
        )  # "…, E.-J. Lee, and Li Lee. 2001.": the initials belonged to the next name
        end = _list_end(text, end, form, bool(goes_on))
        complete = complete and not _ET_AL_ANYWHERE.search(text[:end])
        return _Authors(end, _person(first.group(0), form), complete, formal=True)
    return None


def _list_end(text: str, end: int, form: str, goes_on: bool) -> int:
    """Where a formal list that its reader ended at `end` really ends."""
    if form == "initials_family":
        return end  # already run on: IEEE lists end at the comma before their title
    if _LIST_SEPARATOR.match(text, end):
        # Author–date styles close the list with its date: "…, and 0. Ghattas. 2012. Title" –
        # when all before that date reads as names.
        sentence_end = _SENTENCE_END.search(text, end)
        if (
            sentence_end
            and _DATE_NEXT.match(text, sentence_end.end())
            and _all_names(text[end : sentence_end.start()])
        ):
            return sentence_end.end()
    runs_to = _list_runs_on(text, end)
    if form == "family_initials" and goes_on and runs_to == end:
        # Chicago/MLA: "Smith, E.-J., Li Smith, and María Nguyen. 1974." – the others are in
        # natural order with given names: the list runs to its sentence end.
        sentence_end = _SENTENCE_END.search(text, end)
        runs_to = sentence_end.end() if sentence_end else end
    return runs_to


def _all_names(segment: str) -> bool:
    """Whether each part of `segment` between list separators reads as a name."""
    parts = [p for p in _LIST_SEPARATOR.split(segment) if p.strip()]
    return bool(parts) and all(_NATURAL_NAME.fullmatch(p.strip()) for p in parts)


_DATE_NEXT = re.compile(r"\s+\(?(?:1[5-9]|20)\d\d[a-z]?\)?[.,]")


# What an author list may hold that the formal forms do not read, once a separator shows that
# the list goes on: a group ("leaflet contributors", "The Astropy Collaboration"), a single name
# ("Prabhat"), initials in lower case or mistyped ("J. m.", "0."), particles standing alone
# ("Rijn, van de, M."), an inverted "al., et".
_LIST_SEPARATOR = re.compile(r"(?:\s*[,;]\s*(?:(?:and|&)\s+)?|\s+(?:and|&)\s+)")
_ODD_INITIALS = re.compile(r"(?:[^\W_]\.\s?-?\s?){1,4}")
_ODD_NAME = re.compile(
    r"al\.,?\s+et\b"  # "al., et" / "al. et"
    r"|(?!(?:and|et al)\b)[^\W\d_][\w'’\-\u0300-\u036f]*(?:\.\w+)*"
    r"(?:\s+(?!and\b)(?:[^\W\d_][\w'’\-\u0300-\u036f]*(?:\.\w+)*|[A-Z]\.(?=\s)))"
    r"{0,4}"  # words, or a middle initial: "Anna K. Kruschke"
    r"(?:\s(?!and\b)[^\W_]{1,3}\b)?"  # Vancouver initials, even mistyped: "Ghattas 0"
)
# A name in natural order inside an IEEE list ("0. Ghattas", "the dc.js Developers", "et al.").
_NATURAL_NAME = re.compile(rf"et al\.?|(?:{_ODD_INITIALS.pattern}\s*)?(?:{_ODD_NAME.pattern})")
_DATE_AFTER_LIST = re.compile(r"(?:(?:1[5-9]|20)\d\d[a-z]?|n\.d\.)(?:\s\[[^\]]{1,30}\])?[.,]")
# What closes a list after its last name: the title ("… Zhang, N. R. Gene …") or a date in
# parentheses ("… & Murray, J. m. (1970).").
_LIST_CLOSES = re.compile(r"\s+[^\W_]|\s*\((?:(?:1[5-9]|20)\d\d|n\.d\.)")
_ET_AL_ANYWHERE = re.compile(r"\bet\.?\s+al\b|\bal\.,\s*et\b|\bothers\b")


def _natural_list_runs_on(text: str, end: int) -> int:
    """Where an IEEE list in natural order ("G. Family, G. Family, and G. Family,") ends when
    its reader stopped at a name it could not read: at the name after the list's last "and",
    each name before it read as a name. `end` when there is no such "and" (a title follows)."""
    position = end
    for _ in range(2000):
        separator = _LIST_SEPARATOR.match(text, position)
        if not separator:
            return end
        name = _NATURAL_NAME.match(text, separator.end())
        if not name:
            return end
        position = name.end()
        if re.search(r"\b(?:and)\b|&", separator.group(0)):
            return position if re.match(r"\s*[,.:]", text[position:]) else end
    return end


def _list_runs_on(text: str, end: int) -> int:
    """Where an author list ends when the formal reader stopped at `end` before a separator:
    it runs on, name by name, to a sentence end, to initials followed by the title, or to an
    author–year date (", 2018."). `end` itself when what follows reads as no list (a title, a
    quotation, a date in parentheses): only a list that closes as lists do is taken."""
    position = end
    for _ in range(2000):  # bounded: a name is read at each step
        separator = _LIST_SEPARATOR.match(text, position)
        if not separator:
            # A name left half-read: "Murray, J. m.; …" stopped after "J.".
            tail = re.match(
                r"\s?(?:[^\W\d_]|[a-z]{2,3})(?:\.?(?=\s*[,;&])|\.(?=\s*\((?:1[5-9]|20)\d\d))"
                r"|\s[a-z]\.(?=\s)",  # "Murray, J. m. Title": a lower-case initial is no title
                text[position:],
            )
            if tail and position > end - 1:
                position += tail.end()
                continue
            return position if position > end else end
        start = separator.end()
        if _DATE_AFTER_LIST.match(text, start):
            return position  # Elsevier–Harvard: "…, Botstein, D., 2000. Title"
        initials = _ODD_INITIALS.match(text, start)
        if initials:
            position = start + len(initials.group(0).rstrip())
            if _LIST_SEPARATOR.match(text, position):
                continue
            return position if _LIST_CLOSES.match(text, position) else end
        name = _ODD_NAME.match(text, start)
        if not name:
            return end
        position = name.end()
        if text.startswith(".", position):
            position += 1
            if _LIST_SEPARATOR.match(text, position):
                continue  # "al., et"
            return position if re.match(r"\s+\S", text[position:]) else end
        if _LIST_CLOSES.match(text, position) and text[position:].lstrip().startswith("("):
            return position  # "… and the dc.js Developers (1952)"
        if not _LIST_SEPARATOR.match(text, position):
            return end
    return end


# A sentence end: a period after a word of 2+ letters (not an initial), then space and a capital.
_SENTENCE_END = re.compile(
    r"(?<=[^\W\d_]{2})[.?!](?=\s+[^\W_\"“(]|\s*$)|(?<=et al)\.(?!,)"
    r"|\.(?=\s+\(?(?:1[5-9]|20)\d\d[a-z]?\)?[.,])"  # "Kruschke, John K. 2010."
)


def _plain_list(text: str) -> _Authors | None:
    """An author list of full names ("Given Family, Given Family, and Given Family.") or a
    corporate author, ending at the first sentence end."""
    end = _SENTENCE_END.search(text)
    if not end or end.start() > 400:
        return None
    segment = text[: end.start()]
    if _looks_corporate(segment.strip()):
        return _Authors(end.end(), Person(family=segment.strip(), is_organization=True), True)
    first = re.split(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*", segment, maxsplit=1)[0].strip()
    if not first or len(first.split()) > 6:
        return None
    if re.fullmatch(rf"{_FAMILY}", first) and "," in segment:  # Chicago: "Bekolay, Trevor, …"
        first = segment.split(",")[0] + "," + segment.split(",")[1]
    words = first.split()
    complete = "et al" not in segment and "…" not in segment
    return _Authors(end.end(), _person(first, "plain") if words else None, complete)


_CORPORATE_WORD = re.compile(
    r"\b(?:Team|Group|Department|Dept|Organi[sz]ation|Commission|Bureau|Library|Foundation|"
    r"Institute|Association|Society|Consortium|Collaboration|Inc|Ltd|LLC|GmbH|University|"
    r"Agency|Office|Council|Committee|Ministry|Centre|Center|Board|Repository|Project|"
    r"Corporation|Company|Network|Program(?:me)?|Service|Administration|Authority|Bank)\b"
)
# An author–year date early in an entry: "… (2020)", "…. 2020.", "…, 2020." or "…, n.d."
_EARLY_DATE = re.compile(
    r"\s*\(\s*(?:1[5-9]|20)\d\d[a-z]?\s*[),]"
    r"|(?P<stop>[.,])\s(?:(?:1[5-9]|20)\d\d[a-z]?|n\.d)(?:\s\[[^\]]{1,30}\])?\."
)


_SHORT_NAME = re.compile(r"[^\W\d_][\w'’.\-]*(?:\s\S+){0,3}")
_ONLY_LINK = re.compile(
    r"\s*(?:(?i:available(?:\s+from)?:|url:?)?\s*(?:https?://|doi:|10\.)\S*\s*)?$"
)


def _corporate_author(text: str) -> _Authors | None:
    """An organisation standing as the author before an author–year date ("R Core Team
    (2020)", "U.S. Department of Commerce. 2021.", "OECD (2023)") or, in numbered styles,
    before the first comma ("R Core Team, R: A language …", "The Astropy Collaboration;
    Price-Whelan, A. M.; …"): one name that organisations bear (see `_looks_corporate`). In
    Elsevier–Harvard's "Sanoma, 2024. Title" a short name without initials before the date is
    the author too, whatever it names."""
    date = _EARLY_DATE.search(text, 0, 160)
    if date:
        segment = re.sub(r"\s+et al\.?$", "", text[: date.start()].rstrip(".").strip())
        single = date.group("stop") == "," and _SHORT_NAME.fullmatch(segment)
        # Nothing but a link after the date: the segment is a title standing alone, which
        # the caller reads as such ("Boston … repository, 2009 [Online].").
        one_phrase = not _SENTENCE_END.search(segment) and not re.search(r"[“”\"]", segment)
        alone = one_phrase and date.group("stop") == "," and _ONLY_LINK.match(text, date.end())
        if _looks_corporate(segment) or alone or (single and one_phrase):
            complete = not re.search(r"\bet al\b", segment)
            return _Authors(date.start(), Person(family=segment, is_organization=True), complete)
    # Nature, Vancouver: "The QGIS Team. QGIS project. (2016)." — a name organisations bear.
    sentence = re.match(r"([^,;.“\"]{2,80}?)\.\s", text)
    if (
        sentence
        and _CORPORATE_WORD.search(sentence.group(1))
        and _looks_corporate(sentence.group(1))
    ):
        name = sentence.group(1).strip()
        return _Authors(sentence.end(1), Person(family=name, is_organization=True), True)
    # IEEE: "World Bank Group, “World development indicators,” 2023."
    comma = re.match(r"([^,;“\"]{2,80}?)(?:\s+et al\.?)?(?=[,;]\s)", text)
    if not comma or not _looks_corporate(comma.group(1).strip()):
        return None
    # ACM: "National Academies of Sciences, Engineering, and Medicine. Title": a first sentence
    # that lists "…, and …" with no person's initials, quotation or colon is one organisation's
    # name (or several). (IEEE's "AEA, The … portal, …" is a name and an unquoted title.)
    whole = _SENTENCE_END.search(text)
    name = text[: whole.start()].strip() if whole and whole.start() < 300 else ""
    listed = re.search(r",\s+and\s", name) and not re.search(r"\b[A-Z]\.|[“\":]", name)
    if whole and listed:
        return _Authors(whole.end(), Person(family=name, is_organization=True), True)
    end = _list_runs_on(text, comma.end())
    if end == comma.end() or not re.search(r"(?<!\w)[A-Z]\.", text[comma.end() : end]):
        end = comma.end() + 2  # what follows holds no person's name: it is the title
    complete = not re.search(r"\bet al\b", comma.group(0)) and not _ET_AL_ANYWHERE.search(
        text[:end]
    )
    return _Authors(end, Person(family=comma.group(1).strip(), is_organization=True), complete)


def _looks_corporate(segment: str) -> bool:
    """One name, not a list (no comma but ", Inc."), not a sentence and a title run together
    ("World Bank Group. World development …"), that an organisation would bear."""
    if not segment or re.search(r",(?!\s*(?:Inc|Ltd|LLC)\b)|[^\W\d_]{2}\.\s", segment):
        return False
    acronym = re.fullmatch(r"[A-Z]{2,}(?:\s[A-Z]{2,})*", segment)
    if acronym or _CORPORATE_WORD.search(segment):
        return True
    # Many words and none a person's: no initial, no "and" between two names.
    personal = re.search(r"\b[A-Z]\b\.?|\s(?:and|&)\s", segment)
    return len(segment.split()) >= 4 and not personal


_DATE_AFTER_AUTHORS = re.compile(
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


def _clean_title(title: str) -> str:
    if _URL.match(title.strip()) or DOI.match(title.strip()) or _LINK_LEAD.match(title.strip()):
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


def _title_after(text: str) -> tuple[str, int]:
    """The title at the start of `text` (quoted, or its first sentence) and where it ends."""
    text_start = len(text) - len(text.lstrip(" ,.:"))
    rest = text[text_start:]
    quoted = _QUOTED.match(rest)
    if quoted:
        return _clean_title(_quoted_body(quoted)), text_start + quoted.end()
    sentence = _first_sentence(rest)
    edition = _EDITION_NOTE.match(sentence)
    if edition and len(sentence) < len(rest):  # "(1975) second edition, 1992. Adaptation in …"
        title, end = _title_after(rest[len(sentence) + 1 :])
        return title, text_start + len(sentence) + 1 + end
    # Where a venue follows the title without a capital: "… normalization. arXiv preprint …".
    sentence = re.split(r"[.,]\s+(?:arXiv|[Ii]n:?\s|CoRR|Proc\.|Proceedings)", sentence)[0]
    # ACS books and software: "Title; Publisher, 1959." / "Title; 2019." ("; Part I" is title)
    sentence = re.sub(r";\s(?!Part\b)[^()\[\]]*$", "", sentence)
    return _clean_title(sentence), text_start + len(sentence)


def _late_year(text: str) -> int | None:
    """The publication year of a numbered-style entry: the first year after the title, outside
    URLs and identifiers."""
    bare = _URL.sub(" ", DOI.sub(" ", text))
    # Pages, issues and article numbers look like years: "p. 1834", "no. 1995", "4(40), 1541".
    bare = re.sub(r"\b(?:pp?|no|vol|art|ch|sec|nr)\.\s*[A-Za-z]?\d+|\(\d+\),\s*\d+", " ", bare)
    found = YEAR.search(bare)
    return int(found.group(1)) if found else None


def _title_by_italics(region: str, title: str, italic: Sequence[str]) -> tuple[str, str]:
    """The title as the typesetting shows it, and the venue it shows, where the entry came with
    its italic runs: an italic run right where the title starts is the title (a book, a
    thesis); one that follows a sentence end after the title is the venue, and the title runs
    up to it — through the sentences titles have ("Stellar limb darkening. A new MPS-ATLAS
    library …"). Italic words inside a title (a species, a program) follow no sentence end and
    change nothing."""
    rest = region[len(region) - len(region.lstrip(" ,.:")) :]
    for run in italic:
        head = run[:16]
        if len(head.strip()) < 3:
            continue
        if rest.startswith(head):
            return _clean_title(run) or title, ""
        inside = rest.find(head, 1)
        if 0 < inside < len(title) - 1 and re.search(r"[.?!]$", rest[:inside].rstrip()):
            # A journal inside the first sentence read ("… reasoning—I. *Information
            # Sciences*. [Online] 8 (3)"): the title ends before it, if it reads as a venue.
            venue = _venue(run, rest[inside + len(run) :])
            if venue:
                return _clean_title(rest[:inside].rstrip().rstrip(".")) or title, venue
        at = rest.find(head, max(len(title) - 1, 0))
        before = rest[:at].rstrip() if at > 0 else ""
        # "Title. In: Editors (eds.). *Proceedings*": the book the title is in, not its end.
        if re.search(r"[.,]\s+[Ii]n:?\s", before[max(len(title) - 1, 0) :]):
            return title, ""
        if before and re.search(r"[.?!]$", before) and len(before) >= len(title):
            return _clean_title(before.rstrip(".")) or title, _venue(run, rest[at + len(run) :])
    return title, ""


# What follows a journal or proceedings name: its volume, issue or pages ("*Nature* 521, 436",
# "*J. Stat. Softw.*, vol. 80", "*Proc. X* (pp. 1–10)"); a venue's own run may end with them.
_AFTER_VENUE = re.compile(r"\s*[,:]?\s*(?:vol\.|no\.|pp?\.|\(\d|\(pp|\d)", re.IGNORECASE)
_VOLUME_IN_RUN = re.compile(r"[,;:]?\s+\(?\d+[\w()–-]*$|,\s*\d+[\w()–-]*$")


def _venue(run: str, following: str) -> str:
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
    if no_name or _URL.search(name) or re.match(r"(?i)(?:in|et al)\b", name):
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


def _title_by_tail(region: str, title: str) -> tuple[str, str]:
    """In NLM styles the journal is the sentence right before "YEAR;volume", in Elsevier's
    the sentence that ends with "volume, pages.": the title is all that comes before it — its
    own sentences included — and the journal is that sentence. The title read so far is kept
    unless the tail comes after it."""
    rest = region[len(region) - len(region.lstrip(" ,.:")) :]
    tail = _NLM_TAIL.search(rest) or _ELSEVIER_TAIL.search(rest)
    if not tail or tail.start() < len(title) - 1 or tail.start() > 400:
        return title, ""
    mark = rest[tail.start()]
    whole = _clean_title(rest[: tail.start()] + (mark if mark in "?!" else ""))
    venue = re.sub(r"\s*\[[^\]]*\]$", "", tail.group("venue") or "").strip(" ,")
    return (whole or title), venue


def _with_own_year(title: str, region: str) -> str:
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


def _title_alone(text: str) -> str:
    """The title of an entry that is only a title, its edition, year and link; "" otherwise
    (a name list opens it, or the phrase holds sentences: authors then a title)."""
    alone = _TITLE_ALONE.match(text)
    if alone is None:
        return ""
    formal = _formal_list(text)
    # A name list would leave no title before the link ("Intel VTune Amplifier XE. https://…"
    # read as "Amplifier, X. E."): the phrase is the title.
    if formal is not None and formal.end < alone.end("title"):
        return ""
    title = alone.group("title")
    # A date inside the phrase is an author–year entry's ("ISO, 2019. ISO/TS 12913-3 …").
    dated = re.search(r"\b(?:1[5-9]|20)\d\d[a-z]?[.)]\s", title)
    return "" if _SENTENCE_END.search(title) or dated else _clean_title(title)


# The rule a style prints for "the same authors as the entry before" (IEEE's "——,").
SAME_AUTHORS = re.compile(r"\s*(?:[—–]{2,}|-{3,}|_{3,})\s*[.,]?\s*")


def parse_reference_text(
    text: str, key: str, location: SourceLocation, italic: Sequence[str] = ()
) -> Reference:
    """A Reference from one printed entry; fields it cannot read stay empty. `italic` are the
    entry's runs set in italic, when it came from a PDF (they show where a title ends)."""
    doi_match = DOI.search(text)
    doi = normalize_doi(doi_match.group(0)).rstrip(".,;)") if doi_match else ""
    url_match = _URL.search(text)
    url = (
        url_match.group(0).rstrip(".,;")
        if url_match and "doi.org" not in url_match.group(0)
        else ""
    )
    repeated = SAME_AUTHORS.match(text)
    if repeated:  # "——, “Title,” …": the entry before's authors, which the caller fills in
        return replace(
            parse_reference_text(text[repeated.end() :], key, location, italic), text=text
        )
    alone = _title_alone(text)
    # ACM's entry with no author: its date stands first ("2011. pyfakefs implements …").
    dated_first = re.match(r"\(?(?:1[5-9]|20)\d\d[a-z]?\)?\.\s", text)
    authors = (
        None
        if alone or dated_first or text[:1] in '“"‘'  # a quoted title stands first
        else _formal_list(text) or _corporate_author(text) or _plain_list(text)
    )
    after_authors = text[authors.end :] if authors else text
    title, year = "", None
    date = _DATE_AFTER_AUTHORS.match(after_authors)
    if date:
        number = date.group("paren") or date.group("bare") or date.group("spaced")  # or "n.d."
        year = int(number) if number else None
        after_authors = after_authors[date.end() :]
    # A quoted title soon after the author list (or anywhere, when none was read) is the title,
    # whatever stands between: "et al.", a name the list did not take, a date.
    quoted = _QUOTED.search(text, authors.end if authors else 0)
    start = authors.end if authors else 0
    venue = ""
    if quoted and (not authors or quoted.start() - start < 120) and _stands_alone(text, quoted):
        title, after_title = _clean_title(_quoted_body(quoted)), text[quoted.end() :]
        # The venue of a quoted title is the first italic run after it (IEEE, Chicago).
        venue = next(
            (
                _venue(run, after_title[after_title.index(run[:16]) + len(run) :])
                for run in italic
                if len(run) >= 2 and run[:16] in after_title
            ),
            "",
        )
    else:
        title, title_end = _title_after(after_authors)
        more_names = re.search(r"\bet al\.\s+", title)
        if more_names:  # the list went on past what was read of it: "…, Günther HM, et al. Title"
            after_authors = after_authors[after_authors.index(title) + more_names.end() :]
            title, title_end = _title_after(after_authors)
        after_title = after_authors[title_end:]
        title, venue = _title_by_italics(after_authors, title, italic)
        if not venue:
            title, venue = _title_by_tail(after_authors, title)
    closed = text[authors.end - 1 : authors.end + 1] if authors and not authors.formal else ""
    if authors and not title and date and authors.end < 300 and re.match(r"\.|.,", closed):
        # "Title. (2018). Venue." or "Title, 2009 [Online].": no author list, the title stands
        # first (APA, Harvard, Elsevier–Harvard).
        title, authors = _clean_title(text[: authors.end]), None
    if alone:
        title, venue = alone, ""
    if date and title:
        title = _with_own_year(title, after_authors)
    if year is None:
        year = _late_year(after_title) or _late_year(text)
    return Reference(
        key=key,
        entry_type="misc",
        location=location,
        title=title if len(title.split()) >= 1 and len(title) >= 3 else "",
        authors=(authors.first,) if authors and authors.first else (),
        authors_complete=False,  # only the first author is read from free text
        year=year,
        year_text=str(year) if year else "",
        venue=venue,
        doi=doi,
        arxiv_id=arxiv_in_text(text),
        url=url,
        text=text,
    )
