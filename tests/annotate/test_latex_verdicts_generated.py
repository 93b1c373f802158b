"""The verdict file under real pdflatex, on generated keys, citation forms and messages
(hypothesis): whatever a key or a registry's text holds — LaTeX specials, Greek, accents, CJK —
the writer's build still succeeds, and every flagged key of every citation gets its note."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from tempfile import TemporaryDirectory

import pymupdf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.annotate.latex_verdicts import render_verdicts
from citecore.model import Bibliography, CheckResult, Finding, FindingKind, Severity
from tests.conftest import requires_latex
from tests.paths import REPO

pytestmark = requires_latex

KEY = st.from_regex(r"[A-Za-z][A-Za-z0-9:_\-./+]{0,10}", fullmatch=True)
MESSAGE = st.lists(
    st.sampled_from(
        ["title", "differs", "\\", "{", "}", "$", "&", "#", "^", "_", "%", "~", "é", "ß",
         "α-synuclein", "Ω", "≤", "—", "“quoted”", "中文", "–", "\u00a0", "´", "`", "'", "<>"]
    ),
    min_size=1,
    max_size=8,
).map(" ".join)  # fmt: skip


@st.composite
def papers(draw: st.DrawFn) -> tuple[str, str, int]:
    """(main.tex, the verdict file, how many notes it must show)."""
    keys = draw(st.lists(KEY, min_size=1, max_size=4, unique=True))
    flagged = draw(st.sets(st.sampled_from(keys), min_size=1))
    findings = tuple(
        Finding(FindingKind.MISMATCH, Severity.ERROR, draw(MESSAGE), key) for key in flagged
    )
    paragraphs, notes = [], 0
    for _ in range(draw(st.integers(1, 3))):
        cited = draw(st.lists(st.sampled_from(keys), min_size=1, max_size=2, unique=True))
        # Spaces before a key are ignored by LaTeX, so by the notes; after one they are part of
        # the key (`\citep{a ,b}` is "[?]" in LaTeX too).
        spaced = draw(st.booleans())
        joined = (", " if spaced else ",").join(cited)
        command = draw(st.sampled_from(["\\citep", "\\citet", "\\citep[p.~3]", "\\cite"]))
        paragraphs.append(f"A claim {command}{{{' ' * spaced}{joined}}}.\n")
        notes += sum(key in flagged for key in cited)
    items = "\n".join(f"\\bibitem{{{key}}} An Author. A work. 2020." for key in keys)
    main = (
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[numbers]{natbib}\n"
        "\\usepackage[draft]{citecheck}\n\\begin{document}\n"
        + "\n".join(paragraphs)
        + f"\n\\begin{{thebibliography}}{{9}}\n{items}\n\\end{{thebibliography}}\n"
        + "\\end{document}\n"
    )
    result = CheckResult(("main.tex",), Bibliography(), (), {}, findings)
    return main, render_verdicts(result), notes


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(papers())
def test_the_build_succeeds_and_each_flagged_citation_gets_its_note(
    paper: tuple[str, str, int],
) -> None:
    main, verdicts, notes = paper
    with TemporaryDirectory() as folder:
        (Path(folder) / "main.tex").write_text(main, encoding="utf-8")
        (Path(folder) / "main.citecheck.tex").write_text(verdicts, encoding="utf-8")
        environment = dict(os.environ, TEXINPUTS=f"{REPO / 'citecore' / 'latexmk'}//:")
        for _ in range(2):  # natbib resolves its numbers on the second run
            completed = subprocess.run(
                ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"],
                cwd=folder, env=environment, capture_output=True, text=True,
                errors="replace", timeout=300, check=False,
            )  # fmt: skip
            assert completed.returncode == 0, completed.stdout[-1500:] + "\n" + verdicts
        with pymupdf.open(Path(folder) / "main.pdf") as pdf:
            shown = sum(page.get_text().count("citecheck:") for page in pdf)
    assert shown == notes, verdicts
