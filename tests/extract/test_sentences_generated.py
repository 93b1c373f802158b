"""Sentence splitting against its oracle on generated prose: sentences made of words,
numbers, initials, citations' author lists and the abbreviations of scholarly writing, joined
with the spaces and line breaks of real source files; the splitter must find the sentences
the generator made, and never lose or invent text."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.extract.sentences import sentence_spans

EXAMPLES = int(os.environ.get("CITECHECK_FUZZ_EXAMPLES", "200"))
WORDS = ("models", "the", "results", "citation", "data", "improves", "accuracy", "we",
         "show", "that", "retrieval", "on", "three", "benchmarks", "and", "fails")  # fmt: skip
# Pieces that hold a full stop and never end a sentence.
INNER = ("et al. (2020)", "e.g. BM25", "i.e. the same", "Fig. 2", "Tab. 3", "Eq. 4",
         "3.5 times", "0.25", "pp. 12-14", "vs. baselines", "cf. Smith", "J. R. Smith",
         "Sec. 4.2", "approx. 10", "U.S. data", "v2.1")  # fmt: skip
ENDINGS = (".", "!", "?", ".)", '."')
BREAKS = (" ", "  ", "\n", " \n", "\n\n")


@st.composite
def sentence(draw: st.DrawFn) -> str:
    first = draw(st.sampled_from(("Models", "We", "Results", "Retrieval", "Citation")))
    body = draw(
        st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(INNER)), min_size=1, max_size=9)
    )
    return " ".join([first, *body]) + draw(st.sampled_from(ENDINGS))


@st.composite
def prose(draw: st.DrawFn) -> tuple[str, list[str]]:
    sentences = draw(st.lists(sentence(), min_size=1, max_size=6))
    text = sentences[0]
    for item in sentences[1:]:
        text += draw(st.sampled_from(BREAKS)) + item
    return text, sentences


@settings(max_examples=EXAMPLES, deadline=None)
@given(prose())
def test_the_sentences_made_are_the_sentences_found(generated: tuple[str, list[str]]) -> None:
    text, sentences = generated
    found = [text[start:end] for start, end in sentence_spans(text)]
    assert found == sentences


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.text(max_size=200))
def test_spans_cover_the_text_in_order_without_overlap(text: str) -> None:
    spans = sentence_spans(text)
    position = 0
    for start, end in spans:
        assert position <= start < end <= len(text)
        assert not text[position:start].strip(), "text between sentences was lost"
        assert text[start:end] == text[start:end].strip()
        position = end
    assert not text[position:].strip(), "text after the last sentence was lost"
