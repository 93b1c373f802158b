"""What the LaTeX reader blanks before it looks for citations (comments, verbatim, `\\iffalse`,
macro definitions): line numbers and positions never move, nothing is invented, and what LaTeX
reads is left alone."""

from __future__ import annotations

import itertools
import os
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.extract.latex_cites import find_cite_commands
from citecore.extract.latex_conditionals import Conditionals, mask_conditionals
from citecore.extract.latex_macros import mask_definitions
from citecore.extract.latex_syntax import mask_ignored

EXAMPLES = int(os.environ.get("CITECHECK_FUZZ_EXAMPLES", "300"))
PIECES = st.sampled_from(
    ("\\cite{a}", "%", "\\%", "\n", " ", "{", "}", "\\begin{verbatim}", "\\end{verbatim}",
     "\\begin{comment}", "\\end{comment}", "\\iffalse", "\\fi", "\\verb|x|", "\\verb+%+",
     "\\newcommand{\\x}[1]{\\cite{#1}}", "\\def\\y#1{\\citep{#1}}", "\\href{http://a%b}{t}",
     "\\url{http://a#b%c}", "text", "\\\\", "\\citep[p.~3]{b,c}", "$x%y$",
     "\\newif\\ifdraft", "\\ifdraft", "\\drafttrue", "\\draftfalse", "\\else", "\\iftrue",
     "\\input{x}")
)  # fmt: skip
LATEX = st.lists(PIECES, max_size=40).map("".join)


@settings(max_examples=EXAMPLES, deadline=None)
@given(LATEX)
def test_masks_keep_every_position_and_line(text: str) -> None:
    for masked in (mask_ignored(text), mask_definitions(text)):
        assert len(masked) == len(text)
        assert [i for i, c in enumerate(masked) if c == "\n"] == [
            i for i, c in enumerate(text) if c == "\n"
        ]
        # Blanking only: every character is kept or made a space.
        assert all(m == t or m == " " for m, t in zip(masked, text, strict=True))


@settings(max_examples=EXAMPLES, deadline=None)
@given(LATEX)
def test_masking_twice_changes_nothing_more(text: str) -> None:
    once = mask_ignored(text)
    assert mask_ignored(once) == once


@settings(max_examples=EXAMPLES, deadline=None)
@given(LATEX)
def test_masking_never_makes_a_citation(text: str) -> None:
    before = {(c.start, tuple(c.keys)) for c in find_cite_commands(text)}
    after = {(c.start, tuple(c.keys)) for c in find_cite_commands(mask_ignored(text))}
    assert after <= before


@settings(max_examples=EXAMPLES, deadline=None)
@given(LATEX)
def test_a_file_read_in_pieces_is_masked_as_the_whole(text: str) -> None:
    """The project reader masks a file piece by piece, cut after each `\\input`; the pieces
    put together are the file masked whole."""
    cuts = [m.end() for m in re.finditer(r"\\input", text)]
    bounds = [0, *cuts, len(text)]
    reader = Conditionals()
    pieces = [reader.mask(text[a:b]) for a, b in itertools.pairwise(bounds)]
    assert "".join(pieces) == mask_conditionals(text)


def test_switches_carry_from_one_file_to_the_next() -> None:
    flags: dict[str, bool] = {}
    Conditionals(flags).mask("\\newif\\ifdraft \\drafttrue")
    assert Conditionals(flags).mask("\\ifdraft A\\else B\\fi").split() == ["\\ifdraft", "A", "\\fi"]
    Conditionals(flags).mask("\\draftfalse")
    assert "B" in Conditionals(flags).mask("\\ifdraft A\\else B\\fi")


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("a \\cite{k} % \\cite{gone}", ["k"]),
        ("100\\% sure \\cite{k}", ["k"]),  # an escaped percent starts no comment
        ("\\href{http://x.org/a%20b}{data} \\cite{k}", ["k"]),  # nor one in an address
        ("\\begin{verbatim}\\cite{gone} %\\end{verbatim} \\cite{k}", ["k"]),
        ("% \\begin{comment}\n\\cite{k}", ["k"]),  # a commented-out \begin opens nothing
        ("\\iffalse \\cite{gone} \\fi \\cite{k}", ["k"]),
        # TeX skips to the matching \fi (a real SIGCOMM paper cited 4 keys LaTeX never read).
        ("\\iffalse \\iffalse \\cite{a} \\fi \\cite{b} \\fi \\cite{k}", ["k"]),
        ("\\iftrue \\cite{k} \\else \\cite{gone} \\fi", ["k"]),
        ("\\iffalse \\cite{gone} \\else \\cite{k} \\fi", ["k"]),
        # \newif switches: false until set, followed in reading order.
        ("\\newif\\ifdraft \\ifdraft \\cite{gone} \\else \\cite{k} \\fi", ["k"]),
        ("\\newif\\ifdraft \\drafttrue \\ifdraft \\cite{k} \\else \\cite{gone} \\fi", ["k"]),
        # What TeX computes is read on both branches; a macro named if… is no conditional.
        ("\\ifx\\a\\b \\cite{k} \\else \\cite{j} \\fi", ["k", "j"]),
        ("\\iffalse \\ifthenelse{1=1}{\\cite{gone}}{} \\fi \\cite{k}", ["k"]),
        # A \fi in a comment is no \fi; an \iffalse never closed skips to the end.
        ("\\iffalse % \\fi\n \\cite{gone} \\fi \\cite{k}", ["k"]),
        ("\\cite{k} \\iffalse \\cite{gone}", ["k"]),
        ("\\verb|\\cite{gone}| \\cite{k}", ["k"]),
        ("\\\\% a comment after a line break \\cite{gone}\n\\cite{k}", ["k"]),
    ],
)
def test_what_latex_does_not_read_is_not_read(text: str, kept: list[str]) -> None:
    found = [key for c in find_cite_commands(mask_ignored(text)) for key, _, _ in c.keys]
    assert found == kept


def test_definitions_cite_nothing_until_used() -> None:
    text = "\\newcommand{\\mycite}[1]{\\cite{#1}}\n\\def\\other#1{\\citep{#1}} \\cite{real}"
    found = [key for c in find_cite_commands(mask_definitions(text)) for key, _, _ in c.keys]
    assert found == ["real"]
    shown: set[str] = set()
    source = "\\newcommand{\\code}[1]{\\texttt{\\detokenize{#1}}}\n\\code{\\cite{shown}} \\cite{k}"
    masked = mask_definitions(source, shown)
    assert shown == {"code"}
    assert [key for c in find_cite_commands(masked) for key, _, _ in c.keys] == ["k"]
