"""`citecheck sources fetch` on the tour as a writer runs it, then grounding on what it stored;
and `fetch-sources: true` doing the same inside a check."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from citecore.cli import main
from tests.emulator import RegistryEmulator
from tests.fetch.open_access import TOUR_COPIES, TOUR_TEXTS, fast_environment, serve_copies
from tests.paths import REPO

TOUR = REPO / "examples" / "tour"


@pytest.fixture
def tour(tmp_path: Path) -> Path:
    """The tour's document and bibliography, without its sources folder."""
    for name in ("tour.md", "tour.bib"):
        shutil.copy(TOUR / name, tmp_path / name)
    return tmp_path


@pytest.fixture
def emulator(monkeypatch: pytest.MonkeyPatch) -> Iterator[RegistryEmulator]:
    with RegistryEmulator(strict=False) as server:
        serve_copies(server, TOUR_COPIES, TOUR_TEXTS)
        monkeypatch.delenv("CITECHECK_OFFLINE")  # the tests' default: here the emulator answers
        for name, value in fast_environment(server).items():
            monkeypatch.setenv(name, value)
        yield server


def test_sources_fetch_on_the_tour(
    tour: Path, emulator: RegistryEmulator, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = str(tour / "cache.sqlite")
    status = main(["sources", "fetch", str(tour / "tour.md"), "--no-zotero", "--cache", cache])
    out, err = capsys.readouterr()
    assert status == 1  # two keys are left without a source, and that is said
    stored = sorted(p.name for p in (tour / "sources").glob("*.pdf"))
    assert stored == [
        "he2016deep.pdf",
        "lala2023paperqa.pdf",
        "zhang2022opt.pdf",
        "zheng2022legal.pdf",
    ]
    assert "missing  holt2023citation: no identifier" in out
    assert "missing  peng2021rfa: every open-access copy was refused" in out
    assert "another work" in out  # its DOI names Flamingo's arXiv id
    assert "4/6 cited keys have a source (0 before)" in err
    manifest = json.loads((tour / "sources" / "sources.json").read_text())
    assert {s["key"]: s["origin"] for s in manifest["sources"]} == {
        "he2016deep": "openalex",
        "lala2023paperqa": "arxiv",
        "zhang2022opt": "arxiv",
        "zheng2022legal": "unpaywall",
    }

    # Grounding reads them where `sources fetch` put them (sources/ beside the document).
    status = main(["check", str(tour / "tour.md"), "--no-verify", "--ground", "--judge", "local",
                   "--cache", cache, "-f", "json"])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    verdicts = {
        c["key"]: (c["grounding"]["status"], c["grounding"]["source"]) for c in report["citations"]
    }
    assert verdicts["he2016deep"] == ("supported", "openalex")
    assert verdicts["zhang2022opt"] == ("supported", "arxiv")
    assert verdicts["holt2023citation"][0] == "not_in_store"
    missing = {s["key"]: s["missing"] for s in report["source_files"]}
    assert missing["holt2023citation"].startswith("sources fetch: no identifier")

    # Run again: every answer is in the sources folder, the manifest or the cache.
    before = emulator.requests()
    main(["sources", "fetch", str(tour / "tour.md"), "--no-zotero", "--cache", cache])
    assert emulator.requests() == before


def test_fetch_sources_inside_a_check(
    tour: Path, emulator: RegistryEmulator, capsys: pytest.CaptureFixture[str]
) -> None:
    (tour / "citecheck.toml").write_text("[citecheck]\nfetch-sources = true\nzotero = false\n")
    snapshot = tour / "snapshot.sqlite"
    assert main(["snapshot", "build", "--complete", "-o", str(snapshot),
                 str(TOUR / "registry-records.jsonl")]) == 0  # fmt: skip
    capsys.readouterr()
    main(["check", str(tour / "tour.md"), "--snapshot", str(snapshot), "--offline", "-f", "json",
          "--cache", str(tour / "cache.sqlite")])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    # Offline, nothing is fetched, and the report says why there is no source.
    assert {s["missing"] for s in report["source_files"]} >= {
        "sources fetch: offline: not looked for"
    }
    main(["check", str(tour / "tour.md"), "--snapshot", str(snapshot), "-f", "json",
          "--cache", str(tour / "cache.sqlite")])  # fmt: skip
    report = json.loads(capsys.readouterr().out)
    origins = {s["key"]: s["origin"] for s in report["source_files"]}
    # Verification found Random Feature Attention's own DOI: its copy is fetched by that.
    assert origins["peng2021rfa"] == "arxiv"
    assert origins["he2016deep"] == "openalex" and origins["holt2023citation"] == ""


def test_an_entry_that_cannot_be_read_is_said_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{ok, title = {Fine}}\n@article{broken, title = {Never closed\n")
    status = main(["sources", "fetch", str(bib), "--no-zotero", "--offline"])
    err = capsys.readouterr().err
    assert status == 1
    assert f"{bib}:2: not read:" in err and "0/1 cited keys have a source" in err


def test_sources_fetch_of_a_document_verifies_nothing(
    tmp_path: Path, emulator: RegistryEmulator, capsys: pytest.CaptureFixture[str]
) -> None:
    # It reads which keys the document cites; what registries know of them is `check`'s job.
    (tmp_path / "refs.bib").write_text("@book{old, title = {A Book Without Identifiers}}\n")
    (tmp_path / "paper.md").write_text("---\nbibliography: refs.bib\n---\n\nA claim [@old].\n")
    cache = str(tmp_path / "cache.sqlite")
    main(["sources", "fetch", str(tmp_path / "paper.md"), "--no-zotero", "--cache", cache])
    assert "missing  old: no identifier" in capsys.readouterr().out
    assert emulator.requests() == 0
