"""LaTeX claim sentences against their oracle on generated paragraphs: sentences of words,
emphasis, bold, links, inline math, footnote-free text, each possibly citing with the natbib and
biblatex commands and their optional arguments, spread over lines; every citation's claim is
the readable text of the sentence that holds it, on the line where the command starts."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.extract.latex import extract_latex

EXAMPLES = int(os.environ.get("CITECHECK_FUZZ_EXAMPLES", "60"))
WORDS = ("models", "retrieval", "improves", "recall", "on", "three", "benchmarks", "citation",
         "graphs", "help", "readers", "verify", "claims", "quickly")  # fmt: skip
# (LaTeX, readable text)
MARKUP = (
    ("\\emph{robust}", "robust"),
    ("\\textbf{large}", "large"),
    ("\\href{https://example.org/a_b%20c}{the data}", "the data"),
    ("\\url{https://example.org}", "https://example.org"),
    ("\\textit{in situ}", "in situ"),
    ("Smith~et~al.", "Smith et al."),
)
COMMANDS = ("\\cite{{{k}}}", "\\citep{{{k}}}", "\\citet{{{k}}}", "\\parencite{{{k}}}",
            "\\citep[p.~4]{{{k}}}", "\\citep[see][]{{{k}}}", "\\autocite[12]{{{k}}}",
            "\\textcite{{{k}}}")  # fmt: skip


@st.composite
def paragraph(draw: st.DrawFn) -> tuple[str, dict[str, tuple[str, int]]]:
    """(LaTeX body, key → (claim, line)) for a paragraph of generated sentences."""
    latex_lines = [""]
    meant: dict[str, tuple[str, int]] = {}
    for index in range(draw(st.integers(1, 5))):
        pieces: list[tuple[str, str]] = []
        first = draw(st.sampled_from(("Models", "Retrieval", "Citation", "Readers")))
        pieces.append((first, first))
        for _ in range(draw(st.integers(2, 8))):
            pieces.append(draw(st.one_of(st.sampled_from(WORDS).map(lambda w: (w, w)),
                                         st.sampled_from(MARKUP))))  # fmt: skip
        last = draw(st.sampled_from(WORDS))  # "et al." ends no sentence: a word does
        pieces.append((last, last))
        cites = draw(st.booleans()) or index == 0
        key = f"key{index}"
        latex = " ".join(p for p, _ in pieces)
        readable = " ".join(r for _, r in pieces)
        if cites:
            command = draw(st.sampled_from(COMMANDS)).format(k=key)
            latex += " " + command
            readable += " […]"
        sentence = latex + "."
        # The sentence may start a new line, and may break inside itself before the citation.
        if draw(st.booleans()):
            latex_lines.append("")
        if cites and draw(st.booleans()):
            before, _, after = sentence.rpartition(" \\")
            latex_lines[-1] += (" " if latex_lines[-1] else "") + before
            latex_lines.append("\\" + after)
        else:
            latex_lines[-1] += (" " if latex_lines[-1] else "") + sentence
        if cites:
            meant[key] = (readable + ".", len(latex_lines))
    return "\n".join(latex_lines), meant


@settings(max_examples=EXAMPLES, deadline=None)
@given(paragraph())
def test_every_claim_is_its_sentence(generated: tuple[str, dict[str, tuple[str, int]]]) -> None:
    body, meant = generated
    with tempfile.TemporaryDirectory() as folder:
        main = Path(folder) / "main.tex"
        preamble = "\\documentclass{article}\n\\usepackage{natbib}\n\\begin{document}\n"
        main.write_text(preamble + body + "\n\\end{document}\n")
        extraction = extract_latex(main)
    found = {c.key: (c.claim, c.location.line) for c in extraction.citations}
    offset = preamble.count("\n")
    assert found == {k: (claim, line + offset) for k, (claim, line) in meant.items()}
