"""Generated pandoc Markdown documents that mix every construct able to hold a citation, and the
oracle they are judged by: pandoc's own JSON AST.

Shared by the differential test (a bounded number of examples in CI) and
bench/extraction_differential.py (thousands).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from hypothesis import strategies as st

from citecore.extract.locate import SourceFile
from citecore.extract.markdown import extract_citations, is_crossref
from tests.pandoc_json import read_ast, read_json

KEYS = st.sampled_from(
    ["smith2020", "doe_2019", "lee:2021", "garcia-lopez2018", "wu.2023", "k1", "Kim2022a"]
)
WORDS = st.sampled_from(
    ["results", "show", "that", "the", "method", "works", "as", "reported", "earlier", "data"]
)


@st.composite
def prose(draw: st.DrawFn, cites: bool = True) -> str:
    """A short sentence, with a citation in some form when `cites`."""
    words = draw(st.lists(WORDS, min_size=2, max_size=6))
    text = " ".join(words).capitalize()
    if not cites:
        return text + "."
    return f"{text} {draw(citation())}."


@st.composite
def citation(draw: st.DrawFn) -> str:
    """One citation in any of pandoc's forms, sometimes with neighbours that are not citations."""
    key, other = draw(KEYS), draw(KEYS)
    form = draw(
        st.sampled_from(
            [
                "[@{k}]",
                "@{k}",
                "[-@{k}]",
                "[see @{k}, p. 3]",
                "[@{k}; @{o}]",
                "[@{k},@{o}]",
                "[@{k}, @{o}]",
                "[see @{k}, ch. 2, @{o}]",
                "@{k} [p. 5]",
                "[@{{{k}}}]",
                "[@fig-plot; @{k}]",
                "(see `@{o}` and [@{k}])",
                "[@{k}] (mail x.y@example.org)",
                "$x@{o}$ [@{k}]",
            ]
        )
    )
    return form.format(k=key, o=other)


@st.composite
def block(draw: st.DrawFn, depth: int = 0) -> str:
    """One block of pandoc Markdown that holds citations somewhere inside."""
    kinds = [
        "para",
        "figure",
        "table",
        "inline_note",
        "heading",
        "list",
        "quote",
        "span",
        "link",
        "code",
        "callout",
        "crossref",
        "image",
    ]
    if depth < 1:
        kinds += ["div", "referenced_note"]
    kind = draw(st.sampled_from(kinds))
    if kind == "para":
        return " ".join(draw(st.lists(prose(), min_size=1, max_size=3)))
    if kind == "figure":
        return f"![A figure of {draw(WORDS)} {draw(citation())}.](plot.png){{#fig-plot}}"
    if kind == "image":
        return f"Inline ![alt with {draw(citation())}](icon.png) in {draw(prose())}"
    if kind == "table":
        return (
            f"| a | b |\n|---|---|\n| {draw(citation())} | {draw(WORDS)} |\n"
            f"| {draw(WORDS)} | {draw(citation())} |\n\n"
            f"Table: A caption {draw(citation())}."
        )
    if kind == "inline_note":
        return f"{draw(prose(False))}^[A note {draw(citation())}.] {draw(prose())}"
    if kind == "referenced_note":
        label = draw(st.sampled_from(["n1", "n2", "long"]))
        return (
            f"{draw(prose())}[^{label}] {draw(prose(False))}\n\n"
            f"[^{label}]: Defined {draw(citation())}.\n"
        )
    if kind == "heading":
        return f"## Section on {draw(WORDS)} {draw(citation())}"
    if kind == "list":
        items = draw(st.lists(prose(), min_size=1, max_size=3))
        return "\n".join(f"- {item}" for item in items)
    if kind == "quote":
        return f"> {draw(prose())}"
    if kind == "span":
        return f"[{draw(prose())}]{{.highlight}}"
    if kind == "link":
        return f"Read [this {draw(WORDS)} {draw(citation())}](https://example.org) {draw(prose())}"
    if kind == "code":
        return (
            f"```\ncode @{draw(KEYS)} [@{draw(KEYS)}]\n```\n\nAnd `@{draw(KEYS)}` {draw(prose())}"
        )
    if kind == "callout":
        return f"::: {{.callout-note}}\n{draw(prose())}\n:::"
    if kind == "crossref":
        return f"See @fig-plot and @tbl-data, {draw(prose())}"
    inner = draw(st.lists(block(depth + 1), min_size=1, max_size=2))
    return "::: {.box}\n" + "\n\n".join(inner) + "\n:::"


@st.composite
def document(draw: st.DrawFn) -> str:
    """A whole document: optional YAML with a citing abstract, then blocks."""
    parts = []
    if draw(st.booleans()):
        parts.append(f"---\ntitle: Generated\nabstract: |\n  {draw(prose())}\n---")
    parts += draw(st.lists(block(), min_size=1, max_size=6))
    return "\n\n".join(parts) + "\n"


def ast_citation_ids(node: Any) -> Iterator[str]:
    """Citation ids of every Cite of a JSON AST fragment in pre-order (a Cite's own ids, then
    the Cites inside its prefixes and suffixes); a captioned figure's image alt text, which
    pandoc 3 fills with a copy of the caption, is not read twice."""
    if isinstance(node, dict):
        kind = node.get("t")
        if kind == "Cite":
            yield from (c["citationId"] for c in node["c"][0])
        if kind == "Figure":
            _, caption, blocks = node["c"]
            yield from ast_citation_ids(caption)
            yield from ast_citation_ids(_without_images(blocks) if caption[1] else blocks)
            return
        for value in node.values():
            yield from ast_citation_ids(value)
    elif isinstance(node, list):
        for value in node:
            yield from ast_citation_ids(value)


def _without_images(node: Any) -> Any:
    if isinstance(node, dict):
        if node.get("t") == "Image":
            return None
        return {k: _without_images(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_without_images(v) for v in node]
    return node


def pandoc_keys(text: str) -> list[str]:
    """The cited keys of a Markdown text as pandoc's AST holds them, cross-references aside."""
    return ast_keys(read_json(text))


def ast_keys(ast: dict[str, Any]) -> list[str]:
    """The cited keys of a whole JSON AST (metadata, then blocks), cross-references aside."""
    meta = {k: v for k, v in ast["meta"].items() if k not in ("nocite", "references")}
    return [
        k for k in [*ast_citation_ids(meta), *ast_citation_ids(ast["blocks"])] if not is_crossref(k)
    ]


def disagreements(text: str) -> list[str]:
    """What citecheck's extraction gets wrong about `text`, judged by pandoc's AST: other keys,
    counts or order, unmapped citations, a mapped line that does not hold its key."""
    doc = read_ast(text)
    extraction = extract_citations(doc, [SourceFile("doc.md", text)])
    found = [c.key for c in extraction.citations]
    problems = []
    expected = pandoc_keys(text)
    if found != expected:
        problems.append(f"keys {found} != pandoc's {expected}")
    if extraction.unmapped:
        problems.append(f"unmapped {[c.key for c in extraction.unmapped]}")
    lines = text.splitlines()
    for cited in extraction.citations:
        line = cited.location.line
        if line is None or not re.search(rf"@\{{?{re.escape(cited.key)}", lines[line - 1]):
            problems.append(f"{cited.key} mapped to line {line}")
    return problems
