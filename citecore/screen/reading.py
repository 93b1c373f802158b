"""One submission read and checked as the single-machine commands do it, in two halves: first
the references it would have verified (so that the cluster can look each work up once), then the
check itself with the verdicts found meanwhile.

A PDF, a bibliography or a text list is read once: its Bibliography travels from the first half
to the second. A Markdown document or a LaTeX project is read again in the second half (pandoc
or pylatexenc, cheap beside the registries).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from citecore.api import check_latex_file, check_markdown_file
from citecore.api.bibliography import load_inputs, verify_bibliography
from citecore.model import (
    Bibliography,
    CheckResult,
    Outage,
    Reference,
    ReferenceResult,
)
from citecore.options import Options
from citecore.screen.submissions import Submission, SubmissionKind
from citecore.verify import Verifier
from citecore.verify.registry import verdict_key

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SubmissionReading:
    """What the first half found: the references to verify, the bibliography of a PDF or list
    submission, or why the submission could not be read."""

    submission: Submission
    references: tuple[Reference, ...] = ()
    bibliography: Bibliography | None = None
    error: str = ""


class _Collecting:
    """A Verifier that judges nothing and remembers what it was asked to judge."""

    def __init__(self) -> None:
        self.outage: Outage | None = None
        self.asked: list[Reference] = []

    def verify(self, references: Sequence[Reference]) -> Mapping[str, ReferenceResult]:
        """Nothing judged; `references` remembered."""
        self.asked.extend(references)
        return {}


class KnownVerdicts:
    """A Verifier answering from verdicts judged elsewhere, by each reference's content; with
    the outage of the references among them that could not be checked."""

    def __init__(self, verdicts: Mapping[str, ReferenceResult], unchecked: Outage | None) -> None:
        self._verdicts = verdicts
        self._unchecked = unchecked
        self.outage: Outage | None = None

    def verify(self, references: Sequence[Reference]) -> Mapping[str, ReferenceResult]:
        """The known verdict of each reference (keyed by its own key); `outage` names those of
        them the registries left unchecked."""
        found = {}
        for reference in references:
            verdict = self._verdicts.get(verdict_key(reference))
            if verdict is not None:
                found[reference.key] = verdict
        if self._unchecked is not None:
            missed = set(self._unchecked.unchecked)
            keys = tuple(r.key for r in references if verdict_key(r) in missed)
            if keys:
                self.outage = Outage(
                    keys,
                    self._unchecked.unreachable,
                    self._unchecked.rate_limited,
                    self._unchecked.failed,
                    self._unchecked.network_down,
                )
        return found


def read_submission(submission: Submission, options: Options) -> SubmissionReading:
    """The references `submission`'s check verifies — every entry of a PDF, bibliography or
    list; the cited entries of a document — or the one-line reason it could not be read. Never
    raises for what the submission holds: one unreadable submission is a row of the venue's
    table, not the end of the run."""
    if submission.kind is SubmissionKind.NOTHING:
        return SubmissionReading(
            submission,
            error=f"{submission.path}: no PDF, LaTeX main file, Markdown document or bibliography",
        )
    try:
        if submission.kind in (SubmissionKind.PDF, SubmissionKind.BIBLIOGRAPHY):
            bibliography = load_inputs([submission.path], options.grobid, options.timeout)
            references = tuple(bibliography.references.values())
            return SubmissionReading(submission, references, bibliography)
        collecting = _Collecting()
        _check_document(submission, options, collecting)
        return SubmissionReading(submission, tuple(collecting.asked))
    except Exception as exc:  # a damaged submission of any kind: reported, the run goes on
        logger.warning("%s: could not be read: %s", submission.path, exc)
        return SubmissionReading(submission, error=f"{submission.path}: {exc}")


def check_submission(
    reading: SubmissionReading, options: Options, verifier: Verifier
) -> CheckResult:
    """The submission's check with `verifier`'s verdicts: the result `citecheck verify` (a PDF
    or a bibliography), `check` (Markdown) or `latex` (LaTeX) would give."""
    if reading.bibliography is not None:
        return verify_bibliography(
            reading.bibliography,
            options,
            documents=(str(reading.submission.path),),
            verifier=verifier,
        )
    return _check_document(reading.submission, options, verifier)


def _check_document(submission: Submission, options: Options, verifier: Verifier) -> CheckResult:
    if submission.kind is SubmissionKind.LATEX:
        return check_latex_file(submission.path, options, verifier)
    return check_markdown_file(submission.path, options, verifier).result
