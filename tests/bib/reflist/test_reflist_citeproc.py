"""Printed references read back, with citeproc as the oracle: generated records printed by
pandoc's citeproc in each CSL style of ../shared/csl (as a plain-text list), and PDFs of corpus
papers rendered by pandoc + LaTeX, must come back as the same title, first author and year."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from citecore.bib.reflist.read import references_from_pdf, references_from_text
from tests.generated_references import expected, printed_list, records
from tests.paths import CORPUS
from tests.rendered_reflists import STYLES, Score, expected_references, render, score

_CSL = sorted({style.csl for style in STYLES})


def _without_blank_lines(text: str) -> str:
    return re.sub(r"\n\s*\n", "\n", text)


def _hanging(text: str) -> str:
    """Each entry's continuation lines indented, the blank lines between entries gone."""
    entries = [e.splitlines() for e in text.strip().split("\n\n")]
    return "\n".join(line if i == 0 else "    " + line for e in entries for i, line in enumerate(e))


@pytest.mark.parametrize("layout", [lambda t: t, _without_blank_lines, _hanging])
@pytest.mark.parametrize("csl", _CSL)
def test_generated_lists_read_back_in_every_style(csl: str, layout: Callable[[str], str]) -> None:
    total = Score()

    @settings(
        max_examples=4,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(records())
    def read_back(items: list[dict[str, Any]]) -> None:
        printed = layout(printed_list(items, csl))
        result = score(expected(items), references_from_text(printed, "x.txt"))
        assert result.extra == 0, result.misses
        total.add(result)

    read_back()
    assert total.found == total.expected, total.misses
    for field in (total.title, total.author, total.year):
        assert field >= 0.95 * total.expected, total.misses


# Two papers, one numbered and one author–year style each way, and a two-column page: the
# bench (bench/reflist_styles.py) runs every paper in every style.
_PAPERS = ("joss-bayestestr", "joss-unyt")
_RENDERED = [
    s
    for s in STYLES
    if s.name in ("apa", "ieee", "nature", "ieee-2col", "harvard", "elsevier-harvard", "acs")
]


@pytest.fixture(scope="module")
def rendered_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("rendered")


@pytest.mark.parametrize("style", _RENDERED, ids=lambda s: s.name)
def test_rendered_pdfs_read_back(style: Any, rendered_folder: Path) -> None:
    total = Score()
    for name in _PAPERS:
        paper = CORPUS / "markdown" / name
        pdf = render(paper, style, rendered_folder)
        total.add(score(expected_references(paper), references_from_pdf(pdf)))
    assert total.found == total.expected, total.misses
    assert total.extra == 0
    for field in (total.title, total.author, total.year):
        assert field >= 0.85 * total.expected, total.misses
