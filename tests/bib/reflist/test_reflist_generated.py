"""Reference lists as text (hypothesis), judged by the entries they were made from: numbered in
each style ([n], n., n)) or bulleted, wrapped at any width (a wrapped line may begin with a
year, a volume or a page number), with or without blank lines between entries — every entry is
found once, whole, at the line it starts on."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.bib.reflist.text import split_references

SURNAMES = st.sampled_from(["Smith", "García", "Nguyen", "Okafor", "Müller", "Ivanova", "Lee"])
WORDS = st.sampled_from(
    ["learning", "deep", "networks", "of", "the", "protein", "folding", "analysis", "model"]
)


@st.composite
def entry(draw: st.DrawFn) -> str:
    authors = ", ".join(f"{draw(SURNAMES)} {draw(st.sampled_from('ABCDJKM'))}." for _ in range(
        draw(st.integers(1, 4))))  # fmt: skip
    title = " ".join(draw(st.lists(WORDS, min_size=2, max_size=9))).capitalize()
    year = draw(st.integers(1950, 2025))
    volume, first_page = draw(st.integers(1, 400)), draw(st.integers(1, 900))
    tail = draw(
        st.sampled_from(
            [
                f"Journal of Tests, {volume}:{first_page}–{first_page + 9}, {year}.",
                f"{year}. Journal of Tests {volume}, {first_page}.",
                f"In Proceedings of the Conference, pages {first_page}–{first_page + 5}. {year}.",
                f"arXiv:{draw(st.integers(1501, 2412))}.{draw(st.integers(10000, 99999))}, {year}.",
                f"doi:10.{draw(st.integers(1000, 9999))}/x.{year}.{first_page}",
            ]
        )
    )
    return f"{authors} {title}. {tail}"


@st.composite
def reference_lists(draw: st.DrawFn) -> tuple[str, list[str], list[int]]:
    """(the list's text, its entries, the line each starts on)."""
    entries = draw(st.lists(entry(), min_size=2, max_size=8))
    style = draw(st.sampled_from(["[{n}] ", "{n}. ", "{n}) ", "- ", "• "]))
    width = draw(st.integers(30, 90))
    gap = draw(st.booleans())
    lines: list[str] = []
    starts = []
    for number, text in enumerate(entries, start=1):
        starts.append(len(lines) + 1)
        marker = style.format(n=number)
        wrapped = textwrap.wrap(
            text, width, initial_indent=marker, subsequent_indent=" " * len(marker),
            break_on_hyphens=False,
        )  # fmt: skip
        lines += wrapped
        if gap:
            lines.append("")
    return "\n".join(lines) + "\n", entries, starts


@settings(max_examples=200, deadline=None)
@given(reference_lists())
def test_every_entry_is_found_once_whole_at_its_line(
    case: tuple[str, list[str], list[int]],
) -> None:
    text, entries, starts = case
    found = split_references(text)
    assert [f.text for f in found] == entries, text
    assert [f.line for f in found] == starts
