"""WordNet read from its own files: antonyms, synonyms, and the judge without it."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.ground.evidence import Passage, RankedPassage
from citecore.ground.judges.local import LocalJudge
from citecore.ground.lexicon import RulesOnly, WordNet, open_lexicon, wordnet_folder
from citecore.model import GroundingStatus

FOLDER = wordnet_folder()
requires_wordnet = pytest.mark.skipif(
    FOLDER is None, reason="WordNet is not installed (make install installs wordnet-base)"
)


@requires_wordnet
@pytest.mark.parametrize(
    ("a", "b", "opposite", "same"),
    [
        ("effective", "ineffective", True, False),
        ("rise", "fall", True, False),
        ("rose", "fell", True, False),  # irregular forms through the exception lists
        ("increases", "decreases", True, False),
        ("damp", "dry", True, False),  # a satellite adjective through its head ("wet")
        ("rise", "increase", False, True),
        ("decreased", "declined", False, True),
        ("children", "adults", False, False),
        ("zyzzyva", "qwertyuiop", False, False),  # words WordNet does not hold
    ],
)
def test_wordnet_relations(a: str, b: str, opposite: bool, same: bool) -> None:
    assert FOLDER is not None
    words = WordNet(FOLDER)
    assert words.opposite(a, b) is opposite
    assert words.opposite(b, a) is opposite
    assert words.same_meaning(a, b) is same


def test_without_wordnet_the_rules_decide_and_say_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WNSEARCHDIR", str(tmp_path))
    assert wordnet_folder() is None
    judge = LocalJudge(RulesOnly("rules only: WordNet is not installed"))
    passage = RankedPassage(
        Passage("s", 1, "The new procedure was dangerous for most patients."), 1
    )
    verdict = judge.judge("The new procedure was safe for most patients.", [passage])
    # No lexicon knows "safe"/"dangerous" as opposites: a word it cannot place, no accusation.
    assert verdict.status is GroundingStatus.UNCONFIRMED
    assert verdict.reason.startswith("lexical judge (rules only: WordNet is not installed)")
    assert judge.model == "lexical-rules-v10"
    # The rules' own opposites still hold.
    passage = RankedPassage(Passage("s", 1, "The treatment was ineffective in most patients."), 1)
    verdict = judge.judge("The treatment was effective in most patients.", [passage])
    assert verdict.status is GroundingStatus.UNSUPPORTED


@requires_wordnet
def test_the_judge_names_wordnet_in_its_model() -> None:
    assert LocalJudge().model == "lexical-rules-v10+wordnet-3.0"


def test_a_folder_that_is_not_wordnet_gives_rules_only(tmp_path: Path) -> None:
    for part in ("noun", "verb", "adj", "adv"):
        (tmp_path / f"index.{part}").write_text("good a 1 0 1 0 00000042\nnot a wordnet line\n")
        (tmp_path / f"data.{part}").write_text("garbage\n")
    words = open_lexicon(tmp_path)
    assert not words.known
    assert words.description.startswith(f"rules only: WordNet at {tmp_path} could not be read")
    assert open_lexicon(None).description.startswith("rules only: WordNet is not installed")
