"""`citecheck screen` on a real local Dask cluster against the registry world: the verdicts of
the single-machine commands, each work fetched once, one rate for the whole cluster, a killed
run resumed, and unreadable submissions reported without stopping the run."""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.cli import main
from citecore.errors import InputError
from citecore.model import Source
from citecore.options import resolve_options
from citecore.registries.settings import rate_variables
from citecore.screen.cluster import cluster_client
from citecore.screen.gate import RateBook
from citecore.screen.run import ScreenSettings, screen
from citecore.screen.submissions import find_submissions, read_manifest
from tests.emulator import RegistryEmulator
from tests.hallmark import _entries
from tests.kill_resume import run_environment
from tests.screen.venue import CITECHECK_ENTRY, citecheck_run, report_verdicts, write_venue
from tests.world import World


@pytest.fixture
def world() -> Iterator[RegistryEmulator]:
    with RegistryEmulator(strict=False, world=World.load()) as emulator:
        yield emulator


def test_screen_gives_the_verdicts_of_the_single_machine_commands(
    world: RegistryEmulator, tmp_path: Path
) -> None:
    submissions = write_venue(tmp_path, papers=5, per_paper=15)
    environment = run_environment(world, tmp_path / "cache")
    out = tmp_path / "out"
    run = citecheck_run(["screen", str(submissions), "-o", str(out), "--workers", "2"], environment)
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    exits = {}
    for n in range(5):
        single = tmp_path / f"single{n}.json"
        verify = citecheck_run(
            ["verify", str(submissions / f"paper{n}.bib"), "-o", str(single)], environment
        )
        assert verify.returncode in (0, 1), verify.stderr
        exits[f"paper{n}"] = verify.returncode
        assert report_verdicts(out / f"paper{n}" / "report.json") == report_verdicts(single)
    essay = tmp_path / "essay.json"
    citecheck_run(["check", str(submissions / "essay" / "essay.md"), "-o", str(essay)], environment)
    assert report_verdicts(out / "essay" / "report.json") == report_verdicts(essay)
    thesis = tmp_path / "thesis.json"
    citecheck_run(
        ["latex", str(submissions / "thesis" / "main.tex"), "-o", str(thesis)], environment
    )
    assert report_verdicts(out / "thesis" / "report.json") == report_verdicts(thesis)
    assert (out / "paper0" / "REVIEW-CITES.md").read_text(encoding="utf-8").startswith("#")

    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    rows = {row["submission"]: row for row in summary["submissions"]}
    assert set(rows) == {"paper0", "paper1", "paper2", "paper3", "paper4", "essay", "thesis"}
    paper0 = Counter(report_verdicts(out / "paper0" / "report.json").values())
    assert rows["paper0"]["references"] == 15
    assert rows["paper0"]["not_found"] == paper0["not_found"]
    assert rows["paper0"]["verified"] == paper0["verified"]
    assert rows["essay"]["references"] == 6  # every entry of its bibliography is reported
    assert {k: rows[k]["exit_status"] for k in exits} == exits  # as `verify` exits
    failing = citecheck_run(
        ["screen", str(submissions), "-o", str(out), "--fail-on", "not_found"], environment
    )
    assert failing.returncode == (1 if any(r["not_found"] for r in rows.values()) else 0)
    with (out / "summary.csv").open(encoding="utf-8") as stream:
        assert [r["submission"] for r in csv.DictReader(stream)] == list(rows)
    page = (out / "summary.html").read_text(encoding="utf-8")
    assert 'href="paper0/REVIEW-CITES.md"' in page and "http" not in page.split("<body>")[1]


def test_a_work_cited_by_every_submission_is_fetched_once(
    world: RegistryEmulator, tmp_path: Path
) -> None:
    shared = (
        "@article{vaswani, title = {Attention Is All You Need}, author = {Vaswani, Ashish},"
        " year = {2017}, doi = {10.48550/arXiv.1706.03762}}\n"
    )
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    for n in range(6):
        (submissions / f"p{n}.bib").write_text(shared.replace("vaswani", f"key{n}"))
    environment = run_environment(world, tmp_path / "cache")
    run = citecheck_run(["screen", str(submissions), "-o", str(tmp_path / "out")], environment)
    assert run.returncode == 0, run.stderr
    assert "6 references: 6 distinct, naming 1 works" in run.stderr
    asked = Counter(key for _, key in world.log)
    assert asked and max(asked.values()) == 1, asked  # no request sent twice


def test_one_rate_holds_for_the_whole_cluster(world: RegistryEmulator, tmp_path: Path) -> None:
    submissions = write_venue(tmp_path, papers=4, per_paper=12, seed=3)
    environment = run_environment(world, tmp_path / "cache")
    rate = 4.0  # slow enough that the rate, not the work, sets the pace
    for source in Source:
        variable, _ = rate_variables(source)
        environment[variable] = str(rate)
    run = citecheck_run(
        ["screen", str(submissions), "-o", str(tmp_path / "out"), "--workers", "2"], environment
    )
    assert run.returncode == 0, run.stderr
    paths = [json.loads(key)[0] for _, key in world.log]
    # Europe PMC, arXiv and DBLP title searches: a path of their own each.
    for path in ("/europepmc/webservices/rest/search", "/api/query", "/search/publ/api"):
        times = sorted(t for (t, _), p in zip(world.log, paths, strict=True) if p == path)
        assert len(times) >= 10, (path, Counter(paths))
        # Two workers each keeping the rate on their own fit them into about half this time.
        assert times[-1] - times[0] >= 0.95 * (len(times) - 1) / rate, (path, len(times))


def test_rate_book_spaces_every_booking_of_a_source() -> None:
    now = [100.0]
    book = RateBook(clock=lambda: now[0])
    waits = [book.reserve("arxiv", 1 / 3) for _ in range(4)]
    assert waits == pytest.approx([0.0, 3.0, 6.0, 9.0])
    assert book.reserve("crossref", 10.0) == 0.0  # another source, its own slots
    now[0] += 20.0
    assert book.reserve("arxiv", 1 / 3) == 0.0  # slots in the past are not waited for
    book.pause("arxiv", 30.0)
    assert book.reserve("arxiv", 1 / 3) == pytest.approx(30.0)


def test_a_killed_run_resumes_where_it_stopped(world: RegistryEmulator, tmp_path: Path) -> None:
    submissions = write_venue(tmp_path, papers=6, per_paper=20, seed=5)
    environment = run_environment(world, tmp_path / "cache")
    out = tmp_path / "out"
    # A first run killed once verdicts are being written.
    first = subprocess.Popen(
        [sys.executable, "-c", CITECHECK_ENTRY, "screen", str(submissions), "-o", str(out)],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    verdicts = out / ".citecheck-screen" / "verdicts.jsonl"
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and first.poll() is None:
        if verdicts.exists() and verdicts.stat().st_size > 0:
            break
        time.sleep(0.05)
    killed = first.poll() is None
    if killed:
        os.killpg(first.pid, signal.SIGKILL)
    first.communicate(timeout=60)
    asked_before = len(world.log)
    resumed = citecheck_run(["screen", str(submissions), "-o", str(out), "--resume"], environment)
    assert resumed.returncode == 0, resumed.stderr
    if killed:  # what the first run had judged is not judged again
        saved = re.search(r"(\d+) verdicts resumed", resumed.stderr)
        assert saved and int(saved.group(1)) > 0, resumed.stderr
    clean = tmp_path / "clean"
    again = citecheck_run(["screen", str(submissions), "-o", str(clean)], environment)
    assert again.returncode == 0, again.stderr
    for n in range(6):
        report = Path(f"paper{n}") / "report.json"
        assert report_verdicts(out / report) == report_verdicts(clean / report)
    assert (
        json.loads((out / "summary.json").read_text())["totals"]
        == json.loads((clean / "summary.json").read_text())["totals"]
    )
    assert asked_before > 0


def test_unreadable_submissions_are_rows_not_the_end_of_the_run(
    world: RegistryEmulator, tmp_path: Path
) -> None:
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "good.bib").write_text(_entries(3)[0], encoding="utf-8")
    (submissions / "scan.pdf").write_bytes(b"%PDF-1.4\n%\xe2\xe3 not really a PDF")
    broken = submissions / "broken"
    broken.mkdir()
    (broken / "paper.md").write_text("---\nbibliography: missing.bib\n---\n[@a]\n")
    (submissions / "notes.docx").write_bytes(b"PK\x03\x04")  # not a kind screen reads: skipped
    (submissions / "empty").mkdir()  # a submission folder with nothing in it: a row
    environment = run_environment(world, tmp_path / "cache")
    out = tmp_path / "out"
    run = citecheck_run(["screen", str(submissions), "-o", str(out)], environment)
    assert run.returncode == 1, run.stderr  # some submissions could not be read
    assert "Traceback" not in run.stderr
    rows = {
        r["submission"]: r
        for r in json.loads((out / "summary.json").read_text(encoding="utf-8"))["submissions"]
    }
    assert set(rows) == {"good", "scan", "broken", "empty"}
    assert "no PDF, LaTeX main file" in rows["empty"]["problem"]
    assert rows["good"]["references"] == 1 and not rows["good"]["problem"]
    assert "missing.bib" in rows["broken"]["problem"]
    assert rows["scan"]["problem"] or rows["scan"]["references"] == 0


def test_screen_usage_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["screen", "-o", str(tmp_path / "out")]) == 2
    assert "nothing to screen" in capsys.readouterr().err
    assert main(["screen", str(tmp_path / "nowhere"), "-o", str(tmp_path / "out")]) == 2
    assert "nowhere: no such file or folder" in capsys.readouterr().err
    manifest = tmp_path / "list.txt"
    manifest.write_text("paper.pdf\n")
    assert main(["screen", "--manifest", str(manifest), "-o", str(tmp_path / "out")]) == 2
    assert "list.txt:1: paper.pdf: no such file or folder" in capsys.readouterr().err


def test_a_worker_lost_mid_run_changes_no_verdict(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    submissions = write_venue(tmp_path, papers=4, per_paper=15, seed=7)
    with RegistryEmulator(strict=False, world=World.load()) as emulator:
        for name, value in run_environment(emulator, tmp_path / "cache").items():
            monkeypatch.setenv(name, value)
        monkeypatch.delenv("CITECHECK_OFFLINE", raising=False)
        options = resolve_options({}, base={"strict": True})
        found = find_submissions([submissions])
        with cluster_client("", 2) as client:
            workers = list(client.run(os.getpid).values())
            killed: list[int] = []

            lock = threading.Lock()  # the emulator answers requests on many threads

            def kill_a_worker(route: str) -> None:
                with lock:
                    if len(emulator.log) >= 25 and not killed:  # mid-way through the lookups
                        killed.append(workers[0])
                        os.kill(workers[0], signal.SIGKILL)

            emulator.faults = lambda route: kill_a_worker(route)
            outcome = screen(found, options, ScreenSettings(tmp_path / "out"), client)
        assert killed  # a worker was lost while the run went on
        emulator.faults = None
        clean = tmp_path / "clean"
        with cluster_client("", 2) as client:
            again = screen(found, options, ScreenSettings(clean), client)
    assert outcome.totals == again.totals
    for submission in found:
        report = Path(submission.id) / "report.json"
        assert report_verdicts(tmp_path / "out" / report) == report_verdicts(clean / report)


def test_what_an_outage_left_unchecked_is_asked_again_on_resume(
    world: RegistryEmulator, tmp_path: Path
) -> None:
    submissions = write_venue(tmp_path, papers=3, per_paper=10, seed=11)
    environment = run_environment(world, tmp_path / "cache")
    out = tmp_path / "out"
    # The first run has no network: every registry refuses the connection.
    offline = {k: "http://127.0.0.1:1" if k.endswith("_URL") else v for k, v in environment.items()}
    failed = citecheck_run(["screen", str(submissions), "-o", str(out)], offline)
    assert failed.returncode == 0, failed.stderr
    first = report_verdicts(out / "paper0" / "report.json")
    assert set(first.values()) <= {"error", "unverifiable"}, first
    resumed = citecheck_run(["screen", str(submissions), "-o", str(out), "--resume"], environment)
    assert resumed.returncode == 0, resumed.stderr
    assert "0 already reported" in resumed.stderr  # no report of the outage was kept
    clean = tmp_path / "clean"
    citecheck_run(["screen", str(submissions), "-o", str(clean)], environment)
    for n in range(3):
        report = Path(f"paper{n}") / "report.json"
        assert report_verdicts(out / report) == report_verdicts(clean / report)
        assert "error" not in report_verdicts(out / report).values()


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=st.text(alphabet=st.sampled_from("ab.\t\n #/\\é\x00 pdf"), max_size=60))
def test_any_manifest_is_read_or_refused_in_one_line(tmp_path: Path, text: str) -> None:
    manifest = tmp_path / "venue.tsv"
    manifest.write_text(text, encoding="utf-8")
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4")
    try:
        found = read_manifest(manifest)
    except InputError as exc:
        assert "venue.tsv" in str(exc) or "a.pdf" in str(exc)
        assert "\n" not in str(exc)
    else:
        assert all(s.path.exists() for s in found)
