"""Grounding every citation of a document: sources → evidence → judge → alignment proof.

A compound citation (`[@a; @b]`) is judged once, against the pooled passages of all its
sources. Judgments are cached by (claim, the sources' SHA-256, judge, model, PROMPT_VERSION), so
an unchanged document rebuilds with no judging at all.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from citecore.cache import Cache, content_key
from citecore.errors import InputError
from citecore.fetch.local import source_records
from citecore.ground.align import AlignedSource
from citecore.ground.embedding import ranking_name, sentence_embedder
from citecore.ground.evidence import (
    PASSAGES_VERSION,
    EvidenceIndex,
    Passage,
    RankedPassage,
    passages,
)
from citecore.ground.judges import Judge, JudgeVerdict
from citecore.ground.judges.guard import guarded
from citecore.ground.judges.prompt import PROMPT_VERSION, user_message
from citecore.ground.text import SourceText, read_source
from citecore.model import (
    Bibliography,
    Citation,
    CitationId,
    CitationResult,
    GroundingStatus,
    SourceRecord,
)
from citecore.serialize import record_from_data, to_data

logger = logging.getLogger(__name__)

_CITATION_MARKS = re.compile(r"\[[^\]]*@[^\]]*\]|-?@[\w:.#$%&\-+?<>~/]+|\[…\]")


def claim_text(citation: Citation) -> str:
    """The claim without its citation markers ("[@a; @b]", "@a", "[…]")."""
    return " ".join(_CITATION_MARKS.sub(" ", citation.claim).split())


@dataclass
class _Sources:
    """Source texts read once per run, with their aligners, passages and passage embeddings
    (a source cited by many sentences is cut and embedded once)."""

    cache: Cache | None
    # The ranking's name is known without loading the embedder: a rebuild whose judgments are
    # all cached never loads it.
    ranking: str = field(default_factory=ranking_name)
    texts: dict[Path, SourceText | None] = field(default_factory=dict)
    problems: dict[Path, str] = field(default_factory=dict)
    aligners: dict[str, AlignedSource] = field(default_factory=dict)
    cut: dict[str, tuple[list[Passage], Any]] = field(default_factory=dict)

    def text(self, path: Path) -> SourceText | None:
        if path not in self.texts:
            try:
                self.texts[path] = read_source(path, self.cache)
            except InputError as exc:
                logger.warning("%s", exc)
                self.texts[path] = None
                self.problems[path] = str(exc)
        return self.texts[path]

    def index(self, texts: Sequence[SourceText]) -> EvidenceIndex:
        """The evidence index over the passages of `texts`, pooled."""
        embedder = sentence_embedder() if self.ranking != "bm25" else None
        for source in texts:
            if source.sha256 not in self.cut:
                found = passages(source)
                vectors = embedder.embed([p.text for p in found]) if embedder and found else None
                self.cut[source.sha256] = (found, vectors)
        pooled = [p for t in texts for p in self.cut[t.sha256][0]]
        if embedder is None or not pooled:
            return EvidenceIndex(pooled)
        import numpy as np  # start-up: only a run with an embedder stacks vectors

        vectors = np.vstack([self.cut[t.sha256][1] for t in texts if self.cut[t.sha256][0]])
        return EvidenceIndex(pooled, embedder, vectors)

    def aligner(self, source: SourceText) -> AlignedSource:
        if source.sha256 not in self.aligners:
            self.aligners[source.sha256] = AlignedSource(source)
        return self.aligners[source.sha256]


@dataclass(frozen=True, slots=True)
class Question:
    """One claim to judge: what the judge is asked, and what the answer is checked against."""

    citation: Citation
    claim: str
    evidence: tuple[RankedPassage, ...]
    keys: tuple[str, ...]
    texts: tuple[SourceText, ...]
    cache_key: str


@dataclass(frozen=True, slots=True)
class GroundingPlan:
    """How to run the judge: in one batch or one call at a time, how many, or not at all."""

    sequential: bool = False
    limit: int | None = None
    dry_run: bool = False


def ground_citations(
    citations: Sequence[Citation],
    bibliography: Bibliography,
    judge: Judge,
    sources_dir: Path | None = None,
    cache: Cache | None = None,
    plan: GroundingPlan | None = None,
    records: Mapping[str, SourceRecord] | None = None,
) -> dict[CitationId, CitationResult]:
    """A grounding verdict for every citation, by its identity. Cached judgments
    are reused; the rest are asked in one batch when the judge can (`judge_many`), else one by
    one. With a `limit` only that many are asked; a dry run logs the questions (at warning
    level: the shells show those) and asks none. `records` are the cited keys' source files
    when the caller has found them already."""
    plan = plan or GroundingPlan()
    if records is None:
        records = _source_records(citations, bibliography, sources_dir)
    state = _Sources(cache)
    results: dict[CitationId, CitationResult] = {}
    questions: list[Question] = []
    origins: dict[CitationId, str] = {}
    for citation in citations:
        keys = [k for k in (citation.key, *citation.cited_with) if k in records]
        origins[citation.ident] = ", ".join(
            dict.fromkeys(records[k].origin for k in keys if records[k].origin)
        )
        texts, unread = _texts(keys, records, state)
        if not texts:
            # An unreadable source is not judged: that would accuse the writer of our failure.
            missing = [records[k].missing for k in keys if records[k].missing]
            reason = "; ".join(unread or missing) or "no readable source file for this key"
            results[citation.ident] = CitationResult(
                GroundingStatus.NOT_IN_STORE, judge.name, judge.model, reason=reason
            )
            continue
        cache_key = _cache_key(citation, texts, judge, state.ranking)
        stored = cache.get("grounding", cache_key) if cache is not None else None
        if stored is not None:
            results[citation.ident] = record_from_data(CitationResult, json.loads(stored))
        else:
            # Only a question to ask cuts, embeds and ranks its sources' passages.
            questions.append(_question(citation, state.index(texts), texts, cache_key))
    questions = questions[: plan.limit] if plan.limit is not None else questions
    if plan.dry_run:
        _log_questions(questions)
    else:
        results |= _answers(judge, questions, plan.sequential, state, cache)
    return {ident: replace(result, source=origins[ident]) for ident, result in results.items()}


def _source_records(
    citations: Sequence[Citation], bibliography: Bibliography, sources_dir: Path | None
) -> Mapping[str, SourceRecord]:
    """The source files of every key the citations cite, looked for beside the bibliography
    and in `sources_dir`."""
    bibliography_dirs = [Path(s).parent for s in bibliography.sources if Path(s).is_file()]
    cited = dict.fromkeys(k for c in citations for k in (c.key, *c.cited_with))
    return source_records(
        [bibliography.references[k] for k in cited if k in bibliography.references],
        bibliography_dirs,
        sources_dir,
    )


def _texts(
    keys: Sequence[str], records: Mapping[str, SourceRecord], state: _Sources
) -> tuple[list[SourceText], list[str]]:
    """The readable texts of the keys' source files, and why each unreadable one is not."""
    texts, unread = [], []
    for key in keys:
        for name in records[key].files:
            source = state.text(Path(name))
            if source is not None:
                texts.append(source)
            elif Path(name) in state.problems:
                unread.append(state.problems[Path(name)])
    return texts, unread


def _log_questions(questions: Sequence[Question]) -> None:
    """A dry run's questions, each as the judge would be asked it."""
    for question in questions:
        logger.warning(
            "dry run, not asked:\n--- %s: %s\n%s",
            question.citation.location,
            question.claim,
            user_message(question.claim, question.evidence),
        )


def _answers(
    judge: Judge,
    questions: list[Question],
    sequential: bool,
    state: _Sources,
    cache: Cache | None,
) -> dict[CitationId, CitationResult]:
    """The judge's verdicts on the questions, proved against their sources and cached (an
    error is asked again next time)."""
    verdicts = _ask(judge, questions, sequential)
    results = {}
    for question, verdict in zip(questions, verdicts, strict=True):
        result = _proved(question, verdict, state)
        if cache is not None and result.status is not GroundingStatus.ERROR:
            cache.put("grounding", question.cache_key, json.dumps(to_data(result)))
        results[question.citation.ident] = result
    return results


def _cache_key(citation: Citation, texts: Sequence[SourceText], judge: Judge, ranking: str) -> str:
    """What a judgment is cached under: everything that decides it."""
    return content_key(
        PROMPT_VERSION,
        PASSAGES_VERSION,
        judge.name,
        judge.model,
        ranking,
        claim_text(citation),
        str(citation.signal is not None),
        *sorted(t.sha256 for t in texts),
    )


def _question(
    citation: Citation,
    evidence_index: EvidenceIndex,
    texts: Sequence[SourceText],
    cache_key: str,
) -> Question:
    claim = claim_text(citation)
    evidence = evidence_index.rank(claim)
    keys = (citation.key, *citation.cited_with)
    return Question(citation, claim, tuple(evidence), keys, tuple(texts), cache_key)


def _ask(judge: Judge, questions: list[Question], sequential: bool) -> list[JudgeVerdict]:
    """Every question's verdict: one batch when the judge offers one, else one at a time."""
    if not questions:
        return []
    many = getattr(judge, "judge_many", None)
    if many is not None and not sequential:
        verdicts: list[JudgeVerdict] = many(
            [(q.claim, list(q.evidence), q.keys) for q in questions]
        )
        return verdicts
    return [judge.judge(q.claim, q.evidence, q.keys) for q in questions]


def _proved(question: Question, verdict: JudgeVerdict, state: _Sources) -> CitationResult:
    """The verdict (guarded: no support against a conflict in its passage), with the alignment
    proof for a supporting passage."""
    verdict = guarded(verdict, question.claim)
    result = CitationResult(
        verdict.status, verdict.judge, verdict.model, passage=verdict.passage, reason=verdict.reason
    )
    if verdict.passage:
        # Every passage shown gets its page; only a supporting one must prove it is there.
        alignments = [state.aligner(t).align(verdict.passage) for t in question.texts]
        best = max(alignments, key=lambda a: (a.coverage, a.density))
        supporting = verdict.status in (GroundingStatus.SUPPORTED, GroundingStatus.PARTIAL)
        grounded = best.grounded(signal=question.citation.signal is not None)
        result = CitationResult(
            verdict.status,
            verdict.judge,
            verdict.model,
            ungrounded=supporting and not grounded,
            page=best.page if grounded else None,
            passage=verdict.passage,
            reason=verdict.reason,
        )
    return result
