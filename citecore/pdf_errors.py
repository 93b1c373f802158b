"""What reading a broken PDF raises, in one place for every reader of PDFs."""

from __future__ import annotations


def pdf_read_errors() -> tuple[type[Exception], ...]:
    """The exceptions pymupdf raises for a PDF it cannot read: its `FileDataError` (a
    RuntimeError) when opening, `ValueError` for bad arguments, and MuPDF's own errors
    (`FzErrorBase`: a cycle in the page tree, a broken object) when a page is loaded."""
    import pymupdf  # start-up: ~300 ms: asked only once a PDF is being read

    return (RuntimeError, ValueError, pymupdf.mupdf.FzErrorBase)
