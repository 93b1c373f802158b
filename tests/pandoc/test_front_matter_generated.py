"""Front matters with inline R code in any field and any YAML form (plain, double- or
single-quoted, block scalars, lists, nested maps — RStudio's `date: "`r Sys.Date()`"` among
them), generated (hypothesis) and held to real knitr then pandoc, under every pandoc here (the
wheel's, and Debian's 2.x that rmarkdown brings): the same metadata fields, the same
bibliography and nocite, the same cited keys."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.extract.markdown import extract_citations, nocite_keys
from citecore.pandoc.document import load_document, metadata_value
from citecore.pandoc.knitr import blank_chunks
from citecore.pandoc.reader import read_markdown
from tests.generated_markdown import ast_keys
from tests.knitr_oracle import have_knitr, knit
from tests.pandoc_json import pandoc_json

pytestmark = pytest.mark.skipif(not have_knitr(), reason="needs R's knitr (make test installs it)")


def _pandocs() -> list[str]:
    """Every pandoc on this machine: the wheel's, and one on PATH when it is another."""
    import pypandoc

    found = [str(pypandoc.get_pandoc_path())]
    on_path = shutil.which("pandoc")
    if on_path and Path(on_path).resolve() != Path(found[0]).resolve():
        found.append(on_path)
    return found


@contextmanager
def _pandoc(path: str) -> Iterator[None]:
    before = os.environ.get("CITECHECK_PANDOC")
    os.environ["CITECHECK_PANDOC"] = path
    try:
        yield
    finally:
        if before is None:
            del os.environ["CITECHECK_PANDOC"]
        else:
            os.environ["CITECHECK_PANDOC"] = before


# Inline code as writers put it in YAML: each form with the quote it may hold inside.
CODE_IN_DOUBLE = st.sampled_from(["`r Sys.Date()`", "`r format(Sys.time(), '%d %B %Y')`"])
CODE_IN_SINGLE = st.sampled_from(["`r Sys.Date()`", '`r format(Sys.Date(), "%B %d, %Y")`'])
CODE_BARE = st.sampled_from(["`r Sys.Date()`", "`r params$title`", "`r 1 + 1`"])
WORDS = st.sampled_from(["A report", "Draft", "Notes on trees", ""])


@st.composite
def value(draw: st.DrawFn, indent: str = "") -> str:
    """A field's value (after `name:`) in one YAML form, with or without inline code."""
    words = draw(WORDS)
    form = draw(st.sampled_from(["plain", "double", "single", "block", "list", "map"]))
    coded = draw(st.booleans())
    if form == "double":
        return f' "{words}{" " if words else ""}{draw(CODE_IN_DOUBLE) if coded else ""}"'
    if form == "single":
        return f" '{words}{' ' if words else ''}{draw(CODE_IN_SINGLE) if coded else ''}'"
    # Unquoted, a value cannot start with inline code: "`" starts no YAML token, and knitr (which
    # reads the front matter's YAML for `params`) refuses the document, as rmarkdown does.
    inner = f"{words or 'Report'} {draw(CODE_BARE)}" if coded else words or "text"
    if form == "plain":
        return f" {inner}"
    if form == "block":
        return f" {draw(st.sampled_from(['|', '>']))}\n{indent}  {inner}"
    if form == "list":
        return f"\n{indent}  - {inner}\n{indent}  - other"
    return f"\n{indent}  name:{draw(value(indent + '  '))}"


@st.composite
def front_matter(draw: st.DrawFn) -> str:
    names = draw(
        st.lists(
            # not `params`: knitr reads it as R parameters, each map needing a `value`
            st.sampled_from(["title", "subtitle", "date", "author", "abstract", "keywords"]),
            min_size=1,
            max_size=4,
            unique=True,
        )
    )
    fields = [f"{name}:{draw(value())}" for name in names]
    bibliography = draw(
        st.sampled_from(
            [
                "bibliography: refs.bib",
                'bibliography: "refs.bib"',
                "bibliography:\n  - refs.bib\n  - more.bib",
            ]
        )
    )
    fields.insert(draw(st.integers(0, len(fields))), bibliography)
    if draw(st.booleans()):
        fields.append(draw(st.sampled_from(["nocite: |\n  @listed", "nocite: '@*'"])))
    return "---\n" + "\n".join(fields) + "\n---\n\nDeep learning works [@lecun2015].\n"


@pytest.mark.parametrize("pandoc", _pandocs())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=front_matter())
def test_the_front_matter_is_read_as_knitr_and_pandoc_read_it(
    pandoc: str, text: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("front")
    document = folder / "doc.Rmd"
    document.write_text(text, encoding="utf-8")
    with _pandoc(pandoc):
        knitted = pandoc_json(knit(text, folder))
        doc = read_markdown(document)
    expected = load_document(knitted)
    assert set(doc.metadata.content.keys()) == set(expected.metadata.content.keys())
    for name in ("bibliography", "nocite"):
        assert metadata_value(doc, name) == metadata_value(expected, name)
    assert nocite_keys(doc) == nocite_keys(expected)
    cited = [c.key for c in extract_citations(doc).citations]
    assert cited == ast_keys(json.loads(knitted)) == ["lecun2015"]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                'title: "',
                "date: '",
                "`r x`",
                "`r f('a', \"b\")`",
                '"',
                "'",
                "''",
                '\\"',
                " ",
                "- ",
                "key: ",
                "\n",
                "  ",
                "`",
                "{r} y`",
                "`{python} z`",
                "text",
            ]
        ),
        max_size=30,
    )
)
def test_blanking_keeps_every_offset_and_touches_only_code(pieces: list[str]) -> None:
    text = "---\n" + "".join(pieces) + "\n---\n\nBody `r 1` [@a].\n"
    blanked = blank_chunks(text)
    assert len(blanked) == len(text)
    assert [i for i, c in enumerate(blanked) if c == "\n"] == [
        i for i, c in enumerate(text) if c == "\n"
    ]
    assert all(b == a or b == " " for a, b in zip(text, blanked, strict=True))
