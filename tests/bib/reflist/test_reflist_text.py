"""A reference list given as text (a `.txt` list, a Markdown section, the text of a PDF), split
as a reader splits it: where its section starts, where each entry starts — numbered, bulleted,
paragraphs, hanging indents, author–year entries set one after another — how an entry's lines
join back into what was printed, and how each entry is named in reports."""

from __future__ import annotations

import pytest

from citecore.bib.reflist.read import references_from_list_file, references_from_text
from citecore.bib.reflist.text import (
    ends_entry,
    has_marker,
    is_heading,
    join_lines,
    numbered_starts,
    opens_like_names,
    reference_section,
    split_references,
)

# --- Where the list starts --------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "References",
        "REFERENCES",
        "5. References",
        "5 References",
        "## Bibliography",
        "Literature Cited",
        "Works cited:",
        "Reference list",
        "Literaturverzeichnis",
        "Références",
        "Referencias",
        "参考文献",
        "R E F E R E N C E S",
        "B i b l i o g r a p h y",
    ],
)
def test_a_reference_section_heading_in_any_of_its_usual_forms(line: str) -> None:
    assert is_heading(line)


@pytest.mark.parametrize(
    "line",
    [
        "References to earlier work are given in the text.",
        "See the references below",
        "Further reading and references",
        "R e f",
        "",
    ],
)
def test_a_sentence_that_speaks_of_references_is_no_heading(line: str) -> None:
    assert not is_heading(line)


def test_the_list_is_what_follows_the_last_heading() -> None:
    text = "Intro\nReferences\nin the text is no heading.\nBody.\n\nReferences\n[1] A. B, 2020.\n"
    section, offset = reference_section(text)
    assert section == "\n[1] A. B, 2020.\n"
    assert offset == 5  # the heading's line, 0-based: entries count their lines from there
    assert reference_section("no heading at all\n") == ("no heading at all\n", 0)


# --- Where each entry starts -------------------------------------------------------------------


def test_numbered_entries_count_up_by_one_in_one_style() -> None:
    lines = [
        "1. Smith J. A first work. J Tests. 2019;1:1-2.",
        "2019. A line of a wrapped entry that begins with a year.",
        "2. Doe J. A second work. J Tests. 2020;2:3-4.",
        "12) not this style",
        "3. Roe R. A third. J Tests. 2021;3:5.",
        "5. A number that skips is a wrapped line.",
    ]
    assert numbered_starts(lines) == [0, 2, 4]


def test_numbering_starts_at_the_entry_numbered_one() -> None:
    lines = ["7. A footnote of the page before.", "[1] First, 2001.", "[2] Second, 2002."]
    assert numbered_starts(lines) == [1, 2]
    assert numbered_starts(["no numbers", "at all"]) == []


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["Deep learn-", "ing for all. 2020."], "Deep learning for all. 2020."),
        (["An Object-", "Oriented design. 2019."], "An Object-Oriented design. 2019."),
        (["https://doi.org/10.1000/", "abc.123"], "https://doi.org/10.1000/abc.123"),
        (["doi:10.1371/journal.", "pone.0033693"], "doi:10.1371/journal.pone.0033693"),
        (["See https://example.org/a/b", "/c.html for more"],
         "See https://example.org/a/b/c.html for more"),
        (["A work, 2019. doi:10.1000/xyz.", "Next sentence"],
         "A work, 2019. doi:10.1000/xyz. Next sentence"),
        (["   Spaced   ", "  lines  "], "Spaced lines"),
        (["A well-", "Known name"], "A well-Known name"),
    ],
)  # fmt: skip
def test_an_entrys_lines_join_as_printed(lines: list[str], joined: str) -> None:
    assert join_lines(lines) == joined


@pytest.mark.parametrize(
    ("line", "opens"),
    [
        ("Smith, J. (2020). A title.", True),
        ("van der Walt, S., Colbert, S. C.", True),
        ("J. A. Smith and B. Doe. A title.", True),
        ("Smith JA, Doe B. A title.", True),
        ("World Bank Group (2023). Report.", True),
        ("and the results of the survey were", False),
        ("Journal of Tests, 12(3), 45–67.", False),
    ],
)
def test_a_line_that_opens_like_a_name_list(line: str, opens: bool) -> None:
    assert opens_like_names(line) is opens


@pytest.mark.parametrize(
    ("line", "ends"),
    [
        ("Journal of Tests, 12, 45–67.", True),
        ("(accessed 2 May 2020)", True),
        ("https://doi.org/10.1000/xyz", True),
        ("Journal of Tests, 12,", False),
        ("Smith, J., Doe, B. and", False),
    ],
)
def test_a_line_that_can_end_an_entry(line: str, ends: bool) -> None:
    assert ends_entry(line) is ends


@pytest.mark.parametrize(
    ("text", "marked"),
    [
        ("Smith J. A work. 2019.", True),
        ("Chauhan D. (n.d.) Speedup of systems.", True),
        ("Intel C++ Compiler. https://software.intel.com", True),
        ("A preprint. arXiv:1706.03762", True),
        ("A work. doi:10.1000/xyz", True),
        ("Appendix A: further tables", False),
        ("Acknowledgements to the reviewers", False),
    ],
)
def test_an_entry_carries_a_date_or_an_identifier(text: str, marked: bool) -> None:
    assert has_marker(text) is marked


def test_paragraph_entries_and_what_is_no_reference() -> None:
    text = (
        "Smith, J. (2019). A first work.\nJournal of Tests, 1, 1–2.\n\n"
        "Appendix A: tables of results\n\n"
        "Doe, B. (2020). A second work. Journal of Tests, 2, 3–4.\n"
    )
    entries = split_references(text)
    assert [e.text for e in entries] == [
        "Smith, J. (2019). A first work. Journal of Tests, 1, 1–2.",
        "Doe, B. (2020). A second work. Journal of Tests, 2, 3–4.",
    ]
    assert [e.line for e in entries] == [1, 6]


def test_author_year_entries_set_one_after_another_are_split_where_a_name_opens() -> None:
    text = (
        "Smith, J. (2019). A first work that runs\n"
        "over two lines. Journal of Tests, 1, 1–2.\n"
        "Doe, B., & Roe, R. (2020). A second work. Journal of Tests, 2, 3–4.\n"
        "World Bank Group (2021). A report. Washington, DC.\n"
    )
    entries = split_references(text)
    assert [e.text.split(" (")[0] for e in entries] == [
        "Smith, J.",
        "Doe, B., & Roe, R.",
        "World Bank Group",
    ]
    assert [e.line for e in entries] == [1, 3, 4]


def test_a_hanging_indent_kept_in_text_splits_at_the_flush_lines() -> None:
    text = (
        "Smith, J. 2019. A first work whose title runs on\n"
        "    and on. Journal of Tests 1: 1–2.\n"
        "Doe, B. 2020. A second work\n"
        "    in two lines. Journal of Tests 2: 3–4.\n"
    )
    entries = split_references(text)
    assert len(entries) == 2
    assert entries[1].text == "Doe, B. 2020. A second work in two lines. Journal of Tests 2: 3–4."


def test_numbered_and_bulleted_lists() -> None:
    numbered = "[1] A. Smith, “One,” 2019.\n    continued here.\n[2] B. Doe, “Two,” 2020.\n"
    assert [e.text for e in split_references(numbered)] == [
        "A. Smith, “One,” 2019. continued here.",
        "B. Doe, “Two,” 2020.",
    ]
    bulleted = "- Smith J. One. 2019.\n- Doe B. Two. 2020.\n* Roe R. Three. 2021.\n"
    assert len(split_references(bulleted)) == 3


# --- How the entries are named --------------------------------------------------------------


def test_each_entry_is_named_by_its_place_first_author_and_year() -> None:
    text = (
        "References\n\n"
        "1. Müller-Lüdenscheidt K, Doe B. A first work. J Tests. 2019;1:1-2.\n"
        "2. World Health Organization. Global report. Geneva: WHO; 2020.\n"
        "3. A title alone without authors or a date. https://example.org/page\n"
    )
    keys = [r.key for r in references_from_list_file(text, "refs.txt")]
    assert keys[0] == "ref1-mullerludenscheidt2019"
    assert keys[1].startswith("ref2-") and keys[1].endswith("2020")
    assert keys[2] == "ref3"


def test_a_markdown_document_is_read_from_its_reference_section() -> None:
    text = (
        "# A paper\n\nIt cites things (Smith 2019).\n\n# References\n\n"
        "Smith, J. (2019). A first work. *Journal of Tests*, 1, 1–2. https://doi.org/10.1000/one\n"
    )
    (reference,) = references_from_list_file(text, "paper.md")
    assert reference.location.line == 7
    assert reference.doi == "10.1000/one"
    assert (reference.title, reference.year) == ("A first work", 2019)


def test_line_numbers_count_from_the_start_of_the_file() -> None:
    (first, second) = references_from_text(
        "[1] Smith J. One. 2019.\n\n[2] Doe B. Two. 2020.\n", "r.txt", 10
    )
    assert (first.location.line, second.location.line) == (11, 13)
