"""Several citations of one key on one line (a Markdown paragraph is one line) and in one
sentence, some of claims their source supports and some of claims it contradicts, generated
(hypothesis): every output marks each citation with its own verdict — the draft's HTML, the
REVIEW-CITES.md row with its claim — as the JSON report gives it by the citation's identity,
never another citation's of the same key and line."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.cli import main
from tests.conftest import run_pandoc

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


def test_an_undefined_key_is_said_at_each_of_its_citations(tmp_path: Path) -> None:
    (tmp_path / "doc.md").write_text("One [@ghost]. Two [@ghost].\n", encoding="utf-8")
    run_pandoc(
        "doc.md", "--filter", "citecheck", "-M", "citecheck.report=r.json", "-t", "html",
        cwd=tmp_path,
    )  # fmt: skip
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    named = [f["citation"] for f in report["findings"] if f["kind"] == "undefined"]
    assert named == [c["id"] for c in report["citations"]]
