"""The filter under the real pandoc binary: warnings, reports, annotations, strict mode."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

import citecore.filter.process as pandoc_filter
import citecore.filter.run as citecheck_filter
from citecore.filter.run import run_filter
from citecore.pandoc.reader import read_markdown
from tests.conftest import CASES, REPO, requires_latex, run_pandoc
from tests.pandoc_json import render_ast

FILTER_SCRIPT = REPO / "filters" / "citecheck.py"


class _Spans(HTMLParser):
    """Collects the citecheck spans of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.spans: list[dict[str, str | None]] = []
        self.styles = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "span" and "citecheck" in (attributes.get("class") or "").split():
            self.spans.append(attributes)

    def handle_data(self, data: str) -> None:
        if ".citecheck" in data:
            self.styles += data


def test_warnings_name_file_line_and_key(problems: Path) -> None:
    completed = run_pandoc("paper.md", "--filter", "citecheck", "-t", "html", cwd=problems)
    lines = [line for line in completed.stderr.splitlines() if "citecheck:" in line]
    assert lines == [
        "[WARNING] citecheck: paper.md:7: [undefined] ghost2020: "
        "cited key is not in any bibliography",
        "[WARNING] citecheck: paper.md:8: [undefined] ghost2020: "
        "cited key is not in any bibliography",
        "[WARNING] citecheck: refs.bib:9: [unparsed] broken2019: "
        "this entry could not be read: field 'year' has no value",
        "[WARNING] citecheck: offline: 2 of 3 references were not checked against the "
        "registries (nothing cached for them); build again with -M citecheck.offline=false or "
        "without CITECHECK_OFFLINE to check them",
    ]


def test_the_filter_script_is_the_same_filter(problems: Path) -> None:
    completed = run_pandoc("paper.md", "--filter", str(FILTER_SCRIPT), "-t", "html", cwd=problems)
    assert "paper.md:7: [undefined] ghost2020" in completed.stderr


def test_html_annotation(problems: Path) -> None:
    completed = run_pandoc(
        "paper.md", "--filter", "citecheck", "--citeproc", "-s", "-t", "html", cwd=problems
    )
    parser = _Spans()
    parser.feed(completed.stdout)
    classes = [span["class"] for span in parser.spans]
    assert classes == [
        "citecheck citecheck-error citecheck-undefined",
        "citecheck citecheck-error citecheck-unparsed",
        "citecheck citecheck-error citecheck-unparsed",  # the heading's citation
        "citecheck citecheck-error citecheck-undefined",  # the footnote's, set at the end
    ]
    assert "cited key is not in any bibliography" in (parser.spans[0]["title"] or "")
    assert ".citecheck-error" in parser.styles


def test_docx_comments(problems: Path) -> None:
    run_pandoc("paper.md", "--filter", "citecheck", "-o", "paper.docx", cwd=problems)
    with zipfile.ZipFile(problems / "paper.docx") as docx:
        comments = docx.read("word/comments.xml").decode()
    texts = re.findall(r"<w:t[^>]*>([^<]*)</w:t>", comments)
    assert len(re.findall(r"<w:comment ", comments)) == 4
    assert all(t.startswith("citecheck (error)") for t in texts)
    assert 'w:author="citecheck"' in comments


@requires_latex
def test_pdf_margin_notes(problems: Path) -> None:
    run_pandoc("paper.md", "--filter", "citecheck", "--citeproc", "-o", "paper.pdf", cwd=problems)
    text = subprocess.run(
        ["pdftotext", "-layout", str(problems / "paper.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert text.count("citecheck:") == 3
    assert "undefined: cited key is not in any" in " ".join(text.split())


def test_latex_keeps_the_writers_header_includes(problems: Path) -> None:
    paper = problems / "paper.md"
    paper.write_text(
        paper.read_text().replace("---\n\n", "header-includes: \\usepackage{mine}\n---\n\n", 1)
    )
    latex = run_pandoc("paper.md", "--filter", "citecheck", "-s", "-t", "latex", cwd=problems)
    assert "\\usepackage{mine}" in latex.stdout
    assert "\\DeclareRobustCommand{\\citecheckNote}" in latex.stdout
    assert "\\citecheckNote{error}" in latex.stdout
    assert "\\citecheckInlineNote{error}" in latex.stdout  # the one in the footnote
    assert "marginparwidth=2in" in latex.stdout
    heading = re.search(r"\\section\{On.*?heirs\}", latex.stdout, re.DOTALL)
    assert heading is not None
    assert "citecheck" not in heading.group(0)  # a note in a heading would go into the TOC


def test_other_formats_are_unchanged(problems: Path) -> None:
    plain = run_pandoc("paper.md", "-t", "plain", cwd=problems).stdout
    filtered = run_pandoc("paper.md", "--filter", "citecheck", "-t", "plain", cwd=problems)
    assert filtered.stdout == plain


def test_annotate_false_leaves_the_document_alone(problems: Path) -> None:
    plain = run_pandoc("paper.md", "-t", "html", cwd=problems).stdout
    quiet = run_pandoc(
        "paper.md",
        "--filter",
        "citecheck",
        "-M",
        "citecheck.annotate=false",
        "-t",
        "html",
        cwd=problems,
    )
    assert quiet.stdout == plain


def test_strict_mode_fails_the_build_after_writing_the_report(problems: Path) -> None:
    completed = run_pandoc(
        "paper.md",
        "--filter",
        "citecheck",
        "-o",
        "paper.html",
        cwd=problems,
        env={"CITECHECK_STRICT": "1", "CITECHECK_REPORT": "REVIEW-CITES.md"},
        check=False,
    )
    assert completed.returncode != 0
    assert "[ERROR] citecheck: paper.md:7: [undefined] ghost2020" in completed.stderr
    assert "3 citation problem(s) fail this build" in completed.stderr
    assert not (problems / "paper.html").exists()
    report = (problems / "REVIEW-CITES.md").read_text()
    assert "| ❌ error | `ghost2020` | paper.md:7, paper.md:8 | `undefined`" in report


def test_fail_on_from_metadata(problems: Path) -> None:
    completed = run_pandoc(
        "paper.md",
        "--filter",
        "citecheck",
        "-M",
        "citecheck.fail-on=unparsed",
        "-t",
        "html",
        cwd=problems,
        check=False,
    )
    assert completed.returncode != 0
    assert "1 citation problem(s) fail this build" in completed.stderr


def test_json_report_from_metadata(problems: Path) -> None:
    run_pandoc(
        "paper.md",
        "--filter",
        "citecheck",
        "-M",
        "citecheck.report=out/report.json",
        "-M",
        "citecheck.format=json",
        "-t",
        "html",
        cwd=problems,
    )
    report = json.loads((problems / "out" / "report.json").read_text())
    assert report["summary"]["citations"] == 6
    assert {r["key"]: r["verdict"] for r in report["references"]} == {
        "lecun2015deep": "unverifiable",  # offline, nothing cached
        "he2016deep": "unverifiable",
        "broken2019": "unparsed",
    }


def test_missing_bibliography_is_a_warning_unless_strict(problems: Path) -> None:
    (problems / "refs.bib").unlink()
    lenient = run_pandoc("paper.md", "--filter", "citecheck", "-t", "html", cwd=problems)
    said = "paper.md:3: [missing_bibliography] bibliography 'refs.bib' not found"
    assert f"[WARNING] citecheck: {said}" in lenient.stderr
    assert "[undefined] broken2019" in lenient.stderr  # the rest is still checked
    strict = run_pandoc(
        "paper.md",
        "--filter",
        "citecheck",
        "-t",
        "html",
        cwd=problems,
        env={"CITECHECK_STRICT": "1"},
        check=False,
    )
    assert strict.returncode != 0
    assert f"[ERROR] citecheck: {said}" in strict.stderr


def test_bad_option_is_one_clear_line(problems: Path) -> None:
    """A typo in an option is one warning naming the option and the value; that option keeps
    its default and the rest is checked and annotated as usual."""
    completed = run_pandoc(
        "paper.md",
        "--filter",
        "citecheck",
        "-M",
        "citecheck.strict=perhaps",
        "-M",
        "citecheck.fail-on=undefind",
        "-M",
        "citecheck.format=bogus",
        "-t",
        "html",
        cwd=problems,
    )
    assert completed.returncode == 0
    lines = completed.stderr.splitlines()
    assert (
        "[WARNING] citecheck: paper.md: [bad_option] citecheck metadata: option strict: expected "
        "true or false, got 'perhaps'; ignored, so the option keeps its default" in lines
    )
    assert any("'undefind' (did you mean 'undefined'?)" in line for line in lines)
    assert any("unknown report format 'bogus'" in line for line in lines)
    assert any("[undefined]" in line for line in lines)  # checking went on
    assert "citecheck-undefined" in completed.stdout  # and annotating


def test_a_bad_option_fails_a_strict_build(problems: Path) -> None:
    completed = run_pandoc(
        "paper.md",
        "--filter",
        "citecheck",
        "-M",
        "citecheck.strict=true",
        "-M",
        "citecheck.format=bogus",
        "-t",
        "html",
        cwd=problems,
        check=False,
    )
    assert completed.returncode != 0
    assert "[ERROR] citecheck: paper.md: [bad_option] citecheck metadata: option format" in (
        completed.stderr
    )


def test_an_internal_error_does_not_break_a_lenient_build(problems: Path, tmp_path: Path) -> None:
    """A bug injected into the pipeline, inside the real pandoc run, through sitecustomize."""
    injector = tmp_path / "inject"
    injector.mkdir()
    (injector / "sitecustomize.py").write_text(
        "import citecore.filter.run\n"
        "def broken(*args, **kwargs):\n"
        "    raise RuntimeError('injected failure')\n"
        "citecore.filter.run.check_document = broken\n"
    )
    path = os.pathsep.join([str(injector), os.environ.get("PYTHONPATH", "")])
    lenient = run_pandoc(
        "paper.md", "--filter", "citecheck", "-t", "html", cwd=problems, env={"PYTHONPATH": path}
    )
    assert "internal error, citations not checked: RuntimeError: injected failure" in (
        lenient.stderr
    )
    assert "Deep networks learn representations" in lenient.stdout
    strict = run_pandoc(
        "paper.md",
        "--filter",
        "citecheck",
        "-t",
        "html",
        cwd=problems,
        env={"PYTHONPATH": path, "CITECHECK_STRICT": "1"},
        check=False,
    )
    assert strict.returncode != 0


def test_run_filter_in_process_survives_a_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise KeyError("boom")

    monkeypatch.setattr(citecheck_filter, "check_document", broken)
    doc = read_markdown(CASES / "problems" / "paper.md")
    stderr = io.StringIO()
    outcome = run_filter(doc, "html", stderr=stderr)
    assert outcome.exit_code == 0
    assert "internal error" in stderr.getvalue()


def test_main_checks_and_annotates_a_document_in_memory(
    problems: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(problems)  # the document's bibliography is found beside it
    doc = read_markdown(problems / "paper.md")
    assert pandoc_filter.main(doc, argv=["html"]) is doc
    assert "[undefined] ghost2020" in capsys.readouterr().err
    html = render_ast(doc, "html")
    assert 'class="citecheck citecheck-error citecheck-undefined"' in str(html)


def test_a_document_nothing_was_decorated_in_goes_back_as_pandoc_wrote_it(
    problems: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No dump to pay for, and nothing pandoc wrote is re-spelt: the very bytes go back.
    monkeypatch.chdir(problems)
    ast = run_pandoc("paper.md", "-t", "json", cwd=problems).stdout.encode()
    for output_format, decorated in (("plain", False), ("html", True)):
        out, err = io.StringIO(), io.StringIO()
        pandoc_filter.run_checked(ast, output_format, ["paper.md"], "key", out, err)
        assert (out.getvalue() == ast.decode()) is not decorated, output_format
        assert json.loads(out.getvalue())["blocks"], output_format
