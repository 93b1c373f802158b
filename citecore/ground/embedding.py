"""Sentence embeddings for finding the passage a paraphrase rests on.

BM25 finds a passage that shares the claim's words; a writer's paraphrase often shares few of
them ("lowered the death rate" for "reduces mortality"). A sentence embedder places texts of
like meaning near each other. The one used is WordLlama (MIT licence), whose weights and
tokenizer ship inside its wheel (`pip install 'citecore[embed]'`): 19 MB, ~20 µs a sentence on
one CPU core, nothing fetched at run time. Without it, ranking is lexical, as before; the
ranking's name goes into the cache key of every judgment, so a verdict reached on other passages
is not reused. (docs/grounding.md compares the packages that carry their weights.)
"""

from __future__ import annotations

import importlib.util
import logging
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

logger = logging.getLogger(__name__)

# The files inside the wordllama wheel: its 256-dimension "l2_supercat" model. (The package's
# own `WordLlama.load()` looks for the tokenizer under `tokenizer/` while the wheel ships it
# under `tokenizers/`, and then downloads it: the files are opened here by their own paths, so
# that nothing is ever fetched.)
_WEIGHTS = ("weights", "l2_supercat_256.safetensors")
_TOKENIZER = ("tokenizers", "l2_supercat_tokenizer_config.json")


class SentenceEmbedder(Protocol):
    """Anything that turns texts into unit vectors whose dot product is their similarity."""

    name: str

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """One row per text, each of length 1."""
        ...


class WordLlamaEmbedder:
    """WordLlama's static token embeddings, pooled per text (its own inference code)."""

    name = "wordllama-l2-supercat-256"

    def __init__(self, model: Any) -> None:
        self._model = model

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Unit vectors, one row per text."""
        import numpy as np  # start-up: loaded with wordllama (below), grounding only

        vectors = np.asarray(self._model.embed(texts, norm=True), dtype=np.float32)
        return vectors.reshape(len(texts), -1)


def _load_wordllama() -> WordLlamaEmbedder | None:
    """WordLlama from the files its wheel ships, or None (with the reason logged) where it is
    not installed or its files cannot be read."""
    try:
        # start-up: wordllama, tokenizers and safetensors take ~0.3 s: only grounding needs them.
        import wordllama
        from safetensors import safe_open
        from tokenizers import Tokenizer
        from wordllama.inference import WordLlamaInference
    except ImportError:
        logger.debug("no sentence embedder: wordllama is not installed (citecore[embed])")
        return None
    root = Path(wordllama.__file__).parent
    try:
        tokenizer = Tokenizer.from_file(str(root.joinpath(*_TOKENIZER)))
        with safe_open(str(root.joinpath(*_WEIGHTS)), framework="np") as weights:
            table = weights.get_tensor("embedding.weight")
    except (OSError, RuntimeError, ValueError, KeyError) as error:
        logger.warning("the sentence embedder could not be read (%s): ranking is lexical", error)
        return None
    return WordLlamaEmbedder(WordLlamaInference(table, tokenizer))


@cache
def sentence_embedder() -> SentenceEmbedder | None:
    """The embedder of this installation, loaded once; None where there is none."""
    return _load_wordllama()


def ranking_name() -> str:
    """The name of the passage ranking this installation gives, without loading the embedder
    (for cache keys): "bm25", or "bm25+" and the embedder's name."""
    if importlib.util.find_spec("wordllama") is None:
        return "bm25"
    return f"bm25+{WordLlamaEmbedder.name}"
