"""The author list at the head of a printed reference: where it ends and whose names it holds,
read from how its first name is written — "Family, G. G." (APA, Nature, ACS), "Family GG"
(Vancouver, PLOS), "G. G. Family" (IEEE), "Given Family" (ACL, NeurIPS) — or a group's name."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from citecore.model import Person

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
    # Andrews M / Tiana Roig E / Absil P-A / Pagani C do / Driggers WB III / Attar S M (its
    # initials spaced, as Vancouver lists go on: ". ", ", " or ":") (then ",", ".", ":")
    "family_letters": (
        rf"{_LOOSE_FAMILY}\s+(?:[A-Z]\.(?:\s?[A-Z]\.){{0,3}}|[A-Z](?:\s[A-Z]){{1,3}}(?=\.\s|,\s|:)|[A-Z]{{1,4}})"
        rf"(?:-[A-Z]{{1,3}})?\.?(?=[,.:\s])"
        rf"(?:\s+(?:Jr|Sr|II|III|IV)\b\.?)?(?:\s+{_PARTICLE})*"  # Driggers WB III
    ),
    # M. Andrews / S. J. van der Walt / M. Rijn van de
    "initials_family": rf"{_INITIALS}\s*{_FAMILY}(?:\s+{_PARTICLE})*",
}


@dataclass(frozen=True, slots=True)
class Authors:
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
        if suffixed := re.match(r"(.+?)\s+(Jr|Sr|II|III|IV)\b\.?$", name):  # "Driggers WB III"
            person = _person(suffixed.group(1), form)
            return replace(person, suffix=suffixed.group(2))
        split = re.match(
            r"(.+?)\s+((?:[A-Z]\.\s?)+|[A-Z](?:\s[A-Z]){1,3}\.?|[A-Z]{1,4}(?:-[A-Z]{1,3})?\.?)$",
            name,
        )
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


def formal_list(text: str) -> Authors | None:
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
        return Authors(end, _person(first.group(0), form), complete, formal=True)
    return None


def _list_end(text: str, end: int, form: str, goes_on: bool) -> int:
    """Where a formal list that its reader ended at `end` really ends."""
    if form == "initials_family":
        return end  # already run on: IEEE lists end at the comma before their title
    if _LIST_SEPARATOR.match(text, end):
        # Author–date styles close the list with its date: "…, and 0. Ghattas. 2012. Title" –
        # when all before that date reads as names.
        sentence_end = SENTENCE_END.search(text, end)
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
        sentence_end = SENTENCE_END.search(text, end)
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


# Words of a title's phrase that no name or group of authors holds ("RGD and other recognition
# sequences for integrins", "secoiridoids and their bioactivity"); "the dc.js Developers" and
# "leaflet contributors" are groups.
_TITLE_WORDS = re.compile(
    r"\b(?:of|for|in|on|with|to|from|by|their|its|our|other|via|using|based|toward|towards|"
    r"into|under|between|through|occurring)\b"
)


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
        if not name or _TITLE_WORDS.search(name.group(0)):
            return end
        position = name.end()
        if re.search(r"\b(?:and)\b|&", separator.group(0)):
            # The last name closes the list with a comma or a period; a colon after it closes
            # a title's first part ("…, N. Bhatt, Ayurveda and traditional Chinese medicine: a
            # comparative overview, …").
            return position if re.match(r"\s*[,.]", text[position:]) else end
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
SENTENCE_END = re.compile(
    r"(?<=[^\W\d_]{2})[.?!](?=\s+[^\W_\"“(]|\s*$)|(?<=et al)\.(?!,)"
    r"|\.(?=\s+\(?(?:1[5-9]|20)\d\d[a-z]?\)?[.,])"  # "Kruschke, John K. 2010."
)


def plain_list(text: str) -> Authors | None:
    """An author list of full names ("Given Family, Given Family, and Given Family.") or a
    corporate author, ending at the first sentence end."""
    end = SENTENCE_END.search(text)
    if not end or end.start() > 400:
        return None
    segment, stop = text[: end.start()], end.end()
    if quote := re.search(r"[“\"]", segment):  # a quoted title ends the list before it
        segment, stop = segment[: quote.start()], quote.start()
    if _looks_corporate(segment.strip()):
        return Authors(stop, Person(family=segment.strip(), is_organization=True), True)
    first = re.split(r",\s*(?:and\s+)?|\s+and\s+|\s*&\s*", segment, maxsplit=1)[0].strip()
    if not first or len(first.split()) > 6:
        return None
    if re.fullmatch(rf"{_FAMILY}", first) and "," in segment:  # Chicago: "Bekolay, Trevor, …"
        first = segment.split(",")[0] + "," + segment.split(",")[1]
    words = first.split()
    complete = "et al" not in segment and "…" not in segment
    return Authors(stop, _person(first, "plain") if words else None, complete)


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


def corporate_author(text: str) -> Authors | None:
    """An organisation standing as the author before an author–year date ("R Core Team
    (2020)", "U.S. Department of Commerce. 2021.", "OECD (2023)") or, in numbered styles,
    before the first comma ("R Core Team, R: A language …", "The Astropy Collaboration;
    Price-Whelan, A. M.; …"): one name that organisations bear (see `_looks_corporate`). In
    Elsevier–Harvard's "Sanoma, 2024. Title" a short name without initials before the date is
    the author too, whatever it names."""
    return _named_before_date(text) or _named_sentence(text) or _named_before_comma(text)


def _named_before_date(text: str) -> Authors | None:
    """The organisation before an author–year date early in the entry."""
    date = _EARLY_DATE.search(text, 0, 160)
    if not date:
        return None
    segment = re.sub(r"\s+et al\.?$", "", text[: date.start()].rstrip(".").strip())
    single = date.group("stop") == "," and _SHORT_NAME.fullmatch(segment)
    # Nothing but a link after the date: the segment is a title standing alone, which
    # the caller reads as such ("Boston … repository, 2009 [Online].").
    one_phrase = not SENTENCE_END.search(segment) and not re.search(r"[“”\"]", segment)
    alone = one_phrase and date.group("stop") == "," and _ONLY_LINK.match(text, date.end())
    if not (_looks_corporate(segment) or alone or (single and one_phrase)):
        return None
    et_al = re.search(r"\bet al\b", segment)
    return Authors(date.start(), Person(family=segment, is_organization=True), not et_al)


def _named_sentence(text: str) -> Authors | None:
    """A first sentence that names an organisation: "The QGIS Team. QGIS project." (Nature)."""
    sentence = re.match(r"([^,;.“\"]{2,80}?)\.\s", text)
    name = sentence.group(1) if sentence else ""
    if not sentence or not _CORPORATE_WORD.search(name) or not _looks_corporate(name):
        return None
    return Authors(sentence.end(1), Person(family=name.strip(), is_organization=True), True)


def _named_before_comma(text: str) -> Authors | None:
    """IEEE: "World Bank Group, “World development indicators,” 2023." — an organisation
    before the first comma (or several, listed as one first sentence)."""
    comma = re.match(r"([^,;“\"]{2,80}?)(?:\s+et al\.?)?(?=[,;]\s)", text)
    if not comma or not _looks_corporate(comma.group(1).strip()):
        return None
    # ACM: "National Academies of Sciences, Engineering, and Medicine. Title": a first sentence
    # that lists "…, and …" with no person's initials, quotation or colon is one organisation's
    # name (or several). (IEEE's "AEA, The … portal, …" is a name and an unquoted title.)
    whole = SENTENCE_END.search(text)
    name = text[: whole.start()].strip() if whole and whole.start() < 300 else ""
    listed = re.search(r",\s+and\s", name) and not re.search(r"\b[A-Z]\.|[“\":]", name)
    if whole and listed:
        return Authors(whole.end(), Person(family=name, is_organization=True), True)
    end = _list_runs_on(text, comma.end())
    if end == comma.end() or not re.search(r"(?<!\w)[A-Z]\.", text[comma.end() : end]):
        end = comma.end() + 2  # what follows holds no person's name: it is the title
    et_al = re.search(r"\bet al\b", comma.group(0)) or _ET_AL_ANYWHERE.search(text[:end])
    return Authors(end, Person(family=comma.group(1).strip(), is_organization=True), not et_al)


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
