"""Pandoc's JSON AST as the dicts and lists `json.loads` makes of it, and the few readings of it
citecheck needs: metadata as plain values, an element's text.

citecheck reads a document once and changes a few citations in it, so it keeps pandoc's own JSON
rather than building an object per element (panflute's load and dump cost four times the JSON
parse, on every build). The shapes are pandoc-types' (`{"t": tag, "c": content}`); an element's
identity in the tree is the dict itself, which is how annotation finds the Cite extraction read.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from citecore.errors import DocumentParseError

Node = dict[str, Any]

# pandoc-types 1.21 (pandoc 2.10) gave tables and captions the shape read here; 1.23 (pandoc 3)
# added figures.
_OLDEST_API = (1, 21)

# The inline elements whose content is a list of inlines, and where in `c` that list is.
_INLINE_LISTS: Mapping[str, int | None] = {
    "Emph": None,
    "Underline": None,
    "Strong": None,
    "Strikeout": None,
    "Superscript": None,
    "Subscript": None,
    "SmallCaps": None,
    "Quoted": 1,
    "Cite": 1,
    "Link": 1,
    "Image": 1,
    "Span": 1,
}
# Inline and block elements whose content is text.
_TEXT_AT: Mapping[str, int | None] = {
    "Str": None,
    "Code": 1,
    "Math": 1,
    "RawInline": 1,
    "CodeBlock": 1,
    "RawBlock": 1,
}
_SPACES = frozenset({"Space", "SoftBreak", "LineBreak"})


def load_ast(text: str | bytes) -> Node:
    """The document pandoc wrote as JSON; a DocumentParseError for anything that is not one."""
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise DocumentParseError(f"not a pandoc JSON document: {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("blocks"), list):
        raise DocumentParseError("not a pandoc JSON document: no blocks")
    version: list[Any] = doc.get("pandoc-api-version") or []
    major_minor = tuple(version[:2]) if isinstance(version, list) else ()
    numbers = all(isinstance(n, int) for n in major_minor)
    if major_minor and numbers and major_minor < _OLDEST_API:
        shown = ".".join(str(part) for part in version)
        raise DocumentParseError(
            f"pandoc's JSON is of API {shown}, older than citecheck reads: use pandoc 2.11 or later"
        )
    if not isinstance(doc.get("meta"), dict):
        doc["meta"] = {}
    return doc


def dump_ast(doc: Node) -> str:
    """The document as JSON for pandoc to read back."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def _part(node: Node, places: Mapping[str, int | None]) -> Any:
    """The part of `node`'s content that `places` names for its tag (None there: all of it);
    None for a tag `places` does not hold."""
    tag: str = node.get("t", "")
    if tag not in places:
        return None
    where = places[tag]
    return node["c"] if where is None else node["c"][where]


def inline_content(node: Node) -> list[Node] | None:
    """The inlines an inline element holds (an emphasis, a link's text, an image's alt text, a
    Cite's rendered text); None for a leaf or a Note (whose content is blocks)."""
    content = _part(node, _INLINE_LISTS)
    return content if isinstance(content, list) else None


def text_of(node: Node) -> str | None:
    """The text a Str, Code, Math or raw element holds; None for any other element."""
    value = _part(node, _TEXT_AT)
    return value if isinstance(value, str) else None


def is_space(node: Node) -> bool:
    """True for a space, a soft line break or a hard one."""
    return node.get("t") in _SPACES


def stringify(nodes: Iterable[Node]) -> str:
    """The plain text of inlines or blocks, as panflute's `stringify` gives it: quotes around
    quoted text, a Cite as its rendered text, a blank line after each paragraph."""
    pieces: list[str] = []
    _text(nodes, pieces)
    return "".join(pieces)


def _text(nodes: Iterable[Any], pieces: list[str]) -> None:
    for node in nodes:
        if isinstance(node, list):
            _text(node, pieces)
            continue
        if not isinstance(node, dict) or "t" not in node:
            continue  # attributes, targets, numbers: not text
        tag = node["t"]
        text = text_of(node)
        if text is not None:
            pieces.append(text)
        elif tag in _SPACES:
            pieces.append(" ")
        elif tag == "Quoted":
            inner: list[str] = []
            _text(node["c"][1], inner)
            pieces.append(f'"{"".join(inner)}"' if node["c"][1] else "")
        elif tag == "Cite":
            _text(node["c"][1], pieces)
        elif tag == "Para":
            _text(node["c"], pieces)
            pieces.append("\n\n")
        elif tag == "DefinitionList":
            items = []
            for term, definitions in node["c"]:
                said = "; ".join(stringify(definition) for definition in definitions)
                items.append(f"- {stringify(term)}: {said}")
            pieces.append("\n".join(items))
        elif isinstance(node.get("c"), list):
            _text(node["c"], pieces)


def meta_value(meta: Node) -> Any:
    """A metadata value as plain Python (panflute's `meta2builtin`): maps, lists, booleans and
    strings; text (inlines, blocks) as its plain text."""
    tag, content = meta.get("t"), meta.get("c")
    if tag == "MetaMap" and isinstance(content, dict):
        return {k: meta_value(v) for k, v in content.items()}
    if tag == "MetaList" and isinstance(content, list):
        return [meta_value(v) for v in content]
    if tag in ("MetaBool", "MetaString"):
        return content
    if tag in ("MetaInlines", "MetaBlocks") and isinstance(content, list):
        return stringify(content)
    return None


def metadata(doc: Node) -> dict[str, Node]:
    """The document's metadata fields, by name (pandoc's `meta`)."""
    meta = doc.get("meta")
    return meta if isinstance(meta, dict) else {}


def get_metadata(doc: Node, name: str, default: Any = None) -> Any:
    """One top-level metadata field as plain Python (`meta_value`), or `default` if absent."""
    field = metadata(doc).get(name)
    return default if field is None else meta_value(field)
