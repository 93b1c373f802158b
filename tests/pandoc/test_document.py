"""Reading pandoc's JSON as panflute's document: real front matter read as plain values, every
document written back as pandoc wrote it; anything that is not pandoc's JSON refused in one line,
and the filter then lets the document through."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from citecore.errors import DocumentParseError
from citecore.filter.process import run_checked
from citecore.pandoc.document import (
    dump_document,
    load_document,
    metadata_fields,
    metadata_value,
)
from tests.generated_markdown import document
from tests.pandoc_json import pandoc_json, read_ast
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


def test_metadata_reads_as_plain_values() -> None:
    doc = read_ast(FRONT_MATTER)
    assert metadata_value(doc, "draft") is False
    assert metadata_value(doc, "citecheck") == {
        "strict": True,
        "fail-on": ["undefined", "not_found"],
    }
    assert metadata_value(doc, "bibliography") == ["a.bib", "b c.bib"]
    assert metadata_value(doc, "title") == "A study of code, x^2 and \u201cquotes\u201d"
    assert metadata_value(doc, "missing", "fallback") == "fallback"
    assert sorted(metadata_fields(doc)) == [
        "abstract", "author", "bibliography", "citecheck", "date", "draft", "nocite", "title",
    ]  # fmt: skip


def test_a_dotted_name_is_one_field_not_a_path() -> None:
    # `pandoc -M citecheck.strict=true` makes a top-level field named "citecheck.strict".
    doc = read_ast("---\ncitecheck.strict: true\ncitecheck:\n  strict: false\n---\n")
    assert metadata_value(doc, "citecheck.strict") is True


def test_every_wild_document_is_written_back_as_pandoc_wrote_it() -> None:
    # A document the filter leaves alone goes out unchanged: panflute's model loses nothing.
    documents = sorted(p for p in WILD.rglob("*") if p.suffix.lower() in {".md", ".rmd", ".qmd"})
    assert len(documents) > 20
    for path in documents:
        written = pandoc_json(path.read_text(encoding="utf-8", errors="replace"))
        assert json.loads(dump_document(load_document(written))) == json.loads(written), path


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not a pandoc JSON document"),
        ('{"meta": {}}', "not a pandoc JSON document"),
        ("[1, 2]", "not a pandoc JSON document"),
        ('{"pandoc-api-version": [1, 20], "meta": {}, "blocks": []}', "older than citecheck"),
    ],
)
def test_anything_but_pandocs_json_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(DocumentParseError, match=message):
        load_document(text)


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
def test_generated_documents_are_written_back_as_pandoc_wrote_them(text: str) -> None:
    # Every construct able to hold a citation, in the body and in the front matter.
    written = pandoc_json(text)
    assert json.loads(dump_document(load_document(written))) == json.loads(written)
