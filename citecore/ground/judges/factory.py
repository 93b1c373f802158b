"""Choosing and preparing the judge a run asks for."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from citecore.errors import OptionsError
from citecore.fetch.local import source_files
from citecore.ground.judges import Judge
from citecore.ground.judges.local import LocalJudge
from citecore.model import Bibliography, Citation
from citecore.options import JudgeKind, Options


def judge_kind(options: Options) -> JudgeKind:
    """The judge the options ask for; unset, Gemini when `GOOGLE_API_KEY` is set, else local."""
    default = JudgeKind.GEMINI if os.environ.get("GOOGLE_API_KEY") else JudgeKind.LOCAL
    return options.judge or default


def make_judge(
    options: Options, citations: Sequence[Citation], bibliography: Bibliography, folder: Path
) -> Judge:
    """`local` (offline, lexical), `openai` (an OpenAI-compatible endpoint at `judge-url`,
    model `judge-model`) or `gemini` (File Search over a store synced with the cited sources;
    `GOOGLE_API_KEY` from the environment; the state file lives in the document's folder)."""
    judge = judge_kind(options)
    if judge is JudgeKind.OPENAI:
        # start-up: httpx, ~110 ms: this judge only
        from citecore.ground.judges.openai_compat import OpenAICompatJudge

        if not options.judge_url or not options.judge_model:
            raise OptionsError("judge openai needs judge-url and judge-model")
        return OpenAICompatJudge(options.judge_url, options.judge_model, options.timeout)
    if judge is JudgeKind.GEMINI:
        return _gemini(options, citations, bibliography, folder)
    return LocalJudge()


def _gemini(
    options: Options, citations: Sequence[Citation], bibliography: Bibliography, folder: Path
) -> Judge:
    # start-up: google-genai takes ~550 ms to import: only the Gemini judge needs it.
    from google import genai

    from citecore.ground.gemini_store import STATE_FILE, StoreSync
    from citecore.ground.judges.gemini import DEFAULT_MODEL, GeminiJudge

    if not os.environ.get("GOOGLE_API_KEY"):
        raise OptionsError("judge gemini needs GOOGLE_API_KEY in the environment")
    client = genai.Client(api_key=os.environ["GOOGLE_API_KEY"])
    folders = [Path(s).parent for s in bibliography.sources if Path(s).is_file()]
    sources = {}
    for key in dict.fromkeys(c.key for c in citations):
        reference = bibliography.references.get(key)
        if reference is not None:
            sources[key] = source_files(reference, folders, options.sources)
    store = StoreSync(client, folder / STATE_FILE).sync(sources).store
    return GeminiJudge(client, store, options.judge_model or DEFAULT_MODEL, options.retry_model)
