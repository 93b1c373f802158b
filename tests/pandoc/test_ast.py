"""Reading pandoc's JSON AST as dicts: metadata and text read as panflute (the library writers'
filters use) reads them, on real front matter; anything that is not pandoc's JSON refused in one
line, and the filter then lets the document through."""

from __future__ import annotations

import io
import json
from pathlib import Path

import panflute as pf
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from citecore.errors import DocumentParseError
from citecore.filter.process import run_checked
from citecore.pandoc.ast import get_metadata, load_ast, meta_value, metadata, stringify
from tests.generated_markdown import document
from tests.pandoc_json import read_ast
from tests.paths import CORPUS

WILD = CORPUS / "wild" / "markdown"

FRONT_MATTER = """---
title: "A *study* of `code`, $x^2$ and \u201cquotes\u201d"
author:
  - name: Ada Lovelace
    affiliation: [1, 2]
  - Grace Hopper
date: 2024-05-01
draft: false
citecheck:
  strict: true
  fail-on: [undefined, not_found]
bibliography: [a.bib, "b c.bib"]
abstract: |
  First paragraph [@a].

  Second, with a [link](https://example.org) and a note.^[Noted.]
nocite: "@b, @*"
---

Body.
"""


def _panflute(doc: dict[str, object]) -> pf.Doc:
    return pf.load(io.StringIO(json.dumps(doc)))


def test_metadata_reads_as_panflute_reads_it() -> None:
    doc = read_ast(FRONT_MATTER)
    oracle = _panflute(doc)
    for name in metadata(doc):
        assert get_metadata(doc, name) == oracle.get_metadata(name), name
    assert get_metadata(doc, "draft") is False
    assert get_metadata(doc, "missing", "fallback") == "fallback"


def test_every_wild_documents_front_matter_reads_as_panflute_reads_it() -> None:
    documents = sorted(p for p in WILD.rglob("*") if p.suffix.lower() in {".md", ".rmd", ".qmd"})
    assert len(documents) > 20
    for path in documents:
        text = path.read_text(encoding="utf-8", errors="replace")
        if not text.startswith("---"):
            continue
        doc = read_ast(text.split("\n---", 2)[0] + "\n---\n")
        oracle = _panflute(doc)
        for name, value in metadata(doc).items():
            assert meta_value(value) == oracle.get_metadata(name), f"{path}: {name}"


def test_text_reads_as_panflute_stringifies_it() -> None:
    doc = read_ast("A *b* `c` $d$ \u201ce\u201d [f](g) ![h](i) [@j, p. 3] k.^[l]\n\n> m\n")
    oracle = _panflute(doc)
    assert stringify(doc["blocks"]) == pf.stringify(oracle)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not a pandoc JSON document"),
        ('{"meta": {}}', "no blocks"),
        ("[1, 2]", "no blocks"),
        ('{"pandoc-api-version": [1, 20], "meta": {}, "blocks": []}', "older than citecheck"),
    ],
)
def test_anything_but_pandocs_json_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(DocumentParseError, match=message):
        load_ast(text)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=200),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=5),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(
                    st.sampled_from(["blocks", "meta", "pandoc-api-version", "t", "c"]), inner
                )
            ),
            max_leaves=12,
        ).map(lambda value: json.dumps(value).encode()),
    )
)
@example(b'{"pandoc-api-version": ["1", 23], "meta": {}, "blocks": []}')
@example(b'{"meta": {"title": {"t": "MetaInlines"}}, "blocks": [{"t": "Para"}]}')
@example('{"blocks": []}'.encode("utf-16"))
def test_the_filter_never_fails_on_what_it_is_given(ast: bytes) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_checked(ast, "html", [], "key", out, err) == 0


def test_the_filter_lets_what_it_cannot_read_through(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    status = run_checked(b"{not json", "html", [], "key", out, err)
    assert status == 0
    assert out.getvalue() == "{not json"
    [line] = err.getvalue().splitlines()
    assert line.startswith("[WARNING] citecheck: not a pandoc JSON document")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document())
def test_generated_documents_read_as_panflute_reads_them(text: str) -> None:
    # Every construct able to hold a citation, in the body and in the front matter.
    doc = read_ast(text)
    oracle = _panflute(doc)
    ours = stringify(doc["blocks"])
    theirs = "".join(pf.stringify(block) for block in oracle.content)
    # panflute walks a table's or figure's caption after its content; pandoc's JSON holds it
    # before.
    dumped = json.dumps(doc["blocks"])
    captioned = '"Table"' in dumped or '"Figure"' in dumped
    assert sorted(ours) == sorted(theirs) if captioned else ours == theirs
    for name in metadata(doc):
        assert get_metadata(doc, name) == oracle.get_metadata(name), name
