"""Pandoc's document as panflute's model (`panflute.Doc`): read from the JSON pandoc gives a
filter, written back as JSON, and its metadata as plain values.

Extraction walks the Doc's elements and annotation changes them in place, so a writer's own
panflute filter can hand citecheck the `Doc` it holds (`citecore.api.markdown.check_document`).
"""

from __future__ import annotations

import io
import re
from typing import Any

import panflute as pf
from panflute.tools import meta2builtin

from citecore.errors import DocumentParseError

# pandoc-types 1.22 (pandoc 2.11) is the oldest API panflute 2 reads; 1.23 (pandoc 3) added
# figures.
_OLDEST_API = (1, 22)
# pandoc writes the API version first: read before the document, an old one is named plainly.
_API_VERSION = re.compile(r'"pandoc-api-version"\s*:\s*\[([\d,\s]*)\]')


class _AnyRawFormat(frozenset[str]):
    """Every raw format: pandoc passes `{=typst}`, `{=html5}`, `{=asciidoc}` or a name it has
    never heard of through untouched, so a filter must too."""

    def __contains__(self, value: object) -> bool:
        return isinstance(value, str)


# panflute 2.3.1 (its latest release) refuses a RawBlock/RawInline whose format is not in its
# own list (panflute/elements.py, RAW_FORMATS: no typst, html5, pptx, asciidoc, beamer, ms,
# revealjs…), and so the whole document. Upstream has added typst to the list since
# (sergiocorreia/panflute, "typst" in RAW_FORMATS); pandoc accepts any name, so the list is
# widened here, once, to every name. Remove this when a panflute release validates no raw format.
pf.elements.RAW_FORMATS = _AnyRawFormat(pf.elements.RAW_FORMATS)

_UNREADABLE = (ValueError, KeyError, TypeError, IndexError, AttributeError, AssertionError,
               NotImplementedError)  # fmt: skip


def load_document(text: str, output_format: str = "html") -> pf.Doc:
    """The document pandoc wrote as JSON, for `output_format`; a DocumentParseError for
    anything that is not one, or one of an API older than panflute reads."""
    found = _API_VERSION.search(text, 0, 400)
    if found:
        version = [int(part) for part in re.findall(r"\d+", found.group(1))]
        if version and tuple(version[:2]) < _OLDEST_API:
            shown = ".".join(str(part) for part in version)
            raise DocumentParseError(
                f"pandoc's JSON is of API {shown}, older than citecheck reads: "
                "use pandoc 2.11 or later"
            )
    try:
        doc = pf.load(io.StringIO(text))
    except _UNREADABLE as exc:
        why = str(exc).strip() or "not the shape of pandoc's AST"
        raise DocumentParseError(f"not a pandoc JSON document: {why}") from exc
    doc.format = output_format
    return doc


def dump_document(doc: pf.Doc) -> str:
    """The document as JSON for pandoc to read back."""
    out = io.StringIO()
    pf.dump(doc, out)
    return out.getvalue()


def metadata_fields(doc: pf.Doc) -> dict[str, pf.MetaValue]:
    """The document's top-level metadata fields, by name (pandoc's `meta`)."""
    return dict(doc.metadata.content.items())


def metadata_value(doc: pf.Doc, name: str, default: Any = None) -> Any:
    """One top-level metadata field as plain Python (panflute's `meta2builtin`: maps, lists,
    booleans, strings, text as its plain text), or `default` if absent. A name is one field
    (`citecheck.strict` given by `-M` is a field of that name, not a path)."""
    fields = doc.metadata.content
    return meta2builtin(fields[name]) if name in fields else default
