"""The Options record every shell builds, and the choices some options take."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from citecore.model import FindingKind, SourceLocation


class ReportFormat(Enum):
    """Formats a report can be written in."""

    TABLE = "table"
    MARKDOWN = "markdown"
    JSON = "json"
    SARIF = "sarif"


class JudgeKind(Enum):
    """Who judges whether a source supports a claim."""

    LOCAL = "local"  # lexical rules on this machine
    OPENAI = "openai"  # any OpenAI-compatible chat endpoint
    GEMINI = "gemini"  # Gemini File Search over the cited sources


@dataclass(frozen=True, slots=True)
class OptionProblem:
    """An option value the run ignored: what was wrong, and where it was written (a file and,
    for a document's front matter, its line; none for the environment)."""

    message: str
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class Options:
    """Everything that steers one run, one field per option declared in `declared.py` (the
    defaults are these). `annotate=None` means "on unless the document says `draft: false`";
    `fail_on=None` means "errors fail the build in strict mode, else nothing"."""

    strict: bool = False
    fail_on: frozenset[FindingKind] | None = None
    annotate: bool | None = None
    report: Path | None = None
    report_format: ReportFormat | None = None  # None: the report file's suffix says
    offline: bool = False
    cache: Path | None = None
    bibliographies: tuple[str, ...] = ()
    only_issues: bool = False
    quiet: bool = False
    verify: bool = True
    email: str = ""
    refresh: bool = False
    snapshot: tuple[Path, ...] = ()  # asked together, each speaking for its own kinds
    timeout: float = 20.0
    ground: bool = False
    sources: Path | None = None
    judge: JudgeKind | None = None
    judge_url: str = ""
    judge_model: str = ""
    retry_model: str = ""
    sequential: bool = False
    limit: int | None = None
    dry_run: bool = False
    pool: Path | None = None
    pool_threshold: float = 0.9
    cutoff: str = ""
    grobid: str = ""
    # Sources the writer does not have: open-access copies and their Zotero library's PDFs.
    fetch_sources: bool = False
    zotero: bool = True
    zotero_url: str = "http://localhost:23119"
    zotero_data: Path | None = None  # None: Zotero's default, ~/Zotero
    today: dt.date = field(default_factory=dt.date.today)
    # What the lenient layers held that no option accepts ("CITECHECK_* environment: option
    # fail-on: unknown finding kind 'undefind' …"): ignored, reported as `bad_option`.
    problems: tuple[OptionProblem, ...] = ()
