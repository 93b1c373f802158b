"""Europe PMC / PMC full text (JATS XML) as Markdown: the title, the abstract, and the body's
sections as headings with their paragraphs, so that grounding reads the work as its authors
divided it. Tables and figures keep their captions; references, equations' markup and
supplementary material are left out (they are not claims a citation points to)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

_SKIPPED = {"ref-list", "fn-group", "supplementary-material", "alternatives", "mml:math", "math"}
_BLOCKS = {"p", "title", "caption", "list-item", "disp-quote", "def"}


class NotFullTextError(ValueError):
    """XML that is not a JATS article with a body."""


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _inline(element: ElementTree.Element) -> str:
    """The text of an element and its inline children, on one line."""
    parts = [element.text or ""]
    for child in element:
        if _local(child.tag) not in _SKIPPED:
            parts.append(_inline(child))
        parts.append(child.tail or "")
    return " ".join("".join(parts).split())


def _blocks(element: ElementTree.Element, depth: int, out: list[str]) -> None:
    """Walk a section: its title as a heading one level deeper, its paragraphs as paragraphs."""
    for child in element:
        name = _local(child.tag)
        if name in _SKIPPED:
            continue
        if name == "sec" or name == "app":
            _blocks(child, depth + 1, out)
        elif name == "title":
            heading = _inline(child)
            if heading:
                out.append(f"{'#' * min(depth, 6)} {heading}")
        elif name in ("table-wrap", "fig"):
            caption = child.find("./caption")
            label = child.findtext("./label") or ""
            if caption is not None:
                out.append(" ".join(f"{label} {_inline(caption)}".split()))
        elif name in _BLOCKS:
            # A paragraph that holds a list or a block quote is read block by block.
            if any(_local(c.tag) in ("list", "disp-quote", "table-wrap", "fig") for c in child):
                lead = " ".join((child.text or "").split())
                if lead:
                    out.append(lead)
                _blocks(child, depth, out)
            else:
                text = _inline(child)
                if text:
                    out.append(text)
        else:
            _blocks(child, depth, out)


def jats_to_markdown(xml: str) -> str:
    """The article as Markdown; NotFullTextError when the XML is not an article with a body."""
    try:
        root = ElementTree.fromstring(xml)
    except ElementTree.ParseError as exc:
        raise NotFullTextError(f"not XML: {exc}") from exc
    article = root if _local(root.tag) == "article" else root.find(".//article")
    if article is None:
        raise NotFullTextError("no JATS <article> in the XML")
    body = next((e for e in article.iter() if _local(e.tag) == "body"), None)
    if body is None:
        raise NotFullTextError("the article has no body (an abstract only)")
    out: list[str] = []
    title = next((e for e in article.iter() if _local(e.tag) == "article-title"), None)
    if title is not None and _inline(title):
        out.append(f"# {_inline(title)}")
    for abstract in (e for e in article.iter() if _local(e.tag) == "abstract"):
        if abstract.get("abstract-type") not in (None, "", "summary"):
            continue
        out.append("## Abstract")
        _blocks(abstract, 2, out)
        break
    _blocks(body, 1, out)
    text = "\n\n".join(out)
    if len(re.findall(r"\w+", text)) < 20:
        raise NotFullTextError("the article's body holds no text")
    return text + "\n"
