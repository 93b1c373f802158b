"""The claim of a LaTeX citation: the paragraph around it made readable by pylatexenc, and the
sentence it sits in (a footnote's citation gets the footnote's sentence)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from pylatexenc import latexwalker, macrospec
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

from citecore.extract.latex_cites import CiteCommand
from citecore.extract.latex_syntax import balanced_group
from citecore.extract.sentences import sentence_spans

_CITE_MARK = "\ue000"  # a private-use character marks where a citation sits in the text


# pylatexenc passes the converter by this parameter name.
def _link_text(node: Any, l2tobj: Any) -> str:
    """`\\href{url}{text}` as its text, however many of its arguments are there."""
    arguments = list(node.nodeargd.argnlist) if node.nodeargd is not None else []
    shown = [a for a in arguments[1:2] if a is not None]
    return str(l2tobj.nodelist_to_text(shown)) if shown else ""


def _url_text(node: Any) -> str:
    """`\\url{…}` as its address ("" when the argument is missing)."""
    arguments = list(node.nodeargd.argnlist) if node.nodeargd is not None else []
    address = "".join(a.latex_verbatim() for a in arguments[:1] if a is not None).strip("{}")
    return re.sub(r"\\([%#])", r"\1", address)  # escaped by _escaped_addresses


@cache
def _converter() -> tuple[Any, Any]:
    """pylatexenc's LaTeX-to-text converter, and the parser context it reads with, taught the
    hyperref macros (pylatexenc's own reading of `\\href` fails on every use)."""
    parsing = latexwalker.get_default_latex_context_db()
    parsing.add_context_category(
        "citecheck-hyperref",
        macros=[macrospec.std_macro("href", False, 2), macrospec.std_macro("url", False, 1)],
        prepend=True,
    )
    text = get_default_latex_context_db()
    text.add_context_category(
        "citecheck-hyperref",
        macros=[
            MacroTextSpec("href", simplify_repl=_link_text),
            MacroTextSpec("url", simplify_repl=_url_text),
        ],
        prepend=True,
    )
    converter = LatexNodes2Text(
        latex_context=text, math_mode="with-delimiters", strict_latex_spaces=False
    )
    return converter, parsing


_LINK_COMMAND = re.compile(r"\\(?:href|url)(?![a-zA-Z])")


def _escaped_addresses(latex: str) -> str:
    """`\\href` and `\\url` addresses with `%` and `#` escaped: hyperref reads them verbatim
    (`\\href{https://x.org/a%20b}{…}` is fine LaTeX), but pylatexenc would take the `%` for a
    comment and lose the rest of the line, the citation with it."""
    pieces, cursor = [], 0
    for match in _LINK_COMMAND.finditer(latex):
        group = balanced_group(latex, match.end(), "{", "}")
        if group is None or match.start() < cursor:
            continue
        address, end = group
        opening = latex.index("{", match.end())
        pieces.append(latex[cursor : opening + 1])
        pieces.append(re.sub(r"(?<!\\)([%#])", r"\\\1", address))
        pieces.append("}")
        cursor = end
    pieces.append(latex[cursor:])
    return "".join(pieces)


def readable_text(latex: str) -> str:
    """Plain text of a LaTeX fragment (math and `~` handled), white space collapsed. A fragment
    pylatexenc cannot read is stripped of its commands instead: claim text is for people, and
    one odd macro must not cost the report."""
    converter, parsing = _converter()
    try:
        text = str(converter.latex_to_text(_escaped_addresses(latex), latex_context=parsing))
    except Exception:
        text = _rough_text(latex)
    return " ".join(text.split())


def _rough_text(latex: str) -> str:
    """LaTeX with commands, braces and math delimiters taken out, words kept."""
    text = re.sub(r"\\(?:href|url)\s*\{[^{}]*\}", " ", latex)
    text = re.sub(r"\\[a-zA-Z@]+\*?(?:\[[^\]]*\])?", " ", text)
    return re.sub(r"[{}$~\\]", " ", text)


# Paragraph boundaries: blank lines, sectioning commands (a heading is not part of a claim) and
# the start of the document body (the preamble is no one's claim).
_BOUNDARY = re.compile(
    r"\n[ \t]*\n|\\(?:part|chapter|section|subsection|subsubsection|paragraph)\*?"
    r"(?:\[[^\]]*\])?\{[^{}]*\}|\\begin\s*\{document\}"
)


# How far a claim's paragraph reaches either side of its citation: real paragraphs are shorter;
# a file with no paragraph breaks (generated, or one long line) must not be read whole for each.
_PARAGRAPH_REACH = 4000


def _paragraph_bounds(text: str, position: int, notes: list[tuple[int, int]]) -> tuple[int, int]:
    """The paragraph around `position`: a footnote's text when it sits in one; at most
    _PARAGRAPH_REACH characters either side."""
    for start, end in notes:
        if start < position < end:
            return max(start, position - _PARAGRAPH_REACH), min(end, position + _PARAGRAPH_REACH)
    low = max(0, position - _PARAGRAPH_REACH)
    before = [m.end() for m in _BOUNDARY.finditer(text, low, position)]
    start = before[-1] if before else low
    after = _BOUNDARY.search(text, position, position + _PARAGRAPH_REACH)
    return start, after.start() if after else min(len(text), position + _PARAGRAPH_REACH)


def claim_sentences(
    text: str, commands: list[CiteCommand], notes: list[tuple[int, int]]
) -> dict[int, tuple[str, str]]:
    """The claim sentence and paragraph (readable text) of every command, by its start; a
    citation in a footnote gets the footnote's sentence."""
    results: dict[int, tuple[str, str]] = {}
    by_paragraph: dict[tuple[int, int], list[CiteCommand]] = {}
    for command in commands:
        bounds = _paragraph_bounds(text, command.start, notes)
        # Where no paragraph break is near, the reach windows of neighbouring citations overlap:
        # they are read as one stretch (read once, not once per citation: a 300-citation file
        # without blank lines took 16 s), each citation's paragraph cut around it.
        if by_paragraph:
            last = next(reversed(by_paragraph))
            if last != bounds and bounds[0] < last[1] and last[0] <= bounds[0]:
                merged = (last[0], max(last[1], bounds[1]))
                by_paragraph[merged] = [*by_paragraph.pop(last), command]
                continue
        by_paragraph.setdefault(bounds, []).append(command)
    for (start, end), group in by_paragraph.items():
        pieces, cursor = [], start
        for command in group:
            pieces.append(text[max(cursor, start) : command.start])
            pieces.append(_CITE_MARK)
            cursor = max(cursor, command.end)
        pieces.append(text[cursor:end])
        readable = readable_text("".join(pieces))
        spans = sentence_spans(readable)
        marks = [m.start() for m in re.finditer(_CITE_MARK, readable)]
        whole = end - start <= 2 * _PARAGRAPH_REACH
        for command, mark in zip(group, marks, strict=False):
            sentence = next((readable[s:e] for s, e in spans if s <= mark < e), readable)
            around = readable if whole else _around(readable, spans, mark)
            results[command.start] = (
                " ".join(sentence.replace(_CITE_MARK, "[…]").split()),
                around.replace(_CITE_MARK, "[…]"),
            )
    return results


def _around(readable: str, spans: list[tuple[int, int]], mark: int) -> str:
    """The whole sentences of a long stretch within half a reach of a citation mark."""
    low, high = mark - _PARAGRAPH_REACH // 2, mark + _PARAGRAPH_REACH // 2
    inside = [(s, e) for s, e in spans if e > low and s < high]
    return readable[inside[0][0] : inside[-1][1]] if inside else readable[max(low, 0) : high]
