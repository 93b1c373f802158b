"""Fuzzing the readers of user input (hypothesis): a bibliography, a Markdown document or a LaTeX
project made of the pieces their syntax is built from, shuffled and cut anywhere, is read to the
end and reported; nothing raises, and whatever is reported is located in the file it came from."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.bib.bibtex import parse_bibtex
from citecore.bib.csl import parse_csl_json, parse_csl_yaml
from citecore.cli import main
from citecore.extract.latex import extract_latex

# Exit codes a run on bad input may end with (README): findings, bad input, unparseable document.
EXIT_CODES = {0, 1, 2, 7}


def _pieces(*fragments: str) -> st.SearchStrategy[str]:
    """Text made of syntax fragments, words and any characters at all."""
    piece = st.one_of(
        st.sampled_from(fragments),
        st.sampled_from(["Smith", "2020", "x", " ", "\n", "é", "\u202e", "\x00", "and"]),
        st.text(max_size=4),
    )
    return st.lists(piece, max_size=60).map("".join)


BIBTEX = _pieces(
    "@article{",
    "@inproceedings{",
    "@string{",
    "@comment{",
    "@preamble{",
    "@xdata{",
    "key,",
    "}",
    "{",
    ",",
    " = ",
    '"',
    " # ",
    "title",
    "author",
    "year",
    "month",
    "date",
    "doi",
    "eprint",
    "crossref",
    "sep",
    "2024-09/2024-10",
    "{\\'e}",
    "\\",
    "%",
    "and others",
    "10.1000/x",
)
MARKDOWN = _pieces(
    "[@a]",
    "[@b; @c]",
    "[@a,@b]",
    "@a",
    "-@b",
    "[see @c, p. 3]",
    "[",
    "]",
    "^[",
    "[^1]",
    "[^1]: ",
    "\n\n",
    "| a | b |\n|---|---|\n",
    ": Caption [@a]\n",
    "`",
    "```\n",
    "$",
    ":::",
    "::: {.callout-note}\n",
    "---\n",
    "{#fig-x}",
    "![",
    "](x.png)",
    "*",
    "# ",
    "> ",
    "1. ",
    "<div>",
    "a@b.org",
    "@fig-x",
    "references:\n- id: a\n",
)
LATEX = _pieces(
    "\\cite{a}",
    "\\citep[p.~3][]{b,c}",
    "\\textcite{a}",
    "\\cites(pre)(post)[1]{a}[2]{b}",
    "\\cite*{",
    "\\nocite{*}",
    "\\input{",
    "\\include{",
    "\\href{",
    "\\url{",
    "\\def\\x#1{\\cite{#1}}",
    "\\newcommand{\\y}[1]{",
    "\\footnote{",
    "\\begin{verbatim}",
    "\\end{verbatim}",
    "\\verb|",
    "\\iffalse",
    "\\fi",
    "\\section{",
    "\\bibliography{refs}",
    "\\addbibresource{refs.bib}",
    "{",
    "}",
    "[",
    "]",
    "%",
    "\\%",
    "$",
    "\\\\",
    "\n\n",
    "\\",
    "#1",
)

# CI runs a bounded number; CITECHECK_FUZZ_EXAMPLES=5000 runs thousands.
_EXAMPLES = int(os.environ.get("CITECHECK_FUZZ_EXAMPLES", "150"))
_SETTINGS: Callable[[Callable[..., None]], Callable[..., None]] = settings(
    max_examples=_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# Whole runs (pandoc, reports) are slower: a sixth as many.
_PROCESS_SETTINGS: Callable[[Callable[..., None]], Callable[..., None]] = settings(
    max_examples=max(1, _EXAMPLES // 6),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@_SETTINGS
@given(BIBTEX)
def test_any_bibtex_text_is_read(text: str) -> None:
    parsed = parse_bibtex(text, "refs.bib")
    lines = text.count("\n") + 1
    for item in (*parsed.references, *parsed.duplicates):
        assert item.location.file == "refs.bib"
        assert item.location.line is None or 1 <= item.location.line <= lines
    for unparsed in parsed.unparsed:
        assert unparsed.location.file == "refs.bib"


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["id", "type", "title", "author", "issued", "date-parts", "DOI", "x"]),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


@_SETTINGS
@given(JSON_VALUES)
def test_any_csl_json_is_read(value: object) -> None:
    text = json.dumps(value)
    references, unparsed = parse_csl_json(text, "refs.json")
    assert all(r.location.file == "refs.json" for r in references)
    assert all(u.location.file == "refs.json" for u in unparsed)
    parse_csl_yaml(text, "refs.yaml")  # JSON is YAML


@_SETTINGS
@given(LATEX, LATEX)
def test_any_latex_project_is_read(main_text: str, included: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "main.tex").write_text(main_text + "\\input{part}", encoding="utf-8")
        (root / "part.tex").write_text(included, encoding="utf-8")
        extraction = extract_latex(root / "main.tex")
        for citation in extraction.citations:
            location = citation.location
            assert location is not None
            assert Path(location.file).name in {"main.tex", "part.tex"}


def _run(files: dict[str, str], argv: list[str]) -> tuple[int, str]:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        for name, text in files.items():
            (root / name).write_text(text, encoding="utf-8")
        out = root / "out.json"
        code = main([*(str(root / a) if a in files else a for a in argv), "-o", str(out)])
        if code in (0, 1):
            assert json.loads(out.read_text(encoding="utf-8"))["schema_version"] == 1
        return code, folder


@_PROCESS_SETTINGS
@given(BIBTEX)
def test_any_bibliography_is_verified_to_a_report(text: str) -> None:
    code, _ = _run({"refs.bib": text}, ["verify", "refs.bib", "-f", "json"])
    assert code in EXIT_CODES


@_PROCESS_SETTINGS
@given(MARKDOWN)
def test_any_markdown_document_is_checked_to_a_report(text: str) -> None:
    files = {
        "doc.md": "---\nbibliography: refs.bib\n---\n\n" + text,
        "refs.bib": "@misc{a, title = {A}, year = 2020}\n@misc{b, title = {B}}\n",
    }
    code, _ = _run(files, ["check", "doc.md", "-f", "json"])
    assert code in EXIT_CODES


@_PROCESS_SETTINGS
@given(LATEX)
def test_any_latex_document_is_checked_to_a_report(text: str) -> None:
    files = {
        "main.tex": text + "\n\\bibliography{refs}",
        "refs.bib": "@misc{a, title = {A}, year = 2020}\n@misc{b, title = {B}}\n",
    }
    code, _ = _run(files, ["latex", "main.tex", "-f", "json"])
    assert code in EXIT_CODES
