"""`citecheck verify` end to end against the loopback emulator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.registries import arxiv, crossref, dblp, europepmc
from citecore.report.bibtex import annotate_bibtex, remove_verdict_fields
from tests.emulator import RegistryEmulator, Reply, dblp_no_hits, fixture

BIB = (
    "% a comment that must survive\r\n"
    "@article{sankar2014,\r\n"
    "  title = {Automated quantitative histology reveals vascular morphodynamics during\r\n"
    "           {Arabidopsis} hypocotyl secondary growth},\r\n"
    "  author = {Sankar, Martial and Nieminen, Kaisa and Ragni, Laura and others},\r\n"
    "  journal = {eLife}, year = {2014}, doi = {10.7554/eLife.01567}\r\n"
    "}\r\n"
    "@book{unknown1999, title = {A Book Nobody Indexed}, author = {Doe, Jane}, year = 1999}\r\n"
)


@pytest.fixture
def online(online: RegistryEmulator) -> RegistryEmulator:
    """The shared `online` emulator, answering for the eLife record too."""
    emulator = online
    emulator.serve(
        crossref.work_request("10.7554/elife.01567"),
        fixture("crossref/works_10.7554_elife.01567.json"),
    )
    return emulator


def serve_no_hits(emulator: RegistryEmulator) -> None:
    title = "A Book Nobody Indexed"
    emulator.serve(europepmc.search_request(title), fixture("europepmc/search_no_results.json"))
    emulator.serve(
        crossref.search_request(title, "Doe"),
        fixture("crossref/works_search_query.title_no_results.json"),
    )
    emulator.serve(
        arxiv.search_request(title), fixture("arxiv/query_id_list_0000.0000_no_results.xml")
    )
    emulator.serve(dblp.search_request(title), dblp_no_hits())


def test_bibtex_output_adds_fields_and_changes_nothing_else(
    online: RegistryEmulator, tmp_path: Path
) -> None:
    serve_no_hits(online)
    bib = tmp_path / "refs.bib"
    bib.write_bytes(BIB.encode("utf-8"))
    out = tmp_path / "checked.bib"
    assert main(["verify", str(bib), "-f", "bibtex", "-o", str(out)]) == 1  # not_found fails
    text = out.read_bytes().decode("utf-8")
    assert "@article{sankar2014,\r\n  cite_check = {verified},\r\n" in text
    assert "  cite_check_doi = {10.7554/elife.01567},\r\n" in text
    assert "@book{unknown1999,\r\n  cite_check = {not_found}," in text
    assert remove_verdict_fields(text) == BIB
    # A second run replaces the fields instead of repeating them.
    again = annotate_bibtex(text, {})
    assert again == BIB


def test_json_report_of_a_bibliography(online: RegistryEmulator, tmp_path: Path) -> None:
    serve_no_hits(online)
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    out = tmp_path / "report.json"
    main(["verify", str(bib), "-o", str(out), "-f", "json"])
    verdicts = {r["key"]: r["verdict"] for r in json.loads(out.read_text())["references"]}
    assert verdicts == {"sankar2014": "verified", "unknown1999": "not_found"}


def test_one_reference_from_the_command_line(
    online: RegistryEmulator, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "verify",
            "--doi",
            "https://doi.org/10.7554/eLife.01567",
            "--title",
            "Automated quantitative histology reveals vascular morphodynamics during "
            "Arabidopsis hypocotyl secondary growth",
            "--author",
            "Sankar, Martial",
            "-f",
            "json",
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["references"][0]["verdict"] == "verified"


def test_outage_exit_codes(online: RegistryEmulator, tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@book{unknown1999, title = {A Book Nobody Indexed}, author = {Doe, Jane}}\n")
    title = "A Book Nobody Indexed"
    online.routes.clear()
    online.serve(crossref.search_request(title, "Doe"), Reply(429, "", {"Retry-After": "0"}))
    online.serve(europepmc.search_request(title), Reply(503, "down"))
    online.serve(arxiv.search_request(title), Reply(503, "down"))
    online.serve(dblp.search_request(title), Reply(503, "down"))
    # By default an outage is noted (one finding for the run) and the run goes on ...
    assert main(["verify", str(bib), "-f", "json", "-o", str(tmp_path / "r.json")]) == 0
    report = json.loads((tmp_path / "r.json").read_text())
    verdict = report["references"][0]
    assert verdict["verdict"] == "error" and "coverage_incomplete" in verdict["flags"]
    assert report["outage"]["unchecked"] == ["unknown1999"]
    assert report["outage"]["rate_limited"] == ["crossref"]
    (outage,) = report["findings"]
    assert outage["kind"] == "outage" and outage["key"] is None
    assert outage["message"] == (
        "1 reference not checked fully: crossref kept rate-limiting; arxiv, dblp, europepmc "
        "did not answer; run again later (answers so far are cached)"
    )
    # ... and fails it when asked: 4 for rate limiting.
    fail_on = ["--fail-on", "errors,outage"]
    assert main(["verify", str(bib), *fail_on, "-f", "json", "-o", str(tmp_path / "r.json")]) == 4


def test_plain_text_list_is_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refs = tmp_path / "refs.txt"
    refs.write_text("References\n\n1. Doe J. A book nobody indexed. 1999.\n2. Roe R. Two. 2001.\n")
    assert main(["verify", str(refs), "-f", "json"]) == 0  # offline: unverifiable, not failing
    report = json.loads(capsys.readouterr().out)
    assert [(r["key"], r["line"], r["verdict"]) for r in report["references"]] == [
        ("refs:ref1-doe1999", 3, "unverifiable"),
        ("refs:ref2-roe2001", 4, "unverifiable"),
    ]


def test_resume_skips_done_entries_and_retries_outages(
    online: RegistryEmulator, tmp_path: Path
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    progress = tmp_path / "progress.json"
    title = "A Book Nobody Indexed"
    online.serve(crossref.search_request(title, "Doe"), Reply(503, "down"))
    online.serve(europepmc.search_request(title), fixture("europepmc/search_no_results.json"))
    online.serve(
        arxiv.search_request(title), fixture("arxiv/query_id_list_0000.0000_no_results.xml")
    )
    online.serve(dblp.search_request(title), dblp_no_hits())
    first = ["verify", str(bib), "--resume", str(progress), "--fail-on", "errors,outage"]
    assert main([*first, "-f", "json", "-q"]) == 6
    saved = json.loads(progress.read_text())
    assert set(saved["results"]) == {"sankar2014"}  # the outage is not kept
    asked_before = online.requests()
    # Crossref is back; the other sources' answers are cached from the first run.
    online.serve(
        crossref.search_request(title, "Doe"),
        fixture("crossref/works_search_query.title_no_results.json"),
    )
    out = tmp_path / "r.json"
    assert main(["verify", str(bib), "--resume", str(progress), "-f", "json", "-o", str(out)]) == 1
    verdicts = {r["key"]: r["verdict"] for r in json.loads(out.read_text())["references"]}
    assert verdicts == {"sankar2014": "verified", "unknown1999": "not_found"}
    new_paths = {key for _, key in online.log[asked_before:]}
    assert not any("elife" in key for key in new_paths)  # sankar2014 was not asked again


def test_resume_refuses_a_file_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB)
    foreign = tmp_path / "notes.json"
    foreign.write_text('{"my": "notes"}')
    assert main(["verify", str(bib), "--resume", str(foreign)]) == 2
    assert "refusing" in capsys.readouterr().err
    assert foreign.read_text() == '{"my": "notes"}'


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["verify"], "nothing to verify: give a bibliography file or --doi/--title"),
        (["verify", "{bib}", "--doi", "10.1/x"], "give bibliography files or --doi/--title/"),
        (["verify", "{missing}"], "missing.bib: no such file"),
        (["verify", "{bib}", "{bib}", "-f", "bibtex"], "-f bibtex needs exactly one .bib file"),
        (["verify", "{csl}", "-f", "bibtex"], "-f bibtex needs exactly one .bib file"),
    ],
)
def test_verify_usage_errors_are_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@book{k, title = {A Book}, author = {Doe, Jane}, year = 1999}\n")
    (tmp_path / "refs.json").write_text('[{"id": "k", "title": "A Book"}]\n')
    paths = {"{bib}": bib, "{missing}": tmp_path / "missing.bib", "{csl}": tmp_path / "refs.json"}
    argv = [str(paths.get(a, a)) for a in args]
    assert main([*argv, "--offline"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_bibtex_output_keeps_a_latin1_file_latin1(online: RegistryEmulator, tmp_path: Path) -> None:
    serve_no_hits(online)
    latin1 = BIB.replace("Nieminen", "Niemin\u00e9n").replace("A Book Nobody", "A B\u00f6ok Nobody")
    bib = tmp_path / "refs.bib"
    bib.write_bytes(latin1.replace("A B\u00f6ok", "A Book").encode("latin-1"))
    out = tmp_path / "checked.bib"
    main(["verify", str(bib), "-f", "bibtex", "-o", str(out)])
    raw = out.read_bytes()
    assert "Niemin\u00e9n".encode("latin-1") in raw  # not re-encoded as UTF-8
    assert remove_verdict_fields(raw.decode("latin-1")) == bib.read_bytes().decode("latin-1")


def test_a_report_written_to_a_file_leaves_stdout_empty(
    online: RegistryEmulator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_bytes(BIB.encode("utf-8").split(b"@book")[0])
    out = tmp_path / "report.md"
    assert main(["verify", str(bib), "-f", "markdown", "-o", str(out)]) == 0
    assert capsys.readouterr().out == ""
    report = out.read_text()
    assert "Documents:" not in report and "citations of" not in report
    assert "- **1** bibliography entries" in report and "1 verified" in report


def test_bibtex_from_a_text_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    refs = tmp_path / "refs.txt"
    refs.write_text(
        "References\n\n[1] J. Doe, A. Roe, and B. Poe. A book nobody indexed. Press, 1999.\n"
        "[2] R. Roe. Two & more. https://doi.org/10.1000/x1, 2001.\n"
    )
    assert main(["verify", str(refs), "-f", "bibtex", "--offline"]) == 0
    out = capsys.readouterr().out
    assert "% J. Doe, A. Roe, and B. Poe. A book nobody indexed. Press, 1999.\n" in out
    assert "@misc{refs:ref1-doe1999,\n  cite_check = {unverifiable}," in out
    assert "  author = {Doe, J. and others}," in out
    assert "  title = {Two \\& more}," in out  # LaTeX-safe text
    assert "  doi = {10.1000/x1}" in out
