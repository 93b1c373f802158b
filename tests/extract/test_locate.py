"""Mapping citations back to Markdown source lines."""

from __future__ import annotations

from citecore.extract.locate import LineMatcher, Region, SourceFile, SourceIndex
from citecore.model import SourceLocation

SOURCE = """---
abstract: cites @a too
---
Body cites @a and @b.[^n]
Inline code `@a` and <!-- @a --> and me@a are not citations; \\@a is escaped.

[^n]: Note cites @a
    and continues with @b.

Last @a; a longer key @a.b is another key; @{a} is braced.
"""


def test_occurrences_by_region() -> None:
    index = SourceIndex.build([SourceFile("x.md", SOURCE)])
    lines = {k: [loc.line for loc in v] for k, v in index.occurrences.items()}
    assert lines == {
        ("a", Region.METADATA): [2],
        ("a", Region.BODY): [4, 10, 10],
        ("b", Region.BODY): [4],
        ("a", Region.NOTE_DEFINITION): [7],
        ("b", Region.NOTE_DEFINITION): [8],
        ("a.b", Region.BODY): [10],
    }


def test_matcher_prefers_the_region_then_falls_back() -> None:
    index = SourceIndex.build([SourceFile("x.md", SOURCE)])
    matcher = LineMatcher(index)
    assert matcher.take("a", Region.NOTE_DEFINITION) == SourceLocation("x.md", 7)
    assert matcher.take("a", Region.NOTE_DEFINITION) == SourceLocation("x.md", 4)
    assert matcher.take("a", Region.BODY) == SourceLocation("x.md", 10)
    assert matcher.take("a", Region.BODY) == SourceLocation("x.md", 10)
    assert matcher.take("a", Region.BODY) is None
    assert matcher.take("zzz", Region.BODY) is None


def test_several_inputs_are_read_in_order() -> None:
    index = SourceIndex.build(
        [SourceFile("one.md", "First @k.\n"), SourceFile("two.md", "\nSecond @k.\n")]
    )
    assert index.occurrences[("k", Region.BODY)] == (
        SourceLocation("one.md", 1),
        SourceLocation("two.md", 2),
    )


def test_note_definitions_are_read_where_pandoc_reads_them() -> None:
    # pandoc reads a definition at each reference to it, the last definition of a label
    # defined twice, and none never referenced (found by the generated-document test).
    text = (
        "A [@a].[^n] B.\n\n"  # 1
        "[^n]: First [@shadowed].\n\n"  # 3
        "C [@a].[^n] D.\n\n"  # 5
        "[^n]: Last [@b].\n\n"  # 7
        "[^lonely]: Never referenced [@c].\n\n"  # 9
        "E [@b].\n"  # 11
    )
    index = SourceIndex.build([SourceFile("doc.md", text)])
    lines = {key: [loc.line for loc in places] for key, places in index.occurrences.items()}
    assert lines == {
        ("a", Region.BODY): [1, 5],
        ("b", Region.BODY): [11],
        ("b", Region.NOTE_DEFINITION): [7, 7],
    }
