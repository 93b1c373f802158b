"""The class of R Markdown forms that raw pandoc misreads, generated (hypothesis) and held to
real knitr: executable chunks with fences of any length, indented, in list items and block
quotes, headers with options that hold `@` or `[`, blank lines inside, code comments that look
like citations, and inline code. citecheck's keys must be knitr + pandoc's, in order."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.extract.locate import SourceFile
from citecore.extract.markdown import extract_citations
from citecore.pandoc.knitr import blank_chunks
from tests.generated_markdown import ast_keys
from tests.knitr_oracle import have_knitr, knit
from tests.pandoc_json import read_ast, read_json
from tests.paths import REPO

pytestmark = pytest.mark.skipif(not have_knitr(), reason="needs R's knitr (make test installs it)")

KEYS = st.sampled_from(["smith2020", "doe:2019", "R-base", "lee_2018a", "url:https://x.org/b"])
HEADERS = st.sampled_from(
    [
        "{r}",
        "{r LABEL}",
        "{r, echo=FALSE}",
        "{r LABEL, fig.cap = 'See [@hidden2001]'}",
        "{r opt = '@hidden2002', include = FALSE}",
        "{python}",
        "{r fig-LABEL, echo = TRUE}",
    ]
)
CODE = st.sampled_from(["x <- 1", "", "# see @hidden2003", "y <- c('[@hidden2004]')", "plot(x)"])


@st.composite
def prose(draw: st.DrawFn) -> str:
    words = ["Claims", "are", "made", "here"]
    key = draw(KEYS)
    cite = draw(st.sampled_from([f"[@{key}]", f"@{key}", f"[see @{key}, p. 4]"]))
    inline = draw(st.sampled_from(["", " `r nrow(d)`", " `r '@hidden2005'`"]))
    return " ".join(words) + inline + f" {cite}."


@st.composite
def chunk(draw: st.DrawFn) -> list[str]:
    fence = "`" * draw(st.integers(3, 5))
    prefix = draw(st.sampled_from(["", "  ", "    ", "> "]))
    options = ["#| echo: false"] if draw(st.booleans()) else []  # knitr refuses one twice
    body = options + draw(st.lists(CODE, min_size=1, max_size=4))
    lines = [f"{prefix}{fence}{draw(HEADERS)}"]
    lines += [(prefix + line) if line or prefix.startswith(">") else line for line in body]
    lines.append(prefix.rstrip() + fence if prefix.startswith(">") else prefix + fence)
    return lines


@st.composite
def document(draw: st.DrawFn) -> str:
    lines = ["---", "title: Generated", "---", ""]
    for _ in range(draw(st.integers(1, 4))):
        form = draw(st.sampled_from(["paragraph", "chunk", "list", "glued"]))
        if form == "paragraph":
            lines += [draw(prose()), ""]
        elif form == "chunk":
            lines += [*draw(chunk()), ""]
        elif form == "list":
            lines += [f"- {draw(prose())}", "", *draw(chunk()), "", f"- {draw(prose())}", ""]
        else:  # a chunk with no blank line around it
            lines += [draw(prose()), *draw(chunk()), draw(prose()), ""]
    text = "\n".join(lines) + "\n"
    count = text.count("LABEL")
    for number in range(count):  # knitr refuses two chunks of one label
        text = text.replace("LABEL", f"chunk{number}", 1)
    return text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document())
def test_chunks_are_read_as_knitr_reads_them(text: str) -> None:
    expected = ast_keys(read_json(knit(text, REPO)))
    masked = blank_chunks(text)
    extraction = extract_citations_of(masked)
    assert [c.key for c in extraction] == expected
    assert not any(k.startswith("hidden") for k in expected)


def extract_citations_of(text: str) -> list:  # type: ignore[type-arg]
    doc = read_ast(text)
    return list(extract_citations(doc, [SourceFile("doc.Rmd", text)]).citations)
