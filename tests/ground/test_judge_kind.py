"""Which judge a run uses — what decides whether the editor may read cached grounding verdicts
on open (a Gemini judge would sync its File Search store first, so it waits for the command)."""

from __future__ import annotations

import pytest

from citecore.ground.judges.factory import judge_kind
from citecore.options import JudgeKind, resolve_options


@pytest.mark.parametrize(
    ("layer", "environ", "expected"),
    [
        ({}, {}, JudgeKind.LOCAL),
        ({}, {"GOOGLE_API_KEY": "k"}, JudgeKind.GEMINI),
        ({"judge": "local"}, {"GOOGLE_API_KEY": "k"}, JudgeKind.LOCAL),
        ({"judge": "openai"}, {}, JudgeKind.OPENAI),
        ({"judge": "gemini"}, {}, JudgeKind.GEMINI),
    ],
)
def test_the_judge_is_the_one_asked_for_else_gemini_with_a_key_else_local(
    monkeypatch: pytest.MonkeyPatch,
    layer: dict[str, str],
    environ: dict[str, str],
    expected: JudgeKind,
) -> None:
    monkeypatch.delenv("GOOGLE_API_KEY", raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert judge_kind(resolve_options(layer, environ={})) is expected
