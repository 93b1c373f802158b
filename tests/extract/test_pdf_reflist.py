"""PDF reference lists laid out by a generator that knows every entry: one or two columns,
hanging indents or numbered labels, running heads, page numbers and margin line numbers,
entries that run across columns and pages, and an appendix after the list. The reader must
give back exactly the entries, whole and in order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.extract.pdf_lines import pdf_lines
from citecore.extract.pdf_reflist import pdf_entries
from citecore.extract.reflist_text import join_lines

_FAMILIES = ["Andrews", "Lüdecke", "Zhang", "van der Walt", "Kruschke", "Nguyen", "Smith"]
_WORDS = "bayesian model data analysis learning network climate protein survey method".split()


@st.composite
def entry(draw: st.DrawFn) -> str:
    """One author–year reference as a typesetter would receive it."""
    authors = draw(st.lists(st.sampled_from(_FAMILIES), min_size=1, max_size=6))
    names = ", ".join(f"{a}, {draw(st.sampled_from('ABCDEJKM'))}." for a in authors)
    title = " ".join(draw(st.lists(st.sampled_from(_WORDS), min_size=2, max_size=14))).capitalize()
    year = draw(st.integers(1960, 2025))
    volume, first = draw(st.integers(1, 99)), draw(st.integers(1, 900))
    return f"{names} ({year}). {title}. Journal of Tests, {volume}, {first}-{first + 9}."


@st.composite
def layout(draw: st.DrawFn) -> dict[str, Any]:
    """How the list is set."""
    return {
        "entries": draw(st.lists(entry(), min_size=2, max_size=40)),
        "two_columns": draw(st.booleans()),
        "numbered": draw(st.booleans()),
        "furniture": draw(st.booleans()),
        "line_numbers": draw(st.booleans()),
        "appendix": draw(st.booleans()),
    }


_SIZE = 9.0
_LEADING = 11.0


def _wrap(text: str, width: float, font: str = "helv") -> list[str]:
    lines, current = [], ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if current and pymupdf.get_text_length(candidate, font, _SIZE) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    return [*lines, current]


def typeset(spec: dict[str, Any], path: Path) -> None:
    """Write the PDF that `spec` describes."""
    document = pymupdf.open()
    width, height, margin = 595.0, 842.0, 60.0
    gutter = 20.0
    columns = 2 if spec["two_columns"] else 1
    column_width = (width - 2 * margin - gutter * (columns - 1)) / columns
    state = {"page": None, "column": 0, "y": 0.0, "line": 0}

    def new_page() -> None:
        page = document.new_page(width=width, height=height)
        state.update(page=page, column=0, y=margin + 20)
        if spec["furniture"]:
            page.insert_text((margin, 35), "Journal of Tests 12 (2024) 1–20", fontsize=8)
            page.insert_text((width / 2 - 5, height - 30), str(document.page_count), fontsize=8)

    def put(text: str, x_offset: float, font: str = "helv", size: float = _SIZE) -> None:
        if state["y"] > height - margin - 20:
            if state["column"] + 1 < columns:
                state.update(column=state["column"] + 1, y=margin + 20)
            else:
                new_page()
        x = margin + state["column"] * (column_width + gutter)
        page = state["page"]
        page.insert_text((x + x_offset, state["y"]), text, fontname=font, fontsize=size)
        if spec["line_numbers"] and state["column"] == 0:
            state["line"] += 1
            page.insert_text((20, state["y"]), str(state["line"]), fontsize=7)
        state["y"] += _LEADING

    new_page()
    for sentence in ["Body text of the paper, citing [1] and others.", "More prose here."]:
        put(sentence, 0)
    state["y"] += 8
    put("References", 0, font="hebo", size=12)
    for number, text in enumerate(spec["entries"], 1):
        if spec["numbered"]:
            lines = _wrap(text, column_width - 22)
            put(f"[{number}]", 0)
            state["y"] -= _LEADING  # the label shares the first line's baseline
            for line in lines:
                put(line, 22)
        else:
            first, *rest = _wrap(text, column_width)
            rest = _wrap(" ".join(rest), column_width - 12) if rest else []
            put(first, 0)
            for line in rest:
                put(line, 12)
    if spec["appendix"]:
        state["y"] += 10
        put("Appendix A. Proofs", 0, font="hebo", size=12)
        put("Lemma 1 (2019). Every bounded sequence has a convergent subsequence.", 0)
    document.save(path)
    document.close()


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(layout())
def test_generated_layouts_give_back_every_entry(spec: dict[str, Any]) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "paper.pdf"
        typeset(spec, pdf)
        found = [e.text for e in pdf_entries(pdf_lines(pdf))]
    assert found == [" ".join(e.split()) for e in spec["entries"]]


def test_lines_join_as_printed() -> None:
    assert join_lines(["Savage–Dickey meth-", "od for psycho-", "logists."]) == (
        "Savage–Dickey method for psychologists."
    )
    assert join_lines(["Object-", "Oriented Software"]) == "Object-Oriented Software"
    assert join_lines(["https://doi.org/10.1111/bm", "sp.12004"]) == (
        "https://doi.org/10.1111/bmsp.12004"
    )
    assert join_lines(["see https: //CRAN.R-", "project.org/package=x"])  # no crash on odd URLs
    assert join_lines(["https://example.org/a.", "Accessed 2020"]) == (
        "https://example.org/a. Accessed 2020"
    )
