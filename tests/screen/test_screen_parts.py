"""The parts of a screening run, each on its own and in-process: which submissions a venue's
folder or manifest holds, the state a killed run resumes from, the two halves of a submission's
check, the venue's table and the dealing of dumps into shards. The cluster runs of
`test_screen.py` show the whole; these show what each part promises a program chair."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from citecore.errors import InputError
from citecore.model import (
    Bibliography,
    CheckResult,
    Outage,
    ReferenceFlag,
    ReferenceResult,
    ReferenceVerdict,
)
from citecore.options import Options, resolve_options
from citecore.screen.reading import KnownVerdicts, SubmissionReading, read_submission
from citecore.screen.shards import deal_into_shards
from citecore.screen.state import ScreenState, submission_stamp
from citecore.screen.submissions import (
    Submission,
    SubmissionKind,
    find_submissions,
    read_manifest,
    submission_at,
)
from citecore.screen.summary import (
    COLUMNS,
    submission_row,
    summary_csv,
    summary_html,
    totals_of,
    unread_row,
)
from citecore.screen.tasks import (
    keyed_references,
    read_submissions,
    report_submission,
    report_submissions,
    verify_works,
)
from citecore.screen.works import work_key
from citecore.verify.registry import verdict_key

BIB = """@article{smith2020,
  author = {Smith, Jane and Doe, John},
  title = {A Study of Things},
  journal = {Journal of Studies},
  year = {2020},
  doi = {10.1234/studies.2020.1}
}
@book{roe1999,
  author = {Roe, Richard},
  title = {The Book of Roe},
  publisher = {Roe Press},
  year = {1999}
}
"""
MAIN_TEX = (
    "\\documentclass{article}\n\\begin{document}\nAs shown \\cite{smith2020}.\n"
    "\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n"
)
MARKDOWN = "---\nbibliography: refs.bib\n---\n\nThings were studied [@smith2020].\n"


def _venue(root: Path) -> Path:
    """A venue's folder with one submission of every kind, and things that are none."""
    venue = root / "venue"
    latex = venue / "paper-latex"
    (latex / "chapters").mkdir(parents=True)
    (latex / "main.tex").write_text(MAIN_TEX)
    (latex / "chapters" / "intro.tex").write_text("Intro \\cite{roe1999}.\n")
    (latex / "refs.bib").write_text(BIB)
    markdown = venue / "paper-md"
    markdown.mkdir()
    (markdown / "paper.md").write_text(MARKDOWN)
    (markdown / "refs.bib").write_text(BIB)
    (venue / "list.bib").write_text(BIB)
    (venue / "empty").mkdir()
    (venue / ".hidden").mkdir()
    (venue / "notes.docx").write_bytes(b"PK")  # nothing citecheck reads: not a submission
    return venue


def _options(root: Path, **layer: object) -> Options:
    return resolve_options({"verify": False, **layer}, folder=root)


# --- Which submissions a venue has -------------------------------------------------------


def test_a_venue_folder_holds_one_submission_per_entry_of_the_kind_its_files_say(
    tmp_path: Path,
) -> None:
    venue = _venue(tmp_path)
    found = {
        s.id: (s.kind, s.path.relative_to(venue).as_posix()) for s in find_submissions([venue])
    }
    assert found == {
        "empty": (SubmissionKind.NOTHING, "empty"),
        "list": (SubmissionKind.BIBLIOGRAPHY, "list.bib"),
        "paper-latex": (SubmissionKind.LATEX, "paper-latex/main.tex"),
        "paper-md": (SubmissionKind.MARKDOWN, "paper-md/paper.md"),
    }


def test_a_project_folder_is_read_from_its_main_file_not_a_chapter_or_its_bibliography(
    tmp_path: Path,
) -> None:
    venue = _venue(tmp_path)
    submission = submission_at(venue / "paper-latex")
    assert (submission.kind, submission.path.name) == (SubmissionKind.LATEX, "main.tex")
    with pytest.raises(InputError, match="not a PDF, LaTeX main file"):
        submission_at(venue / "paper-latex" / "chapters" / "intro.tex")


def test_the_same_name_twice_gets_two_ids(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "paper.bib").write_text(BIB)
    found = find_submissions([tmp_path / "a" / "paper.bib", tmp_path / "b" / "paper.bib"])
    assert [s.id for s in found] == ["paper", "paper-2"]


def test_an_id_is_made_safe_for_a_file_name(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "manifest.txt").write_text("Paper #12 / final\trefs.bib\n")
    (submission,) = find_submissions([], tmp_path / "manifest.txt")
    assert submission.id == "Paper_12_final"


def test_a_manifest_names_ids_skips_comments_and_reads_paths_beside_it(tmp_path: Path) -> None:
    venue = _venue(tmp_path)
    manifest = tmp_path / "manifest.tsv"
    manifest.write_text(
        "# submissions of the venue\n\n"
        "S-1\tvenue/paper-latex\n"
        "venue/list.bib\n"
        "S-3\tvenue/paper-md/paper.md\n"
    )
    found = read_manifest(manifest)
    assert [(s.id, s.kind) for s in found] == [
        ("S-1", SubmissionKind.LATEX),
        ("list", SubmissionKind.BIBLIOGRAPHY),
        ("S-3", SubmissionKind.MARKDOWN),
    ]
    assert found[0].path == (venue / "paper-latex" / "main.tex").resolve()


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("S-1\tmissing.pdf", "manifest.tsv:2: missing.pdf: no such file or folder"),
        ("S-1\tnotes.docx", "manifest.tsv:2: .*notes.docx: not a PDF"),
        ("S-1\tempty", "manifest.tsv:2: .*empty: no PDF, LaTeX main file"),
    ],
)
def test_a_bad_manifest_line_is_named_by_its_number(tmp_path: Path, line: str, says: str) -> None:
    (tmp_path / "notes.docx").write_bytes(b"PK")
    (tmp_path / "empty").mkdir()
    manifest = tmp_path / "manifest.tsv"
    manifest.write_text(f"# one\n{line}\n")
    with pytest.raises(InputError, match=says):
        read_manifest(manifest)


def test_an_unreadable_manifest_is_one_line(tmp_path: Path) -> None:
    manifest = tmp_path / "manifest.tsv"
    manifest.write_bytes(b"\xff\xfe\x00bad")
    with pytest.raises(InputError, match="cannot read the manifest"):
        read_manifest(manifest)


def test_a_path_that_is_not_there_is_refused_before_the_run(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="nowhere: no such file or folder"):
        find_submissions([tmp_path / "nowhere"])


# --- What a killed run resumes from ------------------------------------------------------


def test_verdicts_and_reports_survive_a_kill_and_a_cut_line_is_skipped(tmp_path: Path) -> None:
    state = ScreenState(tmp_path, resume=False)
    verified = ReferenceResult("smith2020", ReferenceVerdict.VERIFIED, sources=("crossref",))
    state.save_verdicts({"content-1": verified})
    state.save_report("S-1", "stamp-1", {"submission": "S-1", "references": 2})
    # A kill in the middle of writing the next line.
    with (tmp_path / ".citecheck-screen" / "verdicts.jsonl").open("a") as stream:
        stream.write('{"content": "content-2", "result": {"key": "x", "verd')
    resumed = ScreenState(tmp_path, resume=True)
    assert resumed.verdicts() == {"content-1": verified}
    assert resumed.reported() == {"S-1": ("stamp-1", {"submission": "S-1", "references": 2})}


def test_a_fresh_run_forgets_what_an_earlier_run_found(tmp_path: Path) -> None:
    state = ScreenState(tmp_path, resume=False)
    state.save_verdicts({"c": ReferenceResult("k", ReferenceVerdict.NOT_FOUND)})
    state.save_report("S-1", "s", {})
    fresh = ScreenState(tmp_path, resume=False)
    assert fresh.verdicts() == {}
    assert fresh.reported() == {}


def test_a_saved_line_of_the_wrong_shape_is_skipped(tmp_path: Path) -> None:
    state = ScreenState(tmp_path, resume=False)
    folder = tmp_path / ".citecheck-screen"
    (folder / "verdicts.jsonl").write_text('["a list"]\n{"content": "c"}\n{"result": {}}\n')
    (folder / "reports.jsonl").write_text('{"id": 3, "row": {}}\n{"id": "S", "row": "x"}\n')
    assert state.verdicts() == {}
    assert state.reported() == {}


def test_a_submission_is_stamped_again_when_any_file_of_its_project_changes(
    tmp_path: Path,
) -> None:
    venue = _venue(tmp_path)
    submission = submission_at(venue / "paper-latex")
    before = submission_stamp(submission)
    chapter = venue / "paper-latex" / "chapters" / "intro.tex"
    chapter.write_text("Intro \\cite{roe1999} and more.\n")
    os.utime(chapter, ns=(1, 1))
    assert submission_stamp(submission) != before
    listed = submission_at(venue / "list.bib")
    assert "list.bib:" in submission_stamp(listed)


# --- The two halves of a submission's check ----------------------------------------------


def test_the_first_half_collects_the_entries_a_document_cites(tmp_path: Path) -> None:
    venue = _venue(tmp_path)
    options = _options(venue)
    latex = read_submission(submission_at(venue / "paper-latex"), options)
    markdown = read_submission(submission_at(venue / "paper-md"), options)
    assert latex.error == "" and markdown.error == ""
    assert sorted(r.key for r in latex.references) == ["smith2020"]
    assert [r.key for r in markdown.references] == ["smith2020"]
    assert latex.bibliography is None  # read again in the second half


def test_the_first_half_reads_every_entry_of_a_bibliography_once(tmp_path: Path) -> None:
    venue = _venue(tmp_path)
    reading = read_submission(submission_at(venue / "list.bib"), _options(venue))
    assert sorted(r.key for r in reading.references) == ["roe1999", "smith2020"]
    assert reading.bibliography is not None


def test_a_damaged_submission_is_a_reason_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\n this is no PDF at all")
    reading = read_submission(submission_at(tmp_path / "broken.pdf"), _options(tmp_path))
    assert reading.references == ()
    assert reading.error.startswith(f"{tmp_path / 'broken.pdf'}: ")
    empty = read_submission(
        Submission("empty", tmp_path, SubmissionKind.NOTHING),
        _options(tmp_path),
    )
    assert "no PDF, LaTeX main file, Markdown document or bibliography" in empty.error


def test_known_verdicts_answer_each_reference_under_its_own_key(tmp_path: Path) -> None:
    venue = _venue(tmp_path)
    reading = read_submission(submission_at(venue / "list.bib"), _options(venue))
    smith = next(r for r in reading.references if r.key == "smith2020")
    roe = next(r for r in reading.references if r.key == "roe1999")
    judged = ReferenceResult("whatever-key-it-had", ReferenceVerdict.VERIFIED)
    outage = Outage((verdict_key(roe),), unreachable=("crossref",))
    known = KnownVerdicts({verdict_key(smith): judged}, outage)
    answers = known.verify(reading.references)
    assert answers == {"smith2020": judged}
    assert known.outage is not None
    assert (known.outage.unchecked, known.outage.unreachable) == (("roe1999",), ("crossref",))


def test_the_second_half_reports_with_the_verdicts_found_on_the_cluster(tmp_path: Path) -> None:
    venue = _venue(tmp_path)
    options = _options(venue, strict=True)
    reading = read_submission(submission_at(venue / "list.bib"), options)
    smith = next(r for r in reading.references if r.key == "smith2020")
    verdicts = {
        verdict_key(smith): ReferenceResult(
            "smith2020", ReferenceVerdict.VERIFIED, flags=frozenset({ReferenceFlag.RETRACTED})
        )
    }
    report = report_submission(reading, verdicts, None, options, "list/report.md")
    assert report.row["references"] == 2
    assert report.row["verified"] == 1
    assert report.row["retracted"] == 1
    assert report.row["report"] == "list/report.md"
    assert report.row["exit_status"] == 1  # as `citecheck verify --strict` exits on a retraction
    data = json.loads(report.json_report)
    verdict_of = {r["key"]: r["verdict"] for r in data["references"]}
    assert verdict_of == {"smith2020": "verified", "roe1999": "unchecked"}
    assert "smith2020" in report.markdown_report


def test_a_task_reads_keys_and_reports_a_group_of_submissions_as_each_alone(
    tmp_path: Path,
) -> None:
    # A venue of 20,000 submissions in groups of ten: 2,000 tasks a stage, not 20,000.
    venue = _venue(tmp_path)
    options = _options(venue, strict=True)
    group = [submission_at(venue / name) for name in ("list.bib", "paper-md", "paper-latex")]
    readings = read_submissions(group, options)
    assert readings == [read_submission(submission, options) for submission in group]
    keyed = keyed_references(readings)
    for reading, found in zip(readings, keyed, strict=True):
        assert [r for _, _, r in found] == list(reading.references)
        assert [c for c, _, _ in found] == [verdict_key(r) for r in reading.references]
        assert [w for _, w, _ in found] == [
            work_key(r) or verdict_key(r) for r in reading.references
        ]
    verdicts = [
        {c: ReferenceResult(r.key, ReferenceVerdict.VERIFIED) for c, _, r in found}
        for found in keyed
    ]
    names = [f"{s.id}/REVIEW-CITES.md" for s in group]
    reports = report_submissions(readings, verdicts, None, options, names)
    alone = [
        report_submission(reading, found, None, options, name)
        for reading, found, name in zip(readings, verdicts, names, strict=True)
    ]
    assert [r.row for r in reports] == [r.row for r in alone]
    assert [r.submission_id for r in reports] == [s.id for s in group]


def test_an_unread_submission_reports_its_reason_as_its_row(tmp_path: Path) -> None:
    submission = Submission("S-9", tmp_path / "x.pdf", SubmissionKind.PDF)
    reading = SubmissionReading(submission, error="x.pdf: not a PDF")
    report = report_submission(reading, {}, None, _options(tmp_path), "r.md")
    assert report.row["problem"] == "x.pdf: not a PDF"
    assert report.row["references"] == 0 and report.json_report == ""


def test_without_verification_the_cluster_has_nothing_to_look_up(tmp_path: Path) -> None:
    venue = _venue(tmp_path)
    reading = read_submission(submission_at(venue / "list.bib"), _options(venue))
    assert verify_works([reading.references], _options(venue), None) == ({}, None)


# --- The venue's table -------------------------------------------------------------------

ROWS = [
    {**dict.fromkeys(COLUMNS, 0), "submission": "S-1", "kind": "pdf", "references": 40,
     "verified": 37, "not_found": 2, "unverifiable": 1, "report": "S-1/REVIEW-CITES.md",
     "problem": ""},
    {**dict.fromkeys(COLUMNS, 0), "submission": "S-<2>", "kind": "latex", "references": 12,
     "verified": 12, "report": "S-2/REVIEW-CITES.md", "problem": ""},
]  # fmt: skip


def test_the_totals_sum_every_count_and_name_the_unread(tmp_path: Path) -> None:
    unread = unread_row(Submission("S-3", tmp_path, SubmissionKind.NOTHING), "nothing to read")
    totals = totals_of([*ROWS, unread])
    assert totals["submissions"] == 3
    assert (totals["references"], totals["verified"], totals["not_found"]) == (52, 49, 2)
    assert totals["unread"] == 1


def test_the_csv_has_one_header_and_a_line_per_submission() -> None:
    rows = list(csv.DictReader(io.StringIO(summary_csv([{**ROWS[0], "extra": "x"}, ROWS[1]]))))
    assert [r["submission"] for r in rows] == ["S-1", "S-<2>"]
    assert list(rows[0]) == list(COLUMNS)
    assert rows[0]["not_found"] == "2"


def test_the_page_escapes_what_submissions_are_called_and_flags_accusations() -> None:
    page = summary_html(ROWS, totals_of(ROWS), "Venue <2026>")
    assert "<title>Venue &lt;2026&gt;</title>" in page
    assert "S-&lt;2&gt;" in page and "S-<2>" not in page
    assert '<td class="flag" data-value="2">2</td>' in page  # S-1's two not_found
    assert '<a href="S-1/REVIEW-CITES.md">report</a>' in page
    assert "http" not in page.split("<script>")[0]  # self-contained: nothing fetched


def test_a_row_counts_unchecked_verdicts_apart_from_accusations(tmp_path: Path) -> None:
    result = CheckResult(
        ("refs.bib",),
        Bibliography(),
        (),
        {
            "a": ReferenceResult("a", ReferenceVerdict.VERIFIED),
            "b": ReferenceResult("b", ReferenceVerdict.ERROR),
            "c": ReferenceResult("c", ReferenceVerdict.UNVERIFIABLE),
            "d": ReferenceResult("d", ReferenceVerdict.MISMATCH),
            "e": ReferenceResult("e", ReferenceVerdict.UNPARSED),
        },
        (),
    )
    row = submission_row(Submission("S", tmp_path, SubmissionKind.BIBLIOGRAPHY), result, "r.md")
    assert (row["verified"], row["unverifiable"], row["mismatch"], row["unparsed"]) == (1, 2, 1, 1)
    assert row["not_found"] == 0


# --- Dumps dealt into shards -------------------------------------------------------------


def test_dumps_are_dealt_into_shards_of_about_equal_size_in_their_order(tmp_path: Path) -> None:
    sizes = [900, 100, 500, 400, 300, 200, 600]
    dumps = []
    for number, size in enumerate(sizes):
        dump = tmp_path / f"part-{number}.jsonl.gz"
        dump.write_bytes(b"x" * size)
        dumps.append(dump)
    groups = deal_into_shards(dumps, 3)
    weights = [sum(p.stat().st_size for p in group) for group in groups]
    # Largest first, each to the lightest shard: none exceeds an equal share by more than the
    # largest dump.
    assert len(groups) == 3
    assert max(weights) <= sum(sizes) / 3 + max(sizes)
    assert max(weights) - min(weights) <= max(sizes)
    assert sorted(p for group in groups for p in group) == sorted(dumps)
    for group in groups:
        assert group == sorted(group, key=dumps.index)
    assert len(deal_into_shards(dumps[:2], 8)) == 2  # never an empty shard
    assert deal_into_shards(dumps, 0) == [dumps]


def test_a_local_cluster_starts_where_another_holds_the_dashboards_port() -> None:
    """Dask's scheduler serves HTTP on 8787 unless told otherwise; a machine running another
    cluster (or another test run) holds it, and the warning that follows fails a strict run."""
    import socket
    import warnings

    from citecore.screen.cluster import cluster_client

    holder = socket.socket()
    try:
        holder.bind(("0.0.0.0", 8787))
        holder.listen()
    except OSError:
        pass  # already held: all the better for this test
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            with cluster_client("", 1) as client:
                assert client.submit(sum, [40, 2]).result() == 42
    finally:
        holder.close()
