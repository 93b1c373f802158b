"""Grounding every citation of a document: sources → evidence → judge → alignment proof.

A compound citation (`[@a; @b]`) is judged once, against the pooled passages of all its
sources. Judgments are cached by (claim, the sources' SHA-256, judge, model, PROMPT_VERSION), so
an unchanged document rebuilds with no judging at all.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from citecore.cache import Cache, content_key
from citecore.errors import InputError
from citecore.ground.align import AlignedSource
from citecore.ground.evidence import EvidenceIndex, passages
from citecore.ground.judges import Judge
from citecore.ground.judges.prompt import PROMPT_VERSION
from citecore.ground.sources import source_files
from citecore.ground.text import SourceText, read_source
from citecore.model import Bibliography, Citation, CitationResult, GroundingStatus
from citecore.serialize import record_from_data, to_data

logger = logging.getLogger(__name__)

_CITATION_MARKS = re.compile(r"\[[^\]]*@[^\]]*\]|-?@[\w:.#$%&\-+?<>~/]+|\[…\]")


def claim_text(citation: Citation) -> str:
    """The claim without its citation markers ("[@a; @b]", "@a", "[…]")."""
    return " ".join(_CITATION_MARKS.sub(" ", citation.claim).split())


@dataclass
class _Sources:
    """Source texts read once per run, with their aligners."""

    cache: Cache | None
    texts: dict[Path, SourceText | None] = field(default_factory=dict)
    aligners: dict[str, AlignedSource] = field(default_factory=dict)

    def text(self, path: Path) -> SourceText | None:
        if path not in self.texts:
            try:
                self.texts[path] = read_source(path, self.cache)
            except InputError as exc:
                logger.warning("%s", exc)
                self.texts[path] = None
        return self.texts[path]

    def aligner(self, source: SourceText) -> AlignedSource:
        if source.sha256 not in self.aligners:
            self.aligners[source.sha256] = AlignedSource(source)
        return self.aligners[source.sha256]


def ground_citations(
    citations: Sequence[Citation],
    bibliography: Bibliography,
    judge: Judge,
    sources_dir: Path | None = None,
    cache: Cache | None = None,
) -> dict[int, CitationResult]:
    """A grounding verdict for every citation, by its index in `citations`."""
    bibliography_dirs = [Path(s).parent for s in bibliography.sources if Path(s).is_file()]
    state = _Sources(cache)
    results: dict[int, CitationResult] = {}
    for index, citation in enumerate(citations):
        keys = (citation.key, *citation.cited_with)
        texts = []
        for key in keys:
            reference = bibliography.references.get(key)
            if reference is None:
                continue
            for path in source_files(reference, bibliography_dirs, sources_dir):
                source = state.text(path)
                if source is not None:
                    texts.append(source)
        if not texts:
            results[index] = CitationResult(
                GroundingStatus.NOT_IN_STORE,
                judge.name,
                judge.model,
                reason="no readable source file for this key",
            )
            continue
        results[index] = _judged(citation, texts, judge, state, cache)
    return results


def _judged(
    citation: Citation,
    texts: list[SourceText],
    judge: Judge,
    state: _Sources,
    cache: Cache | None,
) -> CitationResult:
    claim = claim_text(citation)
    key = content_key(
        PROMPT_VERSION,
        judge.name,
        judge.model,
        claim,
        str(citation.signal is not None),
        *sorted(t.sha256 for t in texts),
    )
    if cache is not None:
        stored = cache.get("grounding", key)
        if stored is not None:
            return record_from_data(CitationResult, json.loads(stored))
    index = EvidenceIndex([p for t in texts for p in passages(t)])
    keys = (citation.key, *citation.cited_with)
    verdict = judge.judge(claim, index.rank(claim), keys)
    result = CitationResult(
        verdict.status, verdict.judge, verdict.model, passage=verdict.passage, reason=verdict.reason
    )
    if verdict.status in (GroundingStatus.SUPPORTED, GroundingStatus.PARTIAL):
        alignments = [state.aligner(t).align(verdict.passage) for t in texts]
        best = max(alignments, key=lambda a: (a.coverage, a.density))
        result = CitationResult(
            verdict.status,
            verdict.judge,
            verdict.model,
            ungrounded=not best.grounded(signal=citation.signal is not None),
            page=best.page,
            passage=verdict.passage,
            reason=verdict.reason,
        )
    if cache is not None and result.status is not GroundingStatus.ERROR:
        cache.put("grounding", key, json.dumps(to_data(result)))
    return result
