"""One filter run in-process, as a build sees it: the lines pandoc prints (all, or only what
fails with `quiet`), the report written where and as its name says, the exit status pandoc gets
(a strict build fails, a lenient one never does, whatever breaks), and every file the result
depends on — which a build server watches, so that changing any of them checks again."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import citecore.filter.run as filter_run
from citecore.filter.run import run_filter
from citecore.pandoc.reader import read_markdown
from citecore.registries.snapshot_build import build_snapshot

BIB = (
    "@article{known2020, title = {A Known Work}, author = {Doe, Jane}, journal = {J}, "
    "year = 2020}\n@article{future2999, title = {Later}, author = {Roe, R.}, journal = {J}, "
    "year = 2999}\n"
)


def _paper(folder: Path, metadata: str = "", body: str = "") -> Path:
    (folder / "refs.bib").write_text(BIB)
    (folder / "citecheck.toml").write_text("offline = true\n")
    paper = folder / "paper.md"
    paper.write_text(
        f"---\nbibliography: refs.bib\n{metadata}---\n\n"
        + (body or "Known [@known2020]. Later [@future2999]. Missing [@ghost].\n")
    )
    return paper


def _run(paper: Path, output_format: str = "html") -> tuple[filter_run.FilterOutcome, str]:
    stderr = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(paper.parent)
        outcome = run_filter(read_markdown(paper), output_format, [str(paper)], stderr=stderr)
    return outcome, stderr.getvalue()


def test_a_lenient_build_says_every_problem_and_goes_on(tmp_path: Path) -> None:
    outcome, said = _run(_paper(tmp_path))
    assert outcome.exit_code == 0
    assert "[undefined] ghost" in said and "[future_year] future2999" in said
    assert outcome.annotated >= 2  # the draft is decorated where problems are


def test_a_strict_build_fails_and_says_how_many_problems_fail_it(tmp_path: Path) -> None:
    outcome, said = _run(_paper(tmp_path, "citecheck:\n  strict: true\n"))
    assert outcome.exit_code == 1
    assert said.splitlines()[-1] == "[ERROR] citecheck: 1 citation problem(s) fail this build"
    assert outcome.annotated == 0  # a failing build writes no document to decorate


def test_quiet_says_only_what_fails(tmp_path: Path) -> None:
    paper = _paper(tmp_path, "citecheck:\n  quiet: true\n  fail-on: undefined\n")
    outcome, said = _run(paper)
    assert "[undefined] ghost" in said
    assert "future_year" not in said
    assert outcome.exit_code == 1


def test_the_report_is_written_in_the_format_its_name_says(tmp_path: Path) -> None:
    outcome, _ = _run(_paper(tmp_path, "citecheck:\n  report: out/cites.json\n"))
    ((written, text),) = outcome.reports
    assert written == (tmp_path / "out" / "cites.json").resolve()
    assert written.read_text() == text and text.lstrip().startswith("{")


def test_a_report_name_in_no_format_known_is_one_warning_and_no_report(tmp_path: Path) -> None:
    outcome, said = _run(_paper(tmp_path, "citecheck:\n  report: cites.docx\n"))
    assert outcome.reports == ()
    assert "[WARNING] citecheck: report not written:" in said
    assert not (tmp_path / "cites.docx").exists()
    assert outcome.exit_code == 0  # the build goes on


def test_a_final_version_is_not_decorated(tmp_path: Path) -> None:
    outcome, said = _run(_paper(tmp_path, "draft: false\n"))
    assert outcome.annotated == 0
    assert "[undefined] ghost" in said  # still checked and said


def test_the_result_depends_on_the_document_its_options_and_its_bibliography(
    tmp_path: Path,
) -> None:
    dump = tmp_path / "records.jsonl"
    dump.write_text(
        '{"source": "crossref", "title": "A Known Work", "doi": "10.5555/known", "year": 2020}\n'
    )
    snapshot = tmp_path / "records.sqlite3"
    build_snapshot([dump], snapshot, complete=False)
    outcome, _ = _run(_paper(tmp_path, f"citecheck:\n  snapshot: {snapshot}\n"))
    assert set(outcome.dependencies) >= {
        str(tmp_path / "paper.md"),
        str(tmp_path / "citecheck.toml"),
        str(snapshot),
    }
    assert any(d.endswith("refs.bib") for d in outcome.dependencies)


def test_a_run_that_could_not_check_depends_on_nothing(tmp_path: Path) -> None:
    """Nothing is recorded for a run that failed before checking, so a rebuild checks again
    once the snapshot it named is there."""
    paper = _paper(tmp_path, f"citecheck:\n  snapshot: {tmp_path / 'absent.sqlite3'}\n")
    outcome, said = _run(paper)
    assert "absent.sqlite3: no such snapshot" in said
    assert outcome.check is None and outcome.dependencies == ()


def test_grounding_depends_on_the_sources_a_key_could_have(tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    paper = _paper(
        tmp_path, "citecheck:\n  ground: true\n  judge: local\n", "Known [@known2020].\n"
    )
    outcome, _ = _run(paper)
    # Absent sources count too: adding sources/known2020.pdf must check the claim again.
    assert str(tmp_path / "sources" / "known2020.pdf") in outcome.dependencies


def test_a_bug_fails_a_strict_build_with_its_own_status(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object, **_kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(filter_run, "check_document", broken)
    monkeypatch.setenv("CITECHECK_STRICT", "1")
    outcome, said = _run(_paper(tmp_path))
    assert outcome.exit_code == 70
    assert said == "[ERROR] citecheck: internal error, citations not checked: RuntimeError: boom\n"
    monkeypatch.delenv("CITECHECK_STRICT")
    outcome, said = _run(_paper(tmp_path))
    assert outcome.exit_code == 0 and said.startswith("[WARNING] citecheck: internal error")


def test_a_missing_bibliography_is_a_warning_unless_strict(tmp_path: Path) -> None:
    paper = _paper(tmp_path)
    (tmp_path / "refs.bib").unlink()
    outcome, said = _run(paper)
    assert outcome.exit_code == 0
    assert "refs.bib" in said
    strict = _paper(tmp_path, "citecheck:\n  strict: true\n")
    (tmp_path / "refs.bib").unlink()
    outcome, said = _run(strict)
    assert outcome.exit_code == 1  # a failing finding, as `strict` decides for any other
    assert "refs.bib" in said
    assert outcome.check is not None and outcome.check.result.citations  # still checked


def test_an_input_that_cannot_be_read_is_skipped_for_line_numbers(tmp_path: Path) -> None:
    paper = _paper(tmp_path)
    stderr = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(tmp_path)
        outcome = run_filter(
            read_markdown(paper), "html", [str(tmp_path / "gone.md"), str(paper)], stderr=stderr
        )
    assert outcome.exit_code == 0
    assert "[undefined] ghost" in stderr.getvalue()
