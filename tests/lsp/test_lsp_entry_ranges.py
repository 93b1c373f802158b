"""The range a quick fix replaces in the writer's .bib is exactly the entry (hypothesis, on the
generated bibliographies of tests/bib): every entry's range holds its text and nothing else,
and replacing one entry leaves every other entry as the reader read it."""

from __future__ import annotations

from hypothesis import given, settings

from citecore.bib.bibtex import parse_bibtex
from citecore.lsp.features import entry_lines
from tests.bib.test_bibtex_generated import Written, bibliography


@settings(max_examples=150, deadline=None)
@given(bibliography())
def test_each_entrys_range_is_its_text(
    generated: tuple[str, list[Written], dict[str, int]],
) -> None:
    text, entries, starts = generated
    lines = text.splitlines()
    for written in entries:
        first, last = entry_lines(text, starts[written.key])
        assert "\n".join(lines[first : last + 1]) == written.text.rstrip("\n")


@settings(max_examples=100, deadline=None)
@given(bibliography())
def test_replacing_one_entry_leaves_the_others_as_they_were(
    generated: tuple[str, list[Written], dict[str, int]],
) -> None:
    text, entries, starts = generated
    before = {r.key: r for r in parse_bibtex(text, "gen.bib").references}
    target = entries[0]
    first, last = entry_lines(text, starts[target.key])
    lines = text.splitlines()
    replacement = f"@misc{{{target.key},\n  title = {{Replaced}},\n  year = {{2001}}\n}}"
    edited = "\n".join([*lines[:first], replacement, *lines[last + 1 :]]) + "\n"
    after = {r.key: r for r in parse_bibtex(edited, "gen.bib").references}
    assert list(after) == list(before)
    assert after[target.key].title == "Replaced"
    for key, reference in before.items():
        if key != target.key:
            assert (after[key].title, after[key].authors, after[key].year) == (
                reference.title,
                reference.authors,
                reference.year,
            )
