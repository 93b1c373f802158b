"""The alignment proof against its oracle on generated sources: a passage taken from a page
of a generated source, then broken the way PDF text extraction breaks text (hyphenation at line
ends, ligatures, curly quotes, line breaks, case, Markdown emphasis), is proved to be on that
page; a passage the source never held is not proved."""

from __future__ import annotations

import hashlib
import os

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from citecore.ground.align import AlignedSource
from citecore.ground.text import Page, SourceText

EXAMPLES = int(os.environ.get("CITECHECK_FUZZ_EXAMPLES", "100"))
VOCABULARY = tuple(
    """citation retrieval evidence claim source passage model dataset benchmark accuracy
    increase decrease significant patients trial cohort protein expression neural network
    training inference sample measured observed reported effect control treatment signal
    finding figure section method result analysis efficient affinity official profile""".split()
)


# Words of prose: a few very common ones, many rarer ones (as in any text).
COMMON = st.sampled_from(VOCABULARY[:12])
RARE = st.text("abcdefghijklmnoprstuvy", min_size=4, max_size=10)


@st.composite
def source(draw: st.DrawFn) -> list[list[str]]:
    """Pages of words."""
    word = st.one_of(COMMON, st.sampled_from(VOCABULARY), RARE)
    return draw(st.lists(st.lists(word, min_size=40, max_size=120), min_size=1, max_size=4))


def _text(pages: list[list[str]]) -> SourceText:
    made = tuple(Page(i + 1, " ".join(words)) for i, words in enumerate(pages))
    digest = hashlib.sha256(repr(pages).encode()).hexdigest()
    return SourceText("generated.pdf", digest, made)


def _broken(words: list[str], data: st.DataObject) -> str:
    """The words as a PDF's extracted text might give them."""
    out = []
    for word in words:
        form = data.draw(st.sampled_from(("plain", "hyphen", "ligature", "upper", "emphasis")))
        if form == "hyphen" and len(word) > 5:
            word = f"{word[:3]}-\n{word[3:]}"
        elif form == "ligature":
            word = word.replace("fi", "ﬁ").replace("ff", "ﬀ")
        elif form == "upper":
            word = word.capitalize()
        elif form == "emphasis":
            word = f"*{word}*"
        out.append(word)
    return data.draw(st.sampled_from((" ", "\n"))).join(out)


@settings(max_examples=EXAMPLES, deadline=None)
@given(source(), st.data())
def test_a_broken_quotation_is_proved_on_its_page(
    pages: list[list[str]], data: st.DataObject
) -> None:
    page = data.draw(st.integers(0, len(pages) - 1))
    words = pages[page]
    length = data.draw(st.integers(8, 20))
    start = data.draw(st.integers(0, len(words) - length))
    quoted = words[start : start + length]
    alignment = AlignedSource(_text(pages)).align(_broken(quoted, data))
    assert alignment.grounded()
    assert alignment.coverage == 1.0
    # A page most of it is on: this one, or one of another place holding the same words.
    flat = [(word, number) for number, p in enumerate(pages, 1) for word in p]
    pages_holding = {
        max(set(on := [n for _, n in flat[i : i + length]]), key=on.count)
        for i in range(len(flat) - length + 1)
        if [w for w, _ in flat[i : i + length]] == quoted
    }
    assert alignment.page in pages_holding


@settings(max_examples=EXAMPLES, deadline=None)
@given(source(), st.lists(st.sampled_from(("quantum", "glacier", "violin", "harvest", "orbit",
                                           "pottery", "sailing", "granite")), min_size=8,
                          max_size=16))  # fmt: skip
def test_words_the_source_never_held_are_not_proved(
    pages: list[list[str]], foreign: list[str]
) -> None:
    assert not AlignedSource(_text(pages)).align(" ".join(foreign)).grounded()


@settings(max_examples=EXAMPLES, deadline=None)
@given(source(), st.data())
def test_scattered_words_are_not_a_quotation(pages: list[list[str]], data: st.DataObject) -> None:
    words = [w for p in pages for w in p]
    # Words the source holds once, at least ten words apart: present and in order, but spread
    # over many sentences.
    scattered: list[str] = []
    last = -10
    for position, word in enumerate(words):
        if words.count(word) == 1 and position - last >= 10:
            scattered.append(word)
            last = position
    assume(len(scattered) >= 10)
    alignment = AlignedSource(_text(pages)).align(" ".join(scattered[:12]))
    assert not alignment.grounded()
