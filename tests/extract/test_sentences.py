"""Sentence splitting on the abbreviations, numbers and initials of scholarly prose."""

from __future__ import annotations

import pytest

from citecore.extract.sentences import sentence_spans


def sentences(text: str) -> list[str]:
    return [text[start:end] for start, end in sentence_spans(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("One claim. Another claim.", ["One claim.", "Another claim."]),
        (
            "Smith et al. (2020) showed it. Then more.",
            ["Smith et al. (2020) showed it.", "Then more."],
        ),
        (
            "Some methods, e.g. BM25, rank well. Others do not.",
            ["Some methods, e.g. BM25, rank well.", "Others do not."],
        ),
        (
            "As Fig. 2 shows, it rises. Table 3 agrees.",
            ["As Fig. 2 shows, it rises.", "Table 3 agrees."],
        ),
        (
            "The effect, i.e. The Big One, held. Next.",
            ["The effect, i.e. The Big One, held.", "Next."],
        ),
        (
            "It grew 3.5 times. It fell by 0.2 units.",
            ["It grew 3.5 times.", "It fell by 0.2 units."],
        ),
        (
            "J. R. R. Tolkien wrote it. Others read it.",
            ["J. R. R. Tolkien wrote it.", "Others read it."],
        ),
        ("See Eq. 4 and Sec. 3 for details. Done!", ["See Eq. 4 and Sec. 3 for details.", "Done!"]),
        ("Was it real? Yes. “Quoted.” Then", ["Was it real?", "Yes.", "“Quoted.”", "Then"]),
        ("cf. Jones for more. Next.", ["cf. Jones for more.", "Next."]),
        ("", []),
    ],
)
def test_sentence_boundaries(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected
