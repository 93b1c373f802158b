"""The Gemini judge and its File Search store, through the real google-genai SDK pointed at the
loopback Gemini emulator (tests/gemini_emulator.py)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google import genai
from google.genai import types

from citecore.cli import main
from citecore.ground.evidence import Passage, RankedPassage
from citecore.ground.gemini_store import STATE_FILE, StoreSync, SyncMode
from citecore.ground.judges.gemini import GeminiJudge, metadata_filter
from citecore.model import GroundingStatus
from tests.gemini_emulator import Document, GeminiEmulator
from tests.ground.cli import grounding_args, grounding_report


@pytest.fixture
def gemini(monkeypatch: pytest.MonkeyPatch) -> Iterator[GeminiEmulator]:
    emulator = GeminiEmulator()
    monkeypatch.setenv("GOOGLE_API_KEY", "test-key")
    monkeypatch.setenv("GOOGLE_GEMINI_BASE_URL", emulator.url)
    yield emulator
    emulator.close()


def client(emulator: GeminiEmulator) -> Any:
    return genai.Client(api_key="test-key", http_options=types.HttpOptions(base_url=emulator.url))


@pytest.fixture
def sources(tmp_path: Path) -> dict[str, list[Path]]:
    found = {}
    for key in ("alpha", "beta", "gamma"):
        path = tmp_path / f"{key}.txt"
        path.write_text(f"The {key} paper reports a 35 percent gain on the benchmark.")
        found[key] = [path]
    return found


def test_full_rebuild_then_reuse_with_zero_calls(
    gemini: GeminiEmulator,
    sources: dict[str, list[Path]],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    sync = StoreSync(client(gemini), tmp_path / STATE_FILE)
    with caplog.at_level(logging.INFO, logger="citecore.ground.gemini_store"):
        first = sync.sync(sources)
    assert (first.mode, first.reason) == (SyncMode.FULL_REBUILD, "no state file")
    assert "FULL REBUILD (no state file)" in caplog.text
    assert sorted(d.key for d in gemini.stores[first.store]) == ["alpha", "beta", "gamma"]
    before = len(gemini.requests)
    second = sync.sync(sources)
    assert (second.mode, second.store) == (SyncMode.REUSE, first.store)
    assert len(gemini.requests) == before  # no call at all


def test_swapped_file_is_replaced_surgically(
    gemini: GeminiEmulator, sources: dict[str, list[Path]], tmp_path: Path
) -> None:
    sync = StoreSync(client(gemini), tmp_path / STATE_FILE)
    store = sync.sync(sources).store
    old = {d.key: d.name for d in gemini.stores[store]}
    sources["beta"][0].write_text("A swapped PDF with other text.")
    del sources["gamma"]
    report = sync.sync(sources)
    assert report.mode is SyncMode.SURGICAL and report.store == store
    assert report.uploaded == ("beta",) and set(report.deleted) == {"beta", "gamma"}
    now = {d.key: d.name for d in gemini.stores[store]}
    assert set(now) == {"alpha", "beta"}
    assert now["alpha"] == old["alpha"] and now["beta"] != old["beta"]
    # the documents were found through the paginated list (page size 2 for 3 documents)
    assert any("pageToken=2" in path for _, path in gemini.requests)


def test_doubt_about_the_store_means_a_full_rebuild(
    gemini: GeminiEmulator, sources: dict[str, list[Path]], tmp_path: Path
) -> None:
    sync = StoreSync(client(gemini), tmp_path / STATE_FILE)
    store = sync.sync(sources).store
    gemini.stores[store].pop()  # a document the state records disappeared
    sources["alpha"][0].write_text("changed")
    report = sync.sync(sources)
    assert report.mode is SyncMode.FULL_REBUILD
    assert report.reason == "documents the state records are missing"
    assert store not in gemini.stores and report.store in gemini.stores


def test_a_failed_import_rebuilds(
    gemini: GeminiEmulator, sources: dict[str, list[Path]], tmp_path: Path
) -> None:
    sync = StoreSync(client(gemini), tmp_path / STATE_FILE)
    sync.sync(sources)
    sources["alpha"][0].write_text("changed again")
    gemini.fail_uploads = 1
    report = sync.sync(sources)
    assert report.mode is SyncMode.FULL_REBUILD and report.reason.startswith("an import failed")
    assert sorted(d.key for d in gemini.stores[report.store]) == ["alpha", "beta", "gamma"]


def test_each_question_is_scoped_to_its_keys(gemini: GeminiEmulator) -> None:
    gemini.answer = lambda request: json.dumps(
        {"status": "SUPPORTED", "passage": "a 35 percent gain", "reason": "stated"}
    )
    judge = GeminiJudge(client(gemini), "fileSearchStores/store9", "gemini-test")
    verdict = judge.judge("It gains 35 percent.", [], ("alpha", "beta"))
    assert (verdict.status, verdict.judge, verdict.model) == (
        GroundingStatus.SUPPORTED,
        "gemini",
        "gemini-test",
    )
    request = gemini.generate_requests[0]
    tool = request["tools"][0]["fileSearch"]
    assert json.dumps(tool).count('bibkey = \\"alpha\\"') == 1
    assert metadata_filter(["alpha", "beta"]) == 'bibkey = "alpha" OR bibkey = "beta"'
    assert "never an instruction" in request["systemInstruction"]["parts"][0]["text"]


def test_without_a_store_the_model_judges_the_passages_it_is_given(
    gemini: GeminiEmulator,
) -> None:
    """bench/grounding_sets.py's Gemini judge: no File Search tool, the ranked passages in the
    question are what it judges."""
    gemini.answer = lambda request: json.dumps(
        {"status": "UNCONFIRMED", "passage": "", "reason": "not stated"}
    )
    judge = GeminiJudge(client(gemini), "", "gemini-test")
    passage = RankedPassage(Passage("s", 3, "The alpha paper reports a 35 percent gain."), 1.0)
    verdict = judge.judge("It gains 35 percent.", [passage], ("alpha",))
    assert verdict.status is GroundingStatus.UNCONFIRMED
    request = gemini.generate_requests[0]
    assert "tools" not in request
    assert "SOURCE 1 (page 3)" in json.dumps(request["contents"])


def test_check_with_the_gemini_judge(gemini: GeminiEmulator, tmp_path: Path) -> None:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "notes2020.md").write_text(
        "Results. Our method reduced classification errors by 35 percent on the benchmark."
    )
    (tmp_path / "refs.bib").write_text("@misc{notes2020, title = {Lab notes}}\n")
    (tmp_path / "paper.md").write_text(
        "---\nbibliography: refs.bib\n---\n\nErrors fell by 35 percent [@notes2020].\n"
    )
    gemini.answer = lambda request: json.dumps(
        {
            "status": "SUPPORTED",
            "passage": "Our method reduced classification errors by 35 percent on the benchmark.",
            "reason": "stated",
        }
    )
    report = grounding_report(tmp_path / "paper.md", tmp_path / "sources", "--judge", "gemini")
    grounding = report["citations"][0]["grounding"]
    assert (grounding["status"], grounding["judge"], grounding["ungrounded"]) == (
        "supported",
        "gemini",
        False,
    )
    assert (tmp_path / STATE_FILE).is_file()


def _paper(tmp_path: Path, claims: list[str]) -> list[str]:
    (tmp_path / "sources").mkdir()
    (tmp_path / "sources" / "notes2020.md").write_text(
        "Results. Our method reduced classification errors by 35 percent on the benchmark."
    )
    (tmp_path / "refs.bib").write_text("@misc{notes2020, title = {Lab notes}}\n")
    body = "\n\n".join(f"{claim} [@notes2020]." for claim in claims)
    (tmp_path / "paper.md").write_text(f"---\nbibliography: refs.bib\n---\n\n{body}\n")
    return grounding_args(
        tmp_path / "paper.md", tmp_path / "sources", "--judge", "gemini", "-f", "json"
    )


def test_batch_is_the_default_and_sequential_asks_one_by_one(
    gemini: GeminiEmulator, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = _paper(tmp_path, ["Errors fell by 35 percent", "Errors fell sharply"])
    main(args)
    assert any(":batchGenerateContent" in path for _, path in gemini.requests)
    assert not any(path.endswith(":generateContent") for _, path in gemini.requests)
    statuses = [c["grounding"]["status"] for c in json.loads(capsys.readouterr().out)["citations"]]
    assert statuses == ["unsupported", "unsupported"]
    gemini.requests.clear()
    main([*args, "--sequential", "--refresh"])
    # judgments are cached: the same document asks nothing again, sequential or not
    assert not any("generateContent" in path for _, path in gemini.requests)


def test_dry_run_and_limit(
    gemini: GeminiEmulator, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    args = _paper(tmp_path, ["Errors fell by 35 percent", "Errors fell sharply"])
    main([*args, "--dry-run"])
    assert "<<<CLAIM\nErrors fell by 35 percent" in caplog.text  # logged: the CLI shows it
    assert not gemini.generate_requests
    main([*args, "--limit", "1", "--sequential"])
    assert len(gemini.generate_requests) == 1


def test_retry_model_asks_unsupported_claims_again(gemini: GeminiEmulator) -> None:
    def answer(request: dict[str, Any]) -> str:
        return json.dumps({"status": "UNSUPPORTED", "passage": "", "reason": "first model"})

    gemini.answer = answer
    judge = GeminiJudge(client(gemini), "fileSearchStores/store9", "fast", "strong")
    verdict = judge.judge("claim", [], ("alpha",))
    assert verdict.model == "strong"
    assert len(gemini.generate_requests) == 2


def test_an_answer_that_is_not_the_asked_json_is_an_error_not_a_verdict(
    gemini: GeminiEmulator,
) -> None:
    gemini.answer = lambda request: "I think the paper broadly supports this."
    verdict = GeminiJudge(client(gemini), "fileSearchStores/store9", "m").judge("claim", [], ())
    assert verdict.status is GroundingStatus.ERROR
    assert verdict.reason.startswith("the model gave no usable answer")


def test_a_refused_request_is_an_error_verdict_and_the_run_goes_on(
    gemini: GeminiEmulator,
) -> None:
    gemini.fail_generations = 1
    gemini.answer = lambda request: json.dumps(
        {"status": "SUPPORTED", "passage": "a 35 percent gain", "reason": "stated"}
    )
    judge = GeminiJudge(client(gemini), "fileSearchStores/store9", "m")
    first = judge.judge("It gains 35 percent.", [], ("alpha",))
    assert first.status is GroundingStatus.ERROR and "ClientError" in first.reason
    assert "test-key" not in first.reason
    assert judge.judge("It gains 35 percent.", [], ("alpha",)).status is GroundingStatus.SUPPORTED


def test_a_refused_batch_makes_every_question_an_error(gemini: GeminiEmulator) -> None:
    gemini.fail_generations = 1
    judge = GeminiJudge(client(gemini), "fileSearchStores/store9", "m", sleep=lambda s: None)
    verdicts = judge.judge_many([("one", [], ("alpha",)), ("two", [], ("beta",))])
    assert [v.status for v in verdicts] == [GroundingStatus.ERROR, GroundingStatus.ERROR]
    assert all(v.reason.startswith("the batch failed") for v in verdicts)


def test_a_batch_keeps_each_answer_with_its_question(gemini: GeminiEmulator) -> None:
    def answer(request: dict[str, Any]) -> str:
        claim = json.dumps(request)
        status = "SUPPORTED" if "gains" in claim else "UNSUPPORTED"
        return json.dumps({"status": status, "passage": "p", "reason": "r"})

    gemini.answer = answer
    gemini.batch_drops = {"1"}  # the job came back without the second question's response
    judge = GeminiJudge(client(gemini), "fileSearchStores/store9", "m", sleep=lambda s: None)
    verdicts = judge.judge_many(
        [("It gains.", [], ("alpha",)), ("Lost one.", [], ("beta",)), ("It loses.", [], ())]
    )
    assert [v.status for v in verdicts] == [
        GroundingStatus.SUPPORTED,
        GroundingStatus.ERROR,  # no response is no verdict, never "unsupported"
        GroundingStatus.UNSUPPORTED,
    ]


def test_a_batch_asks_the_retry_model_only_about_doubtful_answers(
    gemini: GeminiEmulator,
) -> None:
    def answer(request: dict[str, Any]) -> str:
        status = "SUPPORTED" if "sure" in json.dumps(request) else "UNCONFIRMED"
        return json.dumps({"status": status, "passage": "", "reason": "r"})

    gemini.answer = answer
    judge = GeminiJudge(
        client(gemini), "fileSearchStores/store9", "fast", "strong", sleep=lambda s: None
    )
    verdicts = judge.judge_many([("A sure claim.", [], ()), ("A vague claim.", [], ())])
    assert [v.model for v in verdicts] == ["fast", "strong"]
    sequential = [p for _, p in gemini.requests if p.endswith(":generateContent")]
    assert len(sequential) == 1 and "strong" in sequential[0]


def test_an_unreadable_state_file_means_a_full_rebuild(
    gemini: GeminiEmulator, sources: dict[str, list[Path]], tmp_path: Path
) -> None:
    (tmp_path / STATE_FILE).write_text('{"store": 3, "digests": [')
    report = StoreSync(client(gemini), tmp_path / STATE_FILE).sync(sources)
    assert (report.mode, report.reason) == (SyncMode.FULL_REBUILD, "no state file")
    assert json.loads((tmp_path / STATE_FILE).read_text())["store"] == report.store


def test_a_store_deleted_elsewhere_is_rebuilt(
    gemini: GeminiEmulator, sources: dict[str, list[Path]], tmp_path: Path
) -> None:
    sync = StoreSync(client(gemini), tmp_path / STATE_FILE)
    store = sync.sync(sources).store
    del gemini.stores[store]  # deleted from the console, say
    sources["alpha"][0].write_text("changed")
    report = sync.sync(sources)
    assert report.mode is SyncMode.FULL_REBUILD
    assert report.reason.startswith("store not readable")
    assert sorted(d.key for d in gemini.stores[report.store]) == ["alpha", "beta", "gamma"]


def test_a_store_holding_documents_the_state_does_not_is_rebuilt(
    gemini: GeminiEmulator, sources: dict[str, list[Path]], tmp_path: Path
) -> None:
    sync = StoreSync(client(gemini), tmp_path / STATE_FILE)
    store = sync.sync(sources).store
    gemini.stores[store].append(Document(f"{store}/documents/by-hand", "stray", b"by hand"))
    sources["beta"][0].write_text("changed")
    report = sync.sync(sources)
    assert report.reason == "the store holds documents the state does not"
    assert "stray" not in {d.key for d in gemini.stores[report.store]}


def test_an_upload_failing_once_during_a_rebuild_is_tried_again(
    gemini: GeminiEmulator, sources: dict[str, list[Path]], tmp_path: Path
) -> None:
    gemini.fail_uploads = 1
    report = StoreSync(client(gemini), tmp_path / STATE_FILE).sync(sources)
    assert report.mode is SyncMode.FULL_REBUILD
    assert sorted(d.key for d in gemini.stores[report.store]) == ["alpha", "beta", "gamma"]
