"""Grounding one document's citations, with a judge that records what it was asked: which
sources a citation is judged against, what is asked once, cached, limited or only shown, and
how a judge's passage is proved (or not) to be in the source, with its page."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from citecore.cache import Cache
from citecore.ground.evidence import RankedPassage
from citecore.ground.judges import JudgeVerdict
from citecore.ground.run import GroundingPlan, claim_text, ground_citations
from citecore.model import (
    Bibliography,
    Citation,
    CitationId,
    CitationMode,
    GroundingStatus,
    Reference,
    Signal,
    SourceLocation,
)

SOURCE_A = (
    "Residual networks ease the training of very deep networks. Layers learn residual "
    "functions with reference to the layer inputs. An ensemble of these nets reaches 3.57% "
    "error on the ImageNet test set.\fThe second page reports detection results on COCO."
)
SOURCE_B = "Dropout prevents co-adaptation of hidden units by dropping them at random."


class RecordingJudge:
    """Says what it is told to for each claim, quoting a passage; records every question."""

    name = "recording"
    model = "v1"

    def __init__(self, passage: str = "", status: GroundingStatus = GroundingStatus.SUPPORTED):
        self.passage = passage
        self.status = status
        self.asked: list[tuple[str, tuple[str, ...], int]] = []

    def judge(
        self, claim: str, evidence: Sequence[RankedPassage], keys: Sequence[str] = ()
    ) -> JudgeVerdict:
        self.asked.append((claim, tuple(keys), len(evidence)))
        return JudgeVerdict(self.status, self.passage, "told so", self.name, self.model)

    def close(self) -> None:
        """Nothing to close."""


@pytest.fixture
def bibliography(tmp_path: Path) -> Bibliography:
    (tmp_path / "a.txt").write_text(SOURCE_A)
    (tmp_path / "b.txt").write_text(SOURCE_B)
    (tmp_path / "scan.txt").write_text("  ")
    bib = tmp_path / "refs.bib"
    bib.write_text("% the entries' files sit beside it\n")
    entries = {
        key: Reference(key, "article", SourceLocation(str(bib), 1), files=files)
        for key, files in (("a", ("a.txt",)), ("b", ("b.txt",)), ("scan", ("scan.txt",)),
                           ("none", ()))
    }  # fmt: skip
    return Bibliography((str(bib),), entries)


def _id(ordinal: int) -> CitationId:
    return CitationId("paper.md", ordinal)


def _cite(key: str, claim: str, *, with_: tuple[str, ...] = (), signal: Signal | None = None,
          n: int = 0) -> Citation:  # fmt: skip
    return Citation(
        key, CitationMode.NORMAL, SourceLocation("paper.md", 1), _id(n), claim=claim,
        cited_with=with_, signal=signal,
    )  # fmt: skip


def test_claims_lose_their_citation_marks() -> None:
    cited = _cite("a", "Deep nets train well [@a; @b, p. 3], as @a showed [-@a].")
    assert claim_text(cited) == "Deep nets train well , as showed ."


def test_a_supported_passage_is_proved_with_its_page(bibliography: Bibliography) -> None:
    judge = RecordingJudge(
        "An ensemble of these nets reaches 3.57% error on the ImageNet test set."
    )
    (result,) = ground_citations([_cite("a", "Ensembles reach 3.57% error [@a].")], bibliography,
                                 judge).values()  # fmt: skip
    assert (result.status, result.page, result.ungrounded) == (GroundingStatus.SUPPORTED, 1, False)
    second_page = RecordingJudge("The second page reports detection results on COCO.")
    (result,) = ground_citations([_cite("a", "Detection on COCO [@a].")], bibliography,
                                 second_page).values()  # fmt: skip
    assert result.page == 2  # a form feed starts a page of a text source


def test_a_passage_the_source_does_not_hold_is_ungrounded(bibliography: Bibliography) -> None:
    judge = RecordingJudge("Transformers replaced recurrence with attention entirely.")
    (result,) = ground_citations([_cite("a", "Attention replaced recurrence [@a].")],
                                 bibliography, judge).values()  # fmt: skip
    assert result.status is GroundingStatus.SUPPORTED and result.ungrounded and result.page is None


def test_a_signal_citation_gets_the_looser_gates(bibliography: Bibliography) -> None:
    # Half of the quoted words are in the source, in order: enough after "see", not without.
    loose = "Residual networks ease the training of shallow wide models quickly"
    plain = ground_citations([_cite("a", "x [@a].")], bibliography, RecordingJudge(loose))
    signalled = ground_citations(
        [_cite("a", "x [see @a].", signal=Signal.SEE)], bibliography, RecordingJudge(loose)
    )
    assert plain[_id(0)].ungrounded and not signalled[_id(0)].ungrounded


def test_sources_that_cannot_be_judged(bibliography: Bibliography) -> None:
    judge = RecordingJudge("anything")
    results = ground_citations(
        [
            _cite("none", "x [@none]."),
            _cite("scan", "y [@scan].", n=1),
            _cite("ghost", "z [@ghost].", n=2),
        ],
        bibliography,
        judge,
    )
    assert {r.status for r in results.values()} == {GroundingStatus.NOT_IN_STORE}
    assert "no text could be read" in results[_id(1)].reason  # said, and never judged
    assert judge.asked == []


def test_a_compound_citation_is_judged_against_all_its_sources(
    bibliography: Bibliography,
) -> None:
    judge = RecordingJudge(SOURCE_B)
    claim = "Residual networks train; dropout drops hidden units [@a; @b]."
    results = ground_citations([_cite("a", claim, with_=("b",))], bibliography, judge)
    assert judge.asked[0][1] == ("a", "b") and judge.asked[0][2] > 1
    assert results[_id(0)].page == 1 and not results[_id(0)].ungrounded  # proved in b's text


def test_judgments_are_cached_limited_and_shown(
    bibliography: Bibliography, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    citations = [_cite("a", "Residual functions help [@a]."),
                 _cite("b", "Dropout helps [@b].", n=1)]  # fmt: skip
    with Cache(tmp_path / "c.sqlite3") as cache:
        shown = RecordingJudge()
        assert ground_citations(citations, bibliography, shown, cache=cache,
                                plan=GroundingPlan(dry_run=True)) == {}  # fmt: skip
        assert shown.asked == [] and "Residual functions help" in caplog.text
        limited = RecordingJudge()
        first = ground_citations(citations, bibliography, limited, cache=cache,
                                 plan=GroundingPlan(limit=1))  # fmt: skip
        assert list(first) == [_id(0)] and len(limited.asked) == 1
        again = RecordingJudge()
        second = ground_citations(citations, bibliography, again, cache=cache)
        assert [q[0] for q in again.asked] == ["Dropout helps ."]  # the first came from the cache
        assert second[_id(0)] == first[_id(0)]
        other_model = RecordingJudge()
        other_model.model = "v2"  # another model's judgment is not reused
        ground_citations(citations, bibliography, other_model, cache=cache)
        assert len(other_model.asked) == 2


def test_errors_are_not_cached(bibliography: Bibliography, tmp_path: Path) -> None:
    citations = [_cite("a", "Residual functions help [@a].")]
    with Cache(tmp_path / "c.sqlite3") as cache:
        ground_citations(citations, bibliography, RecordingJudge(status=GroundingStatus.ERROR),
                         cache=cache)  # fmt: skip
        retried = RecordingJudge()
        ground_citations(citations, bibliography, retried, cache=cache)
        assert len(retried.asked) == 1


def test_a_rebuild_from_the_cache_neither_cuts_nor_embeds_a_source(
    bibliography: Bibliography, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unchanged document's judgments all come from the cache: no passage is cut, ranked or
    embedded, and the embedder is not even loaded."""
    import citecore.ground.run as run

    citations = [_cite("a", "Residual functions help [@a].")]
    with Cache(tmp_path / "c.sqlite3") as cache:
        ground_citations(citations, bibliography, RecordingJudge(), cache=cache)

        def refuse(*args: object) -> None:
            raise AssertionError("a cached judgment needs no passages")

        monkeypatch.setattr(run, "passages", refuse)
        monkeypatch.setattr(run, "sentence_embedder", refuse)
        again = RecordingJudge()
        assert ground_citations(citations, bibliography, again, cache=cache)[_id(0)].status is (
            GroundingStatus.SUPPORTED
        )
        assert again.asked == []
