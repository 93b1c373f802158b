"""Europe PMC / PMC full text (JATS XML) as Markdown: the title, the abstract, and the body's
sections as headings with their paragraphs, so that grounding reads the work as its authors
divided it. Figures keep their captions, tables their captions, rows (a line of cells each) and
footnotes; references, equations' markup and supplementary material are left out (they are not
claims a citation points to)."""

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
    """The text of an element and its inline children, on one line: the white space between
    them is kept where the XML has it ("a<italic> C. elegans</italic>" is two words), and only
    there ("<italic>C</italic>-terminal" is one)."""
    return " ".join(_raw(element).split())


def _raw(element: ElementTree.Element) -> str:
    parts = [element.text or ""]
    for child in element:
        if _local(child.tag) not in _SKIPPED:
            parts.append(_raw(child))
        parts.append(child.tail or "")
    return "".join(parts)


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
            caption = next((c for c in child if _local(c.tag) == "caption"), None)
            label = next((_inline(c) for c in child if _local(c.tag) == "label"), "")
            if caption is not None:
                out.append(" ".join(f"{label} {_inline(caption)}".split()))
            out.extend(_table_text(child))
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


def _table_text(wrap: ElementTree.Element) -> list[str]:
    """A table's rows, each one line of its cells (a review's table of methods and findings is
    what a citation often points to), then its footnotes and legends."""
    rows = []
    for row in (e for e in wrap.iter() if _local(e.tag) == "tr"):
        cells = [_inline(cell) for cell in row if _local(cell.tag) in ("td", "th")]
        if any(cells):
            rows.append(" | ".join(cells))
    for foot in (e for e in wrap if _local(e.tag) == "table-wrap-foot"):
        rows += [_inline(p) for p in foot.iter() if _local(p.tag) == "p" and _inline(p)]
    return rows


def jats_to_markdown(xml: str) -> str:
    """The article as Markdown; NotFullTextError when the XML is not an article with a body."""
    article = _article(xml)
    body = next((e for e in article.iter() if _local(e.tag) == "body"), None)
    if body is None:
        raise NotFullTextError("the article has no body (an abstract only)")
    out: list[str] = []
    title = next((e for e in article.iter() if _local(e.tag) == "article-title"), None)
    if title is not None and _inline(title):
        out.append(f"# {_inline(title)}")
    _abstract(article, out)
    _blocks(body, 1, out)
    # Tables and figures a publisher keeps apart from the body (`floats-group`, Hindawi's).
    for floats in (e for e in article.iter() if _local(e.tag) == "floats-group"):
        _blocks(floats, 1, out)
    text = "\n\n".join(out)
    if len(re.findall(r"\w+", text)) < 20:
        raise NotFullTextError("the article's body holds no text")
    return text + "\n"


def _article(xml: str) -> ElementTree.Element:
    """The JATS `<article>` element of the XML (the root, or one inside it)."""
    try:
        root = ElementTree.fromstring(xml)
    except ElementTree.ParseError as exc:
        raise NotFullTextError(f"not XML: {exc}") from exc
    article = root if _local(root.tag) == "article" else root.find(".//article")
    if article is None:
        raise NotFullTextError("no JATS <article> in the XML")
    return article


def _abstract(article: ElementTree.Element, out: list[str]) -> None:
    """The article's first summary abstract (not a graphical or teaser one) onto `out`, under
    "## Abstract" unless it has a title of its own."""
    for abstract in (e for e in article.iter() if _local(e.tag) == "abstract"):
        if abstract.get("abstract-type") not in (None, "", "summary"):
            continue
        if not any(_local(child.tag) == "title" for child in abstract):  # else its own title
            out.append("## Abstract")
        _blocks(abstract, 2, out)
        return
