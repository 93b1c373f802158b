"""The editor's fast citation scan against the oracles the builds use (hypothesis): on
generated Markdown it finds the keys pandoc's AST holds (cross-references aside), in order; on
generated LaTeX the keys of `citecheck latex`'s reader; and each range covers its key."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from citecore.extract.latex_cites import find_cite_commands
from citecore.extract.latex_syntax import mask_ignored
from citecore.extract.markdown import is_crossref
from citecore.lsp.scan import Span, latex_citations, markdown_citations
from tests.generated_markdown import document, pandoc_keys


def _text_of(text: str, span: Span) -> str:
    lines = text.splitlines(keepends=True)
    if span.start_line == span.end_line:
        return lines[span.start_line][span.start_character : span.end_character]
    return lines[span.start_line][span.start_character :]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document())
def test_the_markdown_scan_finds_the_keys_pandoc_reads(text: str) -> None:
    scanned = [c for c in markdown_citations(text) if not is_crossref(c.key)]
    # The scan marks each citation where it is written; pandoc reads a footnote at each of its
    # references: the same keys, each at least once.
    assert {c.key for c in scanned} == set(pandoc_keys(text)), text
    for cited in scanned:
        assert cited.key in _text_of(text, cited.key_span)


def test_ranges_of_groups_bare_keys_and_notes() -> None:
    text = "A [see @a, p. 3; @b] and @c^[Note @d.] `@code` mail@example.org.\n"
    found = {c.key: c for c in markdown_citations(text)}
    assert set(found) == {"a", "b", "c", "d"}
    assert _text_of(text, found["a"].citation_span) == "[see @a, p. 3; @b]"
    assert _text_of(text, found["c"].citation_span) == "@c"
    assert _text_of(text, found["d"].citation_span) == "@d"  # a note's brackets are no group


def test_the_latex_scan_is_the_readers_and_ranges_are_commands() -> None:
    text = (
        "Seen \\citep[see][p.~2]{alpha,beta} and \\textcite{gamma}.\n"
        "% \\cite{commented}\n\\cites{delta}[4]{epsilon}\n"
    )
    found = latex_citations(text)
    expected = [k for c in find_cite_commands(mask_ignored(text)) for k, _, _ in c.keys]
    assert [c.key for c in found] == expected == ["alpha", "beta", "gamma", "delta", "epsilon"]
    assert _text_of(text, found[0].citation_span) == "\\citep[see][p.~2]{alpha,beta}"
    assert _text_of(text, found[1].key_span) == "beta"


def test_positions_count_utf16_code_units_as_lsp_does() -> None:
    [cited] = markdown_citations("𝓐 claim [@k].\n")
    assert cited.key_span.start_character == 10  # "@" after 𝓐, two UTF-16 code units


@pytest.mark.parametrize(
    "front",
    [
        "nocite: |\n  @b, @c\n",
        'nocite: "@b, @c"\n',
        'nocite:\n  - "@b"\n  - "@c"\n',
    ],
)
def test_the_front_matter_nocite_list_cites_nothing(front: str) -> None:
    """pandoc's `nocite:` names entries for the reference list: the editor neither shows them
    as citations nor grounds them; the analysis gets them as nocite keys."""
    from citecore.lsp.scan import citations_of, markdown_nocite

    text = f"---\nbibliography: refs.bib\n{front}title: On it [@x]\n---\n\nA claim [@a].\n"
    assert [c.key for c in citations_of("p.md", text)] == ["x", "a"]
    assert markdown_nocite(text) == (["b", "c"], False)
