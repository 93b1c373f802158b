"""Several citations of one key on one line (a Markdown paragraph is one line) and in one
sentence, some of claims their source supports and some of claims it contradicts, generated
(hypothesis): every output marks each citation with its own verdict — the draft's HTML, the
REVIEW-CITES.md row with its claim, the LaTeX draft's margin notes — as the JSON report gives
it by the citation's identity, never another citation's of the same key and line."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from tempfile import TemporaryDirectory

import pymupdf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.cli import main
from tests.conftest import requires_latex, run_pandoc
from tests.paths import REPO

SOURCE = (
    "Drug X was tested on mice in a controlled trial. "
    "Drug X did not reduce mortality in the treated mice.\n"
)
SUPPORTED = "Drug X was tested on mice [@a]."
CONTRADICTED = "Drug X reduced mortality in the treated mice [@a]."
_MARK = re.compile(r'data-citecheck="(\w+)"><span\s+class="citation"')


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    sentences=st.lists(st.sampled_from([SUPPORTED, CONTRADICTED]), min_size=2, max_size=4),
    shared=st.booleans(),
)
def test_each_citation_of_a_key_on_one_line_keeps_its_own_verdict(
    sentences: list[str], shared: bool, tmp_path: Path
) -> None:
    (tmp_path / "sources").mkdir(exist_ok=True)
    (tmp_path / "sources" / "a.txt").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "refs.bib").write_text(
        "@article{a, title={Drug X in mice}, author={Doe, Jane}, journal={J}, year={2020}}\n",
        encoding="utf-8",
    )
    body = " ".join(sentences)
    if shared:  # and two in one sentence: one claim, one verdict for both
        body += " Drug X was tested on mice [@a] in a controlled trial [@a]."
    (tmp_path / "doc.md").write_text(f"---\nbibliography: refs.bib\n---\n\n{body}\n")
    done = run_pandoc(
        "doc.md",
        "--filter",
        "citecheck",
        *("-M", "citecheck.ground=true", "-M", "citecheck.judge=local"),
        *("-M", "citecheck.verify=false", "-M", "citecheck.report=r.json"),
        "-t",
        "html",
        cwd=tmp_path,
    )
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    verdicts = [c["grounding"]["status"] for c in report["citations"]]
    assert verdicts[: len(sentences)] == [
        "supported" if s == SUPPORTED else "unsupported" for s in sentences
    ]
    marks = [m if m in ("supported", "unsupported") else "" for m in _MARK.findall(done.stdout)]
    assert marks == [v if v in ("supported", "unsupported") else "" for v in verdicts]
    claims = {c["id"]: c["claim"] for c in report["citations"]}
    review_file = tmp_path / "REVIEW-CITES.md"
    grounded = [
        "--no-verify",
        "--ground",
        "--judge",
        "local",
        "--sources",
        str(tmp_path / "sources"),
    ]
    main(["check", str(tmp_path / "doc.md"), *grounded, "-o", str(review_file)])
    review = review_file.read_text(encoding="utf-8")
    for item in report["findings"]:
        if item["kind"] == "unsupported":
            assert item["citation"] is not None
            assert claims[item["citation"]].startswith("Drug X reduced")
    assert "tested on mice [@a].”) |" not in review.split("## Counts")[0]
    sarif_file = tmp_path / "r.sarif"
    main(["check", str(tmp_path / "doc.md"), *grounded, "-o", str(sarif_file)])
    results = json.loads(sarif_file.read_text(encoding="utf-8"))["runs"][0]["results"]
    unsupported = [r["properties"] for r in results if r["ruleId"] == "unsupported"]
    assert len(unsupported) == verdicts.count("unsupported")
    assert all(p["claim"].startswith("Drug X reduced") for p in unsupported)
    assert len({p["citation"] for p in unsupported}) == len(unsupported)


def test_an_undefined_key_is_said_at_each_of_its_citations(tmp_path: Path) -> None:
    (tmp_path / "doc.md").write_text("One [@ghost]. Two [@ghost].\n", encoding="utf-8")
    run_pandoc(
        "doc.md", "--filter", "citecheck", "-M", "citecheck.report=r.json", "-t", "html",
        cwd=tmp_path,
    )  # fmt: skip
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    named = [f["citation"] for f in report["findings"] if f["kind"] == "undefined"]
    assert named == [c["id"] for c in report["citations"]]


_TEX_SUPPORTED = "Drug X was tested on mice \\cite{a}."
_TEX_CONTRADICTED = "Drug X reduced mortality in the treated mice \\cite{a}."


@requires_latex
@settings(max_examples=6, deadline=None)
@given(
    sentences=st.lists(
        st.sampled_from([_TEX_SUPPORTED, _TEX_CONTRADICTED]), min_size=2, max_size=4
    ),
    in_chapter=st.booleans(),
)
def test_latex_notes_mark_each_citation_of_a_key_on_one_line_by_its_own_verdict(
    sentences: list[str], in_chapter: bool
) -> None:
    """The same paragraph in LaTeX (one line, in the main file or an `\\input` chapter), built
    with the latexmk hook's verdict file: a margin note beside each contradicted citation and
    none beside a supported one."""
    with TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "sources").mkdir()
        (folder / "sources" / "a.txt").write_text(SOURCE, encoding="utf-8")
        (folder / "citecheck.toml").write_text(
            'verify = false\nground = true\njudge = "local"\nsources = "sources"\n'
        )
        body = " ".join(sentences) + "\n"
        if in_chapter:
            (folder / "chapter.tex").write_text(f"% a chapter\n{body}", encoding="utf-8")
            body = "\\input{chapter}\n"
        (folder / "main.tex").write_text(
            "\\documentclass{article}\n\\usepackage[draft]{citecheck}\n\\begin{document}\n"
            f"{body}\\begin{{thebibliography}}{{9}}\n"
            "\\bibitem{a} J. Doe. Drug X in mice. J, 2020.\n"
            "\\end{thebibliography}\n\\end{document}\n",
            encoding="utf-8",
        )
        main(["latexmk-hook", str(folder / "main.tex")])
        verdicts = (folder / "main.citecheck.tex").read_text(encoding="utf-8")
        environment = dict(os.environ, TEXINPUTS=f"{REPO / 'citecore' / 'latexmk'}//:")
        for _ in range(2):
            built = subprocess.run(
                ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "main.tex"],
                cwd=folder, env=environment, capture_output=True, text=True,
                errors="replace", timeout=300, check=False,
            )  # fmt: skip
            assert built.returncode == 0, built.stdout[-1500:]
        with pymupdf.open(folder / "main.pdf") as pdf:
            # A note set inline may break a word at the line's end ("unsup-\nported").
            shown = re.sub(r"-\n", "", "".join(page.get_text() for page in pdf))
    contradicted = sentences.count(_TEX_CONTRADICTED)
    assert shown.count("citecheck:") == contradicted, verdicts
    assert shown.count("unsupported") == contradicted, verdicts
