"""Full texts fetched as JATS (Europe PMC, PMC, a publisher's XML) read into the Markdown that
grounding searches, on the real articles of ../shared/corpus/wild/publisher-pdfs (each folder's
`article.xml`, see its PROVENANCE.md). The oracle is the XML itself: every paragraph's words as
XML gives them (white space where the XML has it, and only there), every section title a
heading, and nothing of the reference list, which is no claim of the article's."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from citecore.fetch.jats import NotFullTextError, jats_to_markdown
from tests.paths import SHARED

ARTICLES = sorted((SHARED / "corpus" / "wild" / "publisher-pdfs").glob("*/article.xml"))
_SKIPPED = {"ref-list", "fn-group", "supplementary-material", "alternatives", "math"}


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1]


def _words(element: ElementTree.Element) -> str:
    """An element's text as XML gives it, skipped parts left out, white space made single."""

    def raw(node: ElementTree.Element) -> str:
        parts = [node.text or ""]
        for child in node:
            if _local(child.tag) not in _SKIPPED:
                parts.append(raw(child))
            parts.append(child.tail or "")
        return "".join(parts)

    return " ".join(raw(element).split())


def _inside(
    element: ElementTree.Element, parents: dict[int, ElementTree.Element], *names: str
) -> bool:
    node = parents.get(id(element))
    while node is not None:
        if _local(node.tag) in names:
            return True
        node = parents.get(id(node))
    return False


def _article(path: Path) -> tuple[ElementTree.Element, str]:
    root = ElementTree.parse(path).getroot()
    article = root if _local(root.tag) == "article" else root.find(".//article")
    assert article is not None
    return article, jats_to_markdown(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", ARTICLES, ids=lambda p: p.parent.name)
def test_every_paragraph_of_the_body_is_read_word_for_word(path: Path) -> None:
    article, markdown = _article(path)
    body = next(e for e in article.iter() if _local(e.tag) == "body")
    parents = {id(child): parent for parent in body.iter() for child in parent}
    blocks = set(markdown.rstrip("\n").split("\n\n"))
    missing = []
    for paragraph in body.iter():
        if _local(paragraph.tag) != "p" or _inside(paragraph, parents, *_SKIPPED):
            continue
        if any(_local(c.tag) in ("list", "disp-quote", "table-wrap", "fig") for c in paragraph):
            continue  # read block by block
        words = _words(paragraph)
        # A caption's paragraphs are read into the caption's one block, after its label; a
        # table cell's into its row's line.
        within = _inside(paragraph, parents, "caption", "td", "th")
        if words and (words not in markdown if within else words not in blocks):
            missing.append(words[:80])
    assert missing == []


@pytest.mark.parametrize("path", ARTICLES, ids=lambda p: p.parent.name)
def test_every_table_row_is_one_line_of_its_cells(path: Path) -> None:
    article, markdown = _article(path)
    lines = set(markdown.rstrip("\n").split("\n\n"))
    for row in (e for e in article.iter() if _local(e.tag) == "tr"):
        cells = [_words(c) for c in row if _local(c.tag) in ("td", "th")]
        if any(cells):
            assert " | ".join(cells) in lines


@pytest.mark.parametrize("path", ARTICLES, ids=lambda p: p.parent.name)
def test_the_title_and_every_section_title_are_headings(path: Path) -> None:
    article, markdown = _article(path)
    title = next(e for e in article.iter() if _local(e.tag) == "article-title")
    headings = [line.lstrip("#").strip() for line in markdown.splitlines() if line.startswith("#")]
    assert markdown.startswith(f"# {_words(title)}\n")
    body = next(e for e in article.iter() if _local(e.tag) == "body")
    for section in (e for e in body.iter() if _local(e.tag) == "sec"):
        named = section.find("./{*}title") if "}" in section.tag else section.find("./title")
        if named is not None and _words(named):
            assert _words(named) in headings


@pytest.mark.parametrize("path", ARTICLES, ids=lambda p: p.parent.name)
def test_the_reference_list_is_not_read_as_the_articles_words(path: Path) -> None:
    _, markdown = _article(path)
    truth = path.with_name("truth.tsv").read_text(encoding="utf-8").splitlines()[1:]
    titles = [row.split("\t")[1] for row in truth if len(row.split("\t")) > 1]
    long_titles = [t for t in titles if len(t.split()) >= 8]
    # A cited title may be quoted in the text; the whole list never is.
    quoted = [t for t in long_titles if t in markdown]
    assert len(quoted) <= max(1, len(long_titles) // 10)


@pytest.mark.parametrize("path", ARTICLES, ids=lambda p: p.parent.name)
def test_an_abstract_is_headed_once(path: Path) -> None:
    _, markdown = _article(path)
    abstract_headings = [
        line for line in markdown.splitlines() if re.fullmatch(r"#+ abstract", line.lower())
    ]
    assert len(abstract_headings) <= 1


def test_inline_markup_keeps_the_xmls_spaces_and_adds_none() -> None:
    xml = (
        "<article><front><article-meta><title-group><article-title>Rescue in a<italic> C. "
        "elegans</italic> model of <italic>C</italic>-terminal loss</article-title>"
        "</title-group></article-meta></front><body><p>"
        + "Words enough to count as a body of text for grounding to read here. " * 2
        + "</p></body></article>"
    )
    assert jats_to_markdown(xml).startswith("# Rescue in a C. elegans model of C-terminal loss\n")


@pytest.mark.parametrize(
    ("xml", "says"),
    [
        ("<html><body/></html>", "no JATS <article>"),
        ("<article><front/></article>", "no body"),
        ("<article><body><p>Too short.</p></body></article>", "holds no text"),
        ("<article><body>", "not XML"),
    ],
)
def test_what_is_not_a_full_text_says_why(xml: str, says: str) -> None:
    with pytest.raises(NotFullTextError, match=says):
        jats_to_markdown(xml)
