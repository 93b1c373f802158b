"""What a cluster worker runs: plain functions of picklable records, each safe to run twice
(Dask retries a task whose worker was lost; a second run finds its answers in the cache)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from citecore.model import Outage, Reference, ReferenceResult
from citecore.options import Options, ReportFormat
from citecore.policy import exit_status
from citecore.report import render_report
from citecore.screen.reading import (
    KnownVerdicts,
    SubmissionReading,
    check_submission,
    read_submission,
)
from citecore.screen.submissions import Submission
from citecore.screen.summary import submission_row, unread_row
from citecore.screen.works import work_key
from citecore.verify.registry import registry_verifier, verdict_key

if TYPE_CHECKING:
    from citecore.registries.http import SharedRate


def read_submissions(
    submissions: Sequence[Submission], options: Options
) -> list[SubmissionReading]:
    """Each of a group of submissions read (`reading.read_submission`): one task reads several,
    so that a venue of 20,000 submissions is not 20,000 tasks for the scheduler to keep."""
    return [read_submission(submission, options) for submission in submissions]


Keyed = tuple[str, str, Reference]  # (content key, work key, reference)


def keyed_references(readings: Sequence[SubmissionReading]) -> list[list[Keyed]]:
    """(content key, work key, reference) of each reference each reading found: keyed on the
    worker where it was read (a client keying a million references kept the workers idle). The
    work key is the content key for a reference naming no recognisable work."""
    keyed = []
    for reading in readings:
        found: list[Keyed] = []
        for reference in reading.references:
            content = verdict_key(reference)
            found.append((content, work_key(reference) or content, reference))
        keyed.append(found)
    return keyed


def verify_works(
    works: Sequence[Sequence[Reference]], options: Options, rate: SharedRate | None
) -> tuple[dict[str, ReferenceResult], Outage | None]:
    """Verdicts for every reference of `works` (each a group of references to one work), by
    reference content key, and the outage among them (its `unchecked` are content keys). The
    first reference of each work is judged before the others, so that theirs are answered from
    the lookups it cached: a work cited by 300 submissions is fetched once."""
    verifier = registry_verifier(options, shared_rate=rate)
    if verifier is None:
        return {}, None
    # Keys repeat across submissions ("smith2020" twice, two different entries): each reference
    # is judged under its content key, and gets its own key back.
    original: dict[str, Reference] = {}
    firsts: list[Reference] = []
    others: list[Reference] = []
    for work in works:
        for position, reference in enumerate(work):
            content = verdict_key(reference)
            original[content] = reference
            (others if position else firsts).append(replace(reference, key=content))
    found = dict(verifier.verify(firsts))
    found.update(verifier.verify(others))
    verdicts = {c: replace(r, key=original[c].key) for c, r in found.items() if c in original}
    return verdicts, verifier.outage


@dataclass(frozen=True, slots=True)
class SubmissionReport:
    """A submission's reports as text and its row of the venue table."""

    submission_id: str
    row: dict[str, Any]
    json_report: str = ""
    markdown_report: str = ""


def report_submission(
    reading: SubmissionReading,
    verdicts: Mapping[str, ReferenceResult],
    unchecked: Outage | None,
    options: Options,
    report_name: str,
) -> SubmissionReport:
    """The submission checked with the verdicts found on the cluster, rendered as the JSON
    report and REVIEW-CITES.md that `citecheck verify`/`check`/`latex` write, with its row."""
    submission = reading.submission
    if reading.error:
        return SubmissionReport(submission.id, unread_row(submission, reading.error))
    try:
        result = check_submission(reading, options, KnownVerdicts(verdicts, unchecked))
    except Exception as exc:  # read once already: a second reading failing is still no crash
        return SubmissionReport(submission.id, unread_row(submission, f"{submission.path}: {exc}"))
    row = submission_row(submission, result, report_name)
    row["exit_status"] = int(exit_status(result, options))  # what `verify`/`check` would exit
    return SubmissionReport(
        submission.id,
        row,
        render_report(result, ReportFormat.JSON, only_issues=False),
        render_report(result, ReportFormat.MARKDOWN, only_issues=False),
    )


def report_submissions(
    readings: Sequence[SubmissionReading],
    verdicts: Sequence[Mapping[str, ReferenceResult]],
    unchecked: Outage | None,
    options: Options,
    report_names: Sequence[str],
) -> list[SubmissionReport]:
    """`report_submission` for each of a group of readings, with its verdicts and report name."""
    return [
        report_submission(reading, found, unchecked, options, name)
        for reading, found, name in zip(readings, verdicts, report_names, strict=True)
    ]
