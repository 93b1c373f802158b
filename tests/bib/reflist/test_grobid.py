"""`verify --grobid URL`: the real grobid-client-python against a loopback server speaking
GROBID's REST API, and what happens when that server fails."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citecore.bib.reflist.grobid import references_from_grobid, references_from_tei
from citecore.cli import main
from citecore.errors import InputError
from tests.grobid_emulator import _FOOTER, _HEADER, GrobidEmulator, bibl_struct
from tests.paths import CORPUS

PDF = CORPUS / "pdfs" / "vaswani2017-attention-is-all-you-need-arXiv1706.03762v5.pdf"

RECORDS: list[dict[str, Any]] = [
    {
        "title": "Layer normalization",
        "author": [
            {"given": "Jimmy Lei", "family": "Ba"},
            {"given": "Jamie Ryan", "family": "Kiros"},
            {"given": "Geoffrey E", "family": "Hinton"},
        ],
        "container-title": "arXiv preprint",
        "issued": {"date-parts": [[2016]]},
        "arxiv": "arXiv:1607.06450",
        "raw": "Jimmy Lei Ba, Jamie Ryan Kiros, and Geoffrey E Hinton. Layer normalization. "
        "arXiv preprint arXiv:1607.06450, 2016.",
    },
    {
        "title": "Long short-term memory",
        "author": [
            {"given": "Sepp", "family": "Hochreiter"},
            {"given": "Jürgen", "family": "Schmidhuber"},
        ],
        "container-title": "Neural computation",
        "volume": "9",
        "page": "1735-1780",
        "issued": {"date-parts": [[1997]]},
        "DOI": "10.1162/neco.1997.9.8.1735",
        "raw": "Sepp Hochreiter and Jürgen Schmidhuber. Long short-term memory. "
        "Neural computation, 9(8):1735–1780, 1997.",
    },
    {
        "title": "Deep Learning",
        "author": [{"given": "Ian", "family": "Goodfellow"}],
        "issued": {"date-parts": [[2016]]},
        "raw": "Ian Goodfellow et al. Deep Learning. MIT Press, 2016.",
    },
]


@pytest.fixture
def grobid() -> Iterator[GrobidEmulator]:
    emulator = GrobidEmulator(records=RECORDS)
    yield emulator
    emulator.close()


def test_references_read_by_grobid(grobid: GrobidEmulator) -> None:
    refs = references_from_grobid(PDF, grobid.url, timeout=5)
    path, form, size = grobid.requests[-1]
    assert (path, form.get("includeRawCitations"), size) == (
        "/api/processReferences",
        "1",
        PDF.stat().st_size,
    )
    assert "consolidateCitations" not in form  # the registries are citecheck's to ask
    layer, lstm, book = refs
    assert (layer.title, layer.authors[0].family, layer.authors[0].given, layer.year) == (
        "Layer normalization",
        "Ba",
        "Jimmy Lei",
        2016,
    )
    assert (layer.arxiv_id, layer.venue, layer.text) == (
        "1607.06450",
        "arXiv preprint",
        RECORDS[0]["raw"],
    )
    assert [p.family for p in layer.authors] == ["Ba", "Kiros", "Hinton"] and layer.authors_complete
    assert (lstm.doi, lstm.volume, lstm.pages, lstm.venue) == (
        "10.1162/neco.1997.9.8.1735",
        "9",
        "1735–1780",
        "Neural computation",
    )
    assert (book.title, book.venue, book.authors_complete) == ("Deep Learning", "", False)


def test_verify_reads_pdfs_with_grobid(
    grobid: GrobidEmulator, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(PDF), "--grobid", grobid.url, "--offline", "-f", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    stem = PDF.stem
    assert [r["key"] for r in report["references"]] == [
        f"{stem}:ref1-ba2016",
        f"{stem}:ref2-hochreiter1997",
        f"{stem}:ref3-goodfellow2016",
    ]
    first = report["references"][0]
    assert first["text"] == RECORDS[0]["raw"]
    assert first["entry"]["title"] == "Layer normalization"
    assert first["entry"]["authors"][0] == "Ba, Jimmy Lei"


@pytest.mark.parametrize(
    ("status", "body"),
    [(500, "[GENERAL] An exception occurred"), (200, "<TEI><unclosed"), (404, None)],
)
def test_a_failing_grobid_leaves_the_pdf_to_citecheck(
    status: int,
    body: str | None,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    emulator = GrobidEmulator(records=RECORDS, status=status, body=body)
    try:
        with caplog.at_level(logging.WARNING):
            assert (
                main(["verify", str(PDF), "--grobid", emulator.url, "--offline", "-f", "json"]) == 0
            )
    finally:
        emulator.close()
    report = json.loads(capsys.readouterr().out)
    assert len(report["references"]) >= 35  # citecheck's own reading of the 40 references
    assert "reading it with citecheck's own reader" in caplog.text


def test_an_unreachable_grobid_is_named(tmp_path: Path) -> None:
    emulator = GrobidEmulator()
    url = emulator.url
    emulator.close()
    with pytest.raises(InputError, match="could not be reached"):
        references_from_grobid(PDF, url, timeout=2)


def test_a_busy_grobid_is_asked_again(grobid: GrobidEmulator) -> None:
    grobid.busy = 1
    assert len(references_from_grobid(PDF, grobid.url, timeout=5)) == 3
    assert len(grobid.requests) == 2


def test_tei_without_raw_citations_or_fields() -> None:
    tei = _HEADER + bibl_struct(0, {"title": "A Book", "author": []}, raw=False) + _FOOTER
    (book,) = references_from_tei(tei, "x.pdf")
    assert (book.title, book.authors, book.year, book.text, book.doi) == (
        "A Book",
        (),
        None,
        "",
        "",
    )
    assert references_from_tei(_HEADER + _FOOTER, "x.pdf") == []
