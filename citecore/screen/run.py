"""A screening run on a Dask cluster: read every submission, verify each work once, report.

1. Every submission is read on the cluster (`reading.read_submission`); its readings stay there.
2. The references come back to the client, which groups them: each distinct reference once (by
   its content), grouped by the work it names (`works.work_key`). Works go out in batches
   (`tasks.verify_works`), every worker's registry client booking its requests in one
   `RateBook` the scheduler keeps, so each registry's published rate holds for the whole
   cluster.
3. Each submission is checked with its verdicts (`tasks.report_submission`, next to its
   reading) and its reports come back to be written, with its row of the venue's table.

Each phase sends its tasks a window at a time and takes their results as they finish
(`streams.streamed`). Verdicts and written reports are recorded as they come
(`state.ScreenState`): with `resume`, a killed run starts again where it stopped, and
`screen_venue` does so by itself when the scheduler is lost. Tasks are retried when a worker is
lost (a nanny starts it again).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from citecore.errors import CitecheckError
from citecore.files import write_atomically
from citecore.model import Outage, Reference, ReferenceResult
from citecore.options import Options
from citecore.screen.cluster import cluster_client
from citecore.screen.gate import ClusterRate, RateBookPlugin
from citecore.screen.packed import call_packed, pack
from citecore.screen.state import ScreenState, submission_stamp
from citecore.screen.streams import scheduler_lost, streamed
from citecore.screen.submissions import Submission
from citecore.screen.summary import summary_csv, summary_html, summary_json, totals_of
from citecore.screen.tasks import (
    Keyed,
    SubmissionReport,
    keyed_references,
    read_submissions,
    report_submissions,
    verify_works,
)

if TYPE_CHECKING:
    from distributed import Client, Future

logger = logging.getLogger(__name__)
T = TypeVar("T")
# Retries of a task whose worker died (results are idempotent: a rerun answers from the cache).
_RETRIES = 3
# Clusters a run may start: a scheduler lost that often is a fault of the machine, not chance.
_ATTEMPTS = 4


@dataclass(frozen=True, slots=True)
class ScreenSettings:
    """Where a run writes, whether it resumes there, how many works a task verifies and how
    many submissions a task reads or reports (fewer when every worker would get too few)."""

    out: Path
    resume: bool = False
    # Measured on 100,000 references on 2 workers, side by side (`bench/dblp_snapshot.py
    # --only-screen --screen 100000`): 100 works a task 886 and 932 references/s, 250 works
    # 1,086–1,168/s, 1,000 works 1,181 and 1,257/s. A task's own cost (its Dask round trip, its
    # verifier's event loop, its result sent and saved) is then spread over more references; a
    # killed run judges again at most the batches in flight, seconds of work.
    works_per_task: int = 1000
    submissions_per_task: int = 10


@dataclass
class ScreenOutcome:
    """What a run did: the venue table and how much the deduplication saved."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    totals: dict[str, Any] = field(default_factory=dict)
    references: int = 0  # references read, every submission's counted
    distinct: int = 0  # of them, distinct references (the same entry cited alike)
    works: int = 0  # distinct works they name


def screen(
    submissions: Sequence[Submission],
    options: Options,
    settings: ScreenSettings,
    client: Client,
    progress: Callable[[str], None] = lambda _: None,
) -> ScreenOutcome:
    """Screen `submissions` on `client`'s cluster into `settings.out`: per-submission reports
    (`<id>/report.json`, `<id>/REVIEW-CITES.md`) and the venue table (`summary.json`,
    `summary.csv`, `summary.html`)."""
    state = ScreenState(settings.out, settings.resume)
    reported = state.reported() if settings.resume else {}
    stamps = {s.id: submission_stamp(s) for s in submissions}
    todo = [s for s in submissions if reported.get(s.id, ("", {}))[0] != stamps[s.id]]
    progress(f"{len(submissions)} submissions, {len(submissions) - len(todo)} already reported")
    outcome = ScreenOutcome()
    cited = _read(client, todo, options, settings, outcome)
    verdicts = state.verdicts() if settings.resume else {}
    progress(
        f"{outcome.references} references: {outcome.distinct} distinct, naming "
        f"{outcome.works} works; {len(verdicts)} verdicts resumed"
    )
    works = _group_by_work(cited, verdicts)
    outage = _verify(client, works, options, settings, state, verdicts, progress)
    rows = {s_id: row for s_id, (_, row) in reported.items()}
    rows.update(
        _report(client, cited, verdicts, outage, options, stamps, state, settings.out, progress)
    )
    outcome.rows = [rows[s.id] for s in submissions if s.id in rows]
    outcome.totals = totals_of(outcome.rows)
    _write_summary(settings.out, outcome)
    return outcome


def screen_venue(
    submissions: Sequence[Submission],
    options: Options,
    settings: ScreenSettings,
    scheduler: str = "",
    workers: int = 2,
    progress: Callable[[str], None] = lambda _: None,
) -> ScreenOutcome:
    """`screen` on the scheduler at `scheduler`, else on a local cluster of `workers` started
    here. A lost scheduler is survived: the run starts its cluster again (or reconnects to
    `scheduler`) and resumes from what it saved, saying so in one line; no verdict or report
    already made is made again. Dask's logs go to `<out>/.citecheck-logs/`."""
    attempt, number = settings, 1
    while True:
        with cluster_client(scheduler, workers, settings.out / ".citecheck-logs") as client:
            try:
                return screen(submissions, options, attempt, client, progress)
            except Exception as exc:
                if not scheduler_lost(client, exc):
                    raise
                lost = exc
        saved = ScreenState(settings.out, resume=True)
        done = f"{len(saved.verdicts()):,} verdicts and {len(saved.reported()):,} reports saved"
        if number == _ATTEMPTS:
            raise CitecheckError(
                f"lost the Dask scheduler {number} times ({done}): see "
                f"{settings.out / '.citecheck-logs'}; run again with --resume"
            ) from lost
        where = f"reconnecting to {scheduler}" if scheduler else "starting the cluster again"
        progress(
            f"lost the Dask scheduler; {done}: {where} and resuming "
            f"(attempt {number + 1} of {_ATTEMPTS})"
        )
        attempt, number = replace(settings, resume=True), number + 1


@dataclass
class _Cited:
    """What the reading stage leaves: the submissions read, in groups, and each group's
    readings (a future: they stay on the cluster); each submission's reference content keys;
    every distinct reference by its content key, and the work each names."""

    submissions: list[Submission]
    groups: list[list[Submission]]
    readings: list[Any]  # a future of each group's SubmissionReadings
    keys: list[list[str]]
    contents: dict[str, Reference] = field(default_factory=dict)
    works: dict[str, str] = field(default_factory=dict)


def _batches(items: list[T], most: int, client: Client) -> list[list[T]]:
    """`items` in batches of at most `most`, small enough that every worker gets several,
    large enough to amortise a task."""
    workers = max(1, len(client.scheduler_info().get("workers", {})))
    size = max(1, min(most, -(-len(items) // (4 * workers))))
    return [items[start : start + size] for start in range(0, len(items), size)]


def _read(
    client: Client,
    todo: list[Submission],
    options: Options,
    settings: ScreenSettings,
    outcome: ScreenOutcome,
) -> _Cited:
    """Read every submission on the cluster; bring their references back, keyed and counted."""
    groups = _batches(todo, settings.submissions_per_task, client)
    readings: list[Any] = []

    def read(group: list[Submission]) -> Callable[[], Future[Any]]:
        def submit() -> Future[Any]:
            # pure=False: a task's key is then drawn, not hashed from its arguments (Dask's
            # hashing of a venue's references and verdicts took a third of the client's time).
            reading = client.submit(read_submissions, group, options, retries=_RETRIES, pure=False)
            readings.append(reading)  # kept on the cluster until the group is reported
            return client.submit(keyed_references, reading, retries=_RETRIES, pure=False)

        return submit

    keyed: dict[int, list[list[Keyed]]] = dict(streamed(client, map(read, groups)))
    cited = _Cited(todo, groups, readings, [])
    for index in range(len(groups)):  # in the submissions' order: the same batches each run
        for references in keyed.pop(index):
            cited.keys.append([content for content, _, _ in references])
            for content, work, reference in references:
                cited.contents[content] = reference
                cited.works[content] = work
            outcome.references += len(references)
    outcome.distinct = len(cited.contents)
    outcome.works = len(set(cited.works.values()))
    return cited


def _verify(
    client: Client,
    works: list[list[Reference]],
    options: Options,
    settings: ScreenSettings,
    state: ScreenState,
    verdicts: dict[str, ReferenceResult],
    progress: Callable[[str], None],
) -> Outage | None:
    """Verify the works in batches on the cluster, every worker booking its requests in the
    scheduler's rate book; add the verdicts to `verdicts` and the state as batches finish;
    return what the registries left unchecked."""
    try:
        client.register_plugin(RateBookPlugin())
    except Exception as exc:  # the scheduler's own environment: its error, told plainly
        if scheduler_lost(client, exc):
            raise
        raise CitecheckError(
            f"the Dask scheduler cannot keep citecheck's rate book ({type(exc).__name__}: "
            f"{exc}): install citecheck in the scheduler's environment too"
        ) from exc
    rate = ClusterRate()
    batches = _batches(works, settings.works_per_task, client)

    def verify(batch: list[list[Reference]]) -> Callable[[], Future[Any]]:
        # One task per batch, its works in its own graph: a venue's references in one graph
        # would be hundreds of MB, and scattered data would die with its worker.
        return lambda: client.submit(
            call_packed, verify_works, pack(batch, options, rate), retries=_RETRIES, pure=False
        )

    outage: Outage | None = None
    for done, (_, (found, batch_outage)) in enumerate(streamed(client, map(verify, batches)), 1):
        # What an outage left unchecked is not saved: a resumed run asks again.
        missed = set(batch_outage.unchecked) if batch_outage is not None else set()
        state.save_verdicts({c: r for c, r in found.items() if c not in missed})
        verdicts.update(found)
        if batch_outage is not None:
            outage = Outage.combined(outage, batch_outage)
        progress(f"verified {done}/{len(batches)} batches")
    return outage


def _report(
    client: Client,
    cited: _Cited,
    verdicts: dict[str, ReferenceResult],
    outage: Outage | None,
    options: Options,
    stamps: dict[str, str],
    state: ScreenState,
    out: Path,
    progress: Callable[[str], None],
) -> dict[str, dict[str, Any]]:
    """Check every submission read with its verdicts, next to its reading; write its reports
    as they come; return each one's row of the venue table."""
    starts = list(accumulate((len(group) for group in cited.groups), initial=0))

    def report(index: int) -> Callable[[], Future[Any]]:
        group, keys_of = cited.groups[index], cited.keys[starts[index] : starts[index + 1]]
        found = [{c: verdicts[c] for c in keys if c in verdicts} for keys in keys_of]
        names = [f"{submission.id}/REVIEW-CITES.md" for submission in group]
        return lambda: client.submit(
            call_packed,
            report_submissions,
            pack(found, outage, options, names),
            cited.readings[index],  # a future: Dask passes its reading
            retries=_RETRIES,
            pure=False,
        )

    unchecked = set(outage.unchecked) if outage is not None else set()
    incomplete = {
        s.id for s, keys in zip(cited.submissions, cited.keys, strict=True) if unchecked & set(keys)
    }
    rows = {}
    done = 0
    for index, reports in streamed(client, map(report, range(len(cited.groups)))):
        cited.readings[index] = None  # reported: its reading may leave the cluster
        for submission_report in reports:
            _write_reports(out, submission_report)
            identifier = submission_report.submission_id
            if identifier not in incomplete:  # else a resumed run reports it again
                state.save_report(identifier, stamps[identifier], submission_report.row)
            rows[identifier] = submission_report.row
        done += len(reports)
        progress(f"reported {done}/{len(cited.submissions)} submissions")
    return rows


def _group_by_work(cited: _Cited, verdicts: dict[str, ReferenceResult]) -> list[list[Reference]]:
    """The references without a verdict yet, grouped by the work they name, each group in
    first-seen order; a reference naming no recognisable work is a group of its own."""
    groups: dict[str, list[Reference]] = {}
    for content, reference in cited.contents.items():
        if content not in verdicts:
            groups.setdefault(cited.works[content], []).append(reference)
    return list(groups.values())


def _write_reports(out: Path, report: SubmissionReport) -> None:
    if not report.json_report:
        return
    folder = out / report.submission_id
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / "report.json", report.json_report)
    write_atomically(folder / "REVIEW-CITES.md", report.markdown_report)


def _write_summary(out: Path, outcome: ScreenOutcome) -> None:
    write_atomically(out / "summary.json", summary_json(outcome.rows, outcome.totals))
    write_atomically(out / "summary.csv", summary_csv(outcome.rows))
    title = f"citecheck screening: {outcome.totals.get('submissions', 0)} submissions"
    write_atomically(out / "summary.html", summary_html(outcome.rows, outcome.totals, title))
