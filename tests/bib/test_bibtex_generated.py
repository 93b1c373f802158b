"""The BibTeX reader against its oracle on generated bibliographies: the generator writes
each entry in one of the many ways BibTeX allows (braces or quotes, LaTeX accents, protected
words, @string macros and `#` concatenation, month macros, name orders, particles and
organisations, DOIs as URLs, comments and stray text between entries) and knows the values it
meant; the reader must give back exactly those, each at the line it starts on."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.bib.bibtex import parse_bibtex
from citecore.model import Person

# (how it is written, what it means)
ACCENTED = (
    ("{\\\"o}", "ö"), ("{\\'e}", "é"), ("\\'{e}", "é"), ("{\\`a}", "à"), ("{\\^o}", "ô"),
    ("{\\~n}", "ñ"), ("{\\c c}", "ç"), ("{\\ss}", "ß"), ("{\\aa}", "å"), ("{\\o}", "ø"),
    ("\\&", "&"), ("{\\v s}", "š"),
)  # fmt: skip
PLAIN_WORDS = ("Deep", "learning", "of", "graphs", "for", "citation", "checking", "models",
               "Neural", "retrieval", "in", "the", "wild", "Bayesian", "inference")  # fmt: skip
FAMILIES = ("Smith", "Nguyen", "Okafor", "Müller", "García", "Ivanova", "Chen", "Dubois")
GIVENS = ("Ada", "Jean-Luc", "Mary Ann", "K.", "Li", "Zoë")
PARTICLES = ("von", "van der", "de la", "")
MONTHS = (("jan", 1), ("{Feb.}", 2), ("{March}", 3), ("4", 4), ("{05}", 5), ("sep", 9),
          ("{September}", 9), ("dec", 12))  # fmt: skip


@dataclass
class Written:
    """One generated entry: its BibTeX text and what it means."""

    key: str
    text: str
    title: str
    people: tuple[Person, ...]
    year: int
    date: str = ""
    doi: str = ""
    strings: dict[str, str] = field(default_factory=dict)


@st.composite
def words(draw: st.DrawFn) -> list[tuple[str, str]]:
    """(written, meant) for each word of a title: plain, accented or brace-protected."""
    parts: list[tuple[str, str]] = draw(
        st.lists(
            st.one_of(
                st.sampled_from(PLAIN_WORDS).map(lambda w: (w, w)),
                st.tuples(st.sampled_from(PLAIN_WORDS), st.sampled_from(ACCENTED)).map(
                    lambda pair: (pair[0] + pair[1][0], pair[0] + pair[1][1])
                ),
                st.sampled_from(("BERT", "GPT", "DNA", "LaTeX")).map(lambda w: ("{" + w + "}", w)),
            ),
            min_size=1,
            max_size=7,
        )
    )
    return parts


@st.composite
def person(draw: st.DrawFn) -> tuple[str, Person]:
    """(written, meant) for one name in a BibTeX name list."""
    if draw(st.integers(0, 9)) == 0:
        name = draw(st.sampled_from(("World Health Organization", "The {LIGO} Collaboration")))
        meant = name.replace("{", "").replace("}", "")
        return "{" + name + "}", Person(meant, is_organization=True)
    family = draw(st.sampled_from(FAMILIES))
    given = draw(st.sampled_from(GIVENS))
    particle = draw(st.sampled_from(PARTICLES))
    written_family = family.replace("ü", '{\\"u}').replace("í", "{\\'i}")
    if draw(st.booleans()):  # "von Last, First"
        written = f"{particle} {written_family}, {given}".strip()
    else:  # "First von Last"
        written = " ".join(p for p in (given, particle, written_family) if p)
    return written, Person(family, given, particle)


@st.composite
def entry(draw: st.DrawFn, index: int) -> Written:
    key = f"key{index}{draw(st.sampled_from(('', ':x', '-y', '_z', '2020')))}"
    parts = draw(words())
    title_written, title = " ".join(w for w, _ in parts), " ".join(m for _, m in parts)
    names = draw(st.lists(person(), min_size=1, max_size=4))
    year = draw(st.integers(1900, 2025))
    delimit = draw(st.sampled_from(("brace", "quote", "concat")))
    strings: dict[str, str] = {}
    if delimit == "brace":
        title_field = "{" + title_written + "}"
    elif delimit == "quote" and '"' not in title_written:
        title_field = '"' + title_written + '"'
    else:  # an @string macro joined to a literal
        macro = f"pre{index}"
        rest = " ".join(w for w, _ in parts[1:])
        strings[macro] = parts[0][0]
        title_field = f"{macro} # {{{(' ' + rest) if rest else ''}}}"
    fields = [
        f"title = {title_field}",
        "author = {" + " and ".join(w for w, _ in names) + "}",
        f"year = {draw(st.sampled_from((str(year), '{' + str(year) + '}')))}",
    ]
    date = ""
    if draw(st.booleans()):
        month_written, month = draw(st.sampled_from(MONTHS))
        fields.append(f"month = {month_written}")
        date = f"{year}-{month:02d}"
    doi = ""
    if draw(st.booleans()):
        doi = f"10.{draw(st.integers(1000, 99999))}/x{index}.{draw(st.integers(0, 999))}"
        written_doi = draw(st.sampled_from((doi, f"https://doi.org/{doi}", f"doi:{doi}")))
        fields.append(f"doi = {{{written_doi}}}")
    kind = draw(st.sampled_from(("article", "inproceedings", "misc", "Article", "BOOK")))
    separator = draw(st.sampled_from((",\n  ", ", ", ",\n\t")))
    close = draw(st.sampled_from(("", ",")))
    text = f"@{kind}{{{key},\n  " + separator.join(fields) + close + "\n}\n"
    meant = tuple(p for _, p in names)
    return Written(key, text, title, meant, year, date, doi, strings)


@st.composite
def bibliography(draw: st.DrawFn) -> tuple[str, list[Written], dict[str, int]]:
    entries = [draw(entry(i)) for i in range(draw(st.integers(1, 6)))]
    chunks: list[str] = []
    lines: dict[str, int] = {}
    for written in entries:
        for name, value in written.strings.items():
            chunks.append(f"@string{{{name} = {{{value}}}}}\n")
        chunks.append(draw(st.sampled_from(("", "\n", "% a comment\n", "stray text\n",
                                            "@comment{not an entry}\n"))))  # fmt: skip
        lines[written.key] = "".join(chunks).count("\n") + 1
        chunks.append(written.text)
    return "".join(chunks), entries, lines


@settings(max_examples=int(os.environ.get("CITECHECK_FUZZ_EXAMPLES", "150")), deadline=None)
@given(bibliography())
def test_the_reader_gives_back_what_was_meant(
    generated: tuple[str, list[Written], dict[str, int]],
) -> None:
    text, entries, lines = generated
    parsed = parse_bibtex(text, "gen.bib")
    assert not parsed.unparsed, parsed.unparsed
    by_key = {r.key: r for r in parsed.references}
    assert list(by_key) == [e.key for e in entries]
    for written in entries:
        reference = by_key[written.key]
        assert reference.title == written.title, written.text
        assert reference.year == written.year
        assert reference.date == written.date
        assert reference.doi == written.doi
        assert reference.location.line == lines[written.key]
        got = [(p.family, p.given, p.particle, p.is_organization) for p in reference.authors]
        meant = [(p.family, p.given, p.particle, p.is_organization) for p in written.people]
        assert got == meant, written.text
