"""The Gemini judge: File Search over the synced store, scoped to the cited keys.

Each question carries the framed prompt (`prompt.py`) and a `fileSearch` tool restricted with a
metadata filter to the documents of the keys the sentence cites. The key comes from
`GOOGLE_API_KEY` in the environment only; the base URL from the SDK's own
`GOOGLE_GEMINI_BASE_URL` (mirrors, tests).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from google.genai import errors, types

from citecore.ground.evidence import RankedPassage
from citecore.ground.judges import JudgeVerdict
from citecore.ground.judges.prompt import INSTRUCTIONS, parse_answer, user_message
from citecore.model import GroundingStatus

DEFAULT_MODEL = "gemini-2.5-flash"
# Answers that are not support are asked again of the retry model, when there is one.
_DOUBTFUL = frozenset({GroundingStatus.UNSUPPORTED, GroundingStatus.UNCONFIRMED})


def metadata_filter(keys: Sequence[str]) -> str:
    """The File Search filter selecting the documents of `keys`."""
    quoted = [f'bibkey = "{k.replace(chr(34), "")}"' for k in keys]
    return " OR ".join(quoted)


class GeminiJudge:
    """Asks Gemini with File Search over `store`; failures are `error` verdicts."""

    name = "gemini"

    def __init__(
        self,
        client: Any,
        store: str,
        model: str = DEFAULT_MODEL,
        retry_model: str = "",
        poll_seconds: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.client = client
        self.store = store
        self.model = model
        self.retry_model = retry_model
        self.poll_seconds = poll_seconds
        self.sleep = sleep

    def _config(self, keys: Sequence[str]) -> Any:
        """The request's configuration: File Search over the store's documents of `keys`; with
        no store, the model judges the passages in the question alone."""
        if not self.store:
            return types.GenerateContentConfig(system_instruction=INSTRUCTIONS, temperature=0)
        tool = types.Tool(
            file_search=types.FileSearch(
                file_search_store_names=[self.store],
                metadata_filter=metadata_filter(keys) if keys else None,
            )
        )
        return types.GenerateContentConfig(
            system_instruction=INSTRUCTIONS, tools=[tool], temperature=0
        )

    def _verdict(self, text: str, model: str) -> JudgeVerdict:
        try:
            answer = parse_answer(text)
        except ValueError as exc:
            reason = f"the model gave no usable answer: {exc}"
            return JudgeVerdict(GroundingStatus.ERROR, "", reason[:300], self.name, model)
        return JudgeVerdict(answer.status, answer.passage, answer.reason, self.name, model)

    def judge(
        self, claim: str, evidence: Sequence[RankedPassage], keys: Sequence[str] = ()
    ) -> JudgeVerdict:
        """The model's verdict, from the store's documents of `keys` (one call; with a retry
        model, an UNSUPPORTED or UNCONFIRMED answer is asked again of that model)."""
        verdict = self._ask_one(self.model, claim, evidence, keys)
        if self.retry_model and verdict.status in _DOUBTFUL:
            verdict = self._ask_one(self.retry_model, claim, evidence, keys)
        return verdict

    def _ask_one(
        self, model: str, claim: str, evidence: Sequence[RankedPassage], keys: Sequence[str]
    ) -> JudgeVerdict:

        try:
            response = self.client.models.generate_content(
                model=model, contents=user_message(claim, evidence), config=self._config(keys)
            )
        except errors.APIError as exc:
            reason = f"the model gave no usable answer: {type(exc).__name__}: {exc}"
            return JudgeVerdict(GroundingStatus.ERROR, "", reason[:300], self.name, model)
        return self._verdict(response.text or "", model)

    def judge_many(
        self, questions: Sequence[tuple[str, Sequence[RankedPassage], Sequence[str]]]
    ) -> list[JudgeVerdict]:
        """Every question in one Batch API job (cheaper, and no rate-limit dance); the job is
        polled until it ends. UNSUPPORTED and UNCONFIRMED answers go to the retry model one by
        one."""

        requests = [
            types.InlinedRequest(
                contents=user_message(claim, evidence),
                metadata={"question": str(number)},
                config=self._config(keys),
            )
            for number, (claim, evidence, keys) in enumerate(questions)
        ]
        try:
            job = self.client.batches.create(
                model=self.model, src=requests, config={"display_name": "citecheck"}
            )
            wait = self.poll_seconds
            while not job.done:  # polled with backoff: a batch takes seconds to hours
                self.sleep(wait)
                wait = min(wait * 2, 60.0)
                job = self.client.batches.get(name=job.name)
        except errors.APIError as exc:
            reason = f"the batch failed: {type(exc).__name__}: {exc}"[:300]
            return [
                JudgeVerdict(GroundingStatus.ERROR, "", reason, self.name, self.model)
                for _ in questions
            ]
        answers: dict[int, str] = {}
        for item in (job.dest.inlined_responses if job.dest else None) or []:
            number = int((item.metadata or {}).get("question", -1))
            answers[number] = (item.response.text if item.response else "") or ""
        verdicts = [self._verdict(answers.get(n, ""), self.model) for n in range(len(questions))]
        if self.retry_model:
            for number, (claim, evidence, keys) in enumerate(questions):
                if verdicts[number].status in _DOUBTFUL:
                    verdicts[number] = self._ask_one(self.retry_model, claim, evidence, keys)
        return verdicts

    def close(self) -> None:
        """The client is the caller's."""
