"""A judge behind any OpenAI-compatible chat endpoint (llama.cpp, Ollama, vLLM, …).

`POST {url}/v1/chat/completions` with the framed prompt; the key, if the endpoint needs one,
comes from `OPENAI_API_KEY` and is sent only in the request header.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import httpx

from citecore.ground.evidence import RankedPassage
from citecore.ground.judges import JudgeVerdict
from citecore.ground.judges.prompt import INSTRUCTIONS, parse_answer, user_message
from citecore.http_clients import ClientShape, sync_client
from citecore.model import GroundingStatus


class OpenAICompatJudge:
    """Asks a chat model; a failed call or an invalid answer is an `error` verdict."""

    name = "openai"

    def __init__(
        self,
        url: str,
        model: str,
        timeout: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.url = url.rstrip("/")
        self.model = model
        shape = ClientShape(timeout, connect=timeout, follow_redirects=False)
        self._client = sync_client(shape, transport)

    def judge(
        self, claim: str, evidence: Sequence[RankedPassage], keys: Sequence[str] = ()
    ) -> JudgeVerdict:
        """The model's verdict on `claim` given `evidence` (already from `keys`' sources)."""
        del keys
        headers = {}
        if os.environ.get("OPENAI_API_KEY"):
            headers["Authorization"] = f"Bearer {os.environ['OPENAI_API_KEY']}"
        body = {
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": INSTRUCTIONS},
                {"role": "user", "content": user_message(claim, evidence)},
            ],
        }
        try:
            reply = self._client.post(f"{self.url}/v1/chat/completions", json=body, headers=headers)
            reply.raise_for_status()
            content = reply.json()["choices"][0]["message"]["content"]
            answer = parse_answer(str(content))
        except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
            reason = f"the model gave no usable answer: {type(exc).__name__}: {exc}"
            return JudgeVerdict(GroundingStatus.ERROR, "", reason[:300], self.name, self.model)
        return JudgeVerdict(answer.status, answer.passage, answer.reason, self.name, self.model)

    def close(self) -> None:
        """Close the HTTP client."""
        self._client.close()
