"""Source files as text with page numbers: PDFs through pymupdf4llm (Markdown, tables and
footnotes kept), `.md`/`.txt` as they are. Cached under the file's SHA-256, so a PDF swapped at
the same path is read again and an unchanged one never is."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path

from citecore.cache import Cache, content_key
from citecore.errors import InputError
from citecore.serialize import record_from_data, to_data

logger = logging.getLogger(__name__)

# Bump when extraction changes what a page's text is.
TEXT_VERSION = "2"


@dataclass(frozen=True, slots=True)
class Page:
    """One page of a source (plain-text sources are one page, or split at form feeds)."""

    number: int
    text: str


@dataclass(frozen=True, slots=True)
class SourceText:
    """A source file's text, page by page, and the digest it was read from."""

    path: str
    sha256: str
    pages: tuple[Page, ...]


class UnreadableSourceError(InputError):
    """A source file that holds no text citecheck can read (a scan, an encrypted PDF)."""


# Fewer words than this on every page together is no text layer, only stray marks.
_MIN_WORDS = 5


def _pdf_pages(path: Path) -> list[str]:
    # start-up: pymupdf and pymupdf4llm take ~600 ms to import: only a PDF source needs them.
    import pymupdf
    import pymupdf4llm

    with pymupdf.open(path) as document:
        if document.needs_pass:
            raise UnreadableSourceError(
                f"{path}: the PDF is encrypted: supply an unlocked copy or a .txt beside it"
            )

    # The layout-model path is slower and needs far more memory; the plain path keeps pages,
    # tables (as Markdown) and footnotes, which is what evidence ranking and alignment need.
    pymupdf4llm.use_layout(False)
    # pymupdf4llm reports its own diagnostics on stdout, which in a pandoc filter is the AST.
    with contextlib.redirect_stdout(io.StringIO()) as chatter:
        try:
            chunks = pymupdf4llm.to_markdown(
                str(path), page_chunks=True, show_progress=False, use_ocr=False
            )
        except TypeError:  # versions without the `use_ocr` switch
            chunks = pymupdf4llm.to_markdown(str(path), page_chunks=True, show_progress=False)
    if chatter.getvalue().strip():
        logger.debug("pymupdf4llm on %s: %s", path, chatter.getvalue().strip())
    return [str(chunk.get("text", "")) for chunk in chunks]


def read_source(path: Path, cache: Cache | None = None) -> SourceText:
    """The text of a source file, from the cache when this exact file was read before."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read source: {exc.strerror}") from exc
    digest = hashlib.sha256(data).hexdigest()
    key = content_key(TEXT_VERSION, digest)
    if cache is not None:
        stored = cache.get("text", key)
        if stored is not None:
            cached = record_from_data(SourceText, json.loads(stored))
            return SourceText(str(path), digest, cached.pages)
    if path.suffix.lower() == ".pdf":
        try:
            texts = _pdf_pages(path)
        except InputError:
            raise
        except Exception as exc:
            raise UnreadableSourceError(f"{path}: cannot read this PDF: {exc}") from exc
    else:
        texts = data.decode("utf-8", errors="replace").split("\f")
    if sum(len(re.findall(r"\w{2,}", text)) for text in texts) < _MIN_WORDS:
        raise UnreadableSourceError(
            f"{path}: no text could be read from it: OCR it or supply a .txt beside it"
        )
    source = SourceText(str(path), digest, tuple(Page(i, t) for i, t in enumerate(texts, 1)))
    if cache is not None:
        cache.put("text", key, json.dumps(to_data(source)))
    return source
