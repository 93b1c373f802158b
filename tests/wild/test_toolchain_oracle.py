"""Every document of pandoc's and Quarto's own test suites (../shared/corpus/toolchains) and of
the wild Markdown corpus, read by `citecheck check` and by the writer's toolchain (knitr, Quarto's
project metadata, pandoc's citeproc): the same keys as pandoc's AST, and `undefined` exactly the
keys citeproc reports as "citation X not found". A document pandoc itself cannot read is skipped
with pandoc's reason (listed by `-ra`), never silently."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.knitr_oracle import have_knitr
from tests.toolchain_oracle import (
    Layout,
    Reading,
    lay_out,
    oracle,
    ours,
    toolchain_documents,
    toolchain_siblings,
    wild_layouts,
)

_DOCUMENTS = toolchain_documents()


def _held(layout: Layout, root: Path) -> tuple[Reading, Reading]:
    expected = oracle(layout, root)
    if expected.failure is not None:
        pytest.skip(f"the oracle cannot judge {layout.ident}: {expected.failure}")
    return expected, ours(layout)


@pytest.fixture(scope="module")
def siblings() -> dict[str, str]:
    """The files beside the toolchain documents, read once."""
    return toolchain_siblings()


@pytest.mark.skipif(not have_knitr(), reason="needs R's knitr (make test installs it)")
@pytest.mark.parametrize("item", _DOCUMENTS, ids=lambda d: str(d["id"]))
def test_a_toolchain_document_reads_as_pandoc_and_citeproc_read_it(
    item: dict[str, Any], siblings: dict[str, str], tmp_path: Path
) -> None:
    layout = lay_out(item, siblings, tmp_path)
    expected, found = _held(layout, tmp_path)
    assert found.failure is None, found.failure
    assert found.keys == expected.keys
    assert found.undefined == expected.undefined


@pytest.mark.skipif(not have_knitr(), reason="needs R's knitr (make test installs it)")
@pytest.mark.parametrize("layout", wild_layouts(), ids=lambda layout: layout.ident)
def test_a_wild_document_is_undefined_where_citeproc_finds_nothing(layout: Layout) -> None:
    expected, found = _held(layout, layout.document.parent)
    assert found.failure is None, found.failure
    assert found.keys == expected.keys
    assert found.undefined == expected.undefined
