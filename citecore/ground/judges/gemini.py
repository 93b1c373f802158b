"""The Gemini judge: File Search over the synced store, scoped to the cited keys.

Each question carries the framed prompt (`prompt.py`) and a `fileSearch` tool restricted with a
metadata filter to the documents of the keys the sentence cites. The key comes from
`GOOGLE_API_KEY` in the environment only; the base URL from the SDK's own
`GOOGLE_GEMINI_BASE_URL` (mirrors, tests).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from citecore.ground.evidence import RankedPassage
from citecore.ground.judges import JudgeVerdict
from citecore.ground.judges.prompt import INSTRUCTIONS, parse_answer, user_message
from citecore.model import GroundingStatus

DEFAULT_MODEL = "gemini-2.5-flash"


def metadata_filter(keys: Sequence[str]) -> str:
    """The File Search filter selecting the documents of `keys`."""
    quoted = [f'bibkey = "{k.replace(chr(34), "")}"' for k in keys]
    return " OR ".join(quoted)


class GeminiJudge:
    """Asks Gemini with File Search over `store`; failures are `error` verdicts."""

    name = "gemini"

    def __init__(self, client: Any, store: str, model: str = DEFAULT_MODEL) -> None:
        self.client = client
        self.store = store
        self.model = model

    def judge(
        self, claim: str, evidence: Sequence[RankedPassage], keys: Sequence[str] = ()
    ) -> JudgeVerdict:
        """The model's verdict, from the store's documents of `keys`."""
        from google.genai import errors, types

        tool = types.Tool(
            file_search=types.FileSearch(
                file_search_store_names=[self.store],
                metadata_filter=metadata_filter(keys) if keys else None,
            )
        )
        config = types.GenerateContentConfig(
            system_instruction=INSTRUCTIONS, tools=[tool], temperature=0
        )
        try:
            response = self.client.models.generate_content(
                model=self.model, contents=user_message(claim, evidence), config=config
            )
            answer = parse_answer(response.text or "")
        except (errors.APIError, ValueError) as exc:
            reason = f"the model gave no usable answer: {type(exc).__name__}: {exc}"
            return JudgeVerdict(GroundingStatus.ERROR, "", reason[:300], self.name, self.model)
        return JudgeVerdict(answer.status, answer.passage, answer.reason, self.name, self.model)

    def close(self) -> None:
        """The client is the caller's."""
