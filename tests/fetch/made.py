"""Source files made here from our own words: PDFs (pymupdf) and a JATS article, the shapes
hosts serve, so that what is fetched can be read and grounded."""

from __future__ import annotations

import pymupdf


def pdf_of(*pages: str) -> bytes:
    """A PDF with one page per text, the text laid out as a paragraph."""
    document = pymupdf.open()
    for text in pages:
        page = document.new_page()
        page.insert_textbox(pymupdf.Rect(72, 72, 523, 770), text, fontsize=11)
    data: bytes = document.tobytes()
    document.close()
    return data


def jats_of(title: str, sections: dict[str, list[str]], abstract: str = "") -> str:
    """A JATS article as Europe PMC's `fullTextXML` serves it: front matter, body sections with
    paragraphs, a reference list."""
    body = "".join(
        f"<sec><title>{heading}</title>" + "".join(f"<p>{p}</p>" for p in paragraphs) + "</sec>"
        for heading, paragraphs in sections.items()
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<article xmlns:xlink="http://www.w3.org/1999/xlink" article-type="research-article">'
        f"<front><article-meta><title-group><article-title>{title}</article-title>"
        f"</title-group><abstract><p>{abstract}</p></abstract></article-meta></front>"
        f"<body>{body}</body>"
        "<back><ref-list><ref><mixed-citation>A cited work, 2001.</mixed-citation></ref>"
        "</ref-list></back></article>"
    )
