"""One Options object for every shell, built from layers of raw settings.

Precedence, highest first: command line > environment (`CITECHECK_<OPTION>`) > document metadata
(`citecheck:` map) > project file (`citecheck.toml` beside the document) > defaults. Each layer
is a plain mapping of option names (`fail-on`, `fail_on` and `FAIL_ON` are the same name); values
are validated once, here, so a bad value is one clear error wherever it came from.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

from citecore.errors import OptionsError
from citecore.model import SEVERITY, FindingKind, Severity


class ReportFormat(Enum):
    """Formats a report can be written in."""

    TABLE = "table"
    MARKDOWN = "markdown"
    JSON = "json"
    SARIF = "sarif"


OPTION_NAMES = (
    "strict",
    "fail_on",
    "annotate",
    "report",
    "format",
    "offline",
    "cache",
    "bibliography",
    "only_issues",
    "quiet",
    "verify",
    "email",
    "refresh",
    "snapshot",
    "timeout",
    "ground",
    "sources",
    "judge",
    "judge_url",
    "judge_model",
    "retry_model",
    "sequential",
    "limit",
    "dry_run",
    "pool",
    "pool_threshold",
    "cutoff",
    "grobid",
    "fetch_sources",
    "zotero",
    "zotero_url",
    "zotero_data",
)
_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n", ""}
PROJECT_FILE = "citecheck.toml"
DEFAULT_SOURCES = "sources"  # the sources folder beside a document, unless told otherwise


@dataclass(frozen=True, slots=True)
class Options:
    """Everything that steers one run. `annotate=None` means "on unless the document says
    `draft: false`"; `fail_on=None` means "errors fail the build in strict mode, else nothing"."""

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
    snapshot: Path | None = None
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
    problems: tuple[str, ...] = ()


def _canonical(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def _known(value: Any, names: Iterable[str]) -> str:
    """What to say after an unknown name: the likely one meant, else every name known."""
    import difflib  # only when a value is wrong: every build reads options, few misspell one

    names = list(names)
    close = difflib.get_close_matches(str(value).strip().lower(), names, n=1)
    return f"did you mean {close[0]!r}?" if close else f"known: {', '.join(names)}"


def _as_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise OptionsError(f"option {name}: expected true or false, got {value!r}")


def _as_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, Iterable):
        return [str(v).strip() for v in value if str(v).strip()]
    return [str(value)]


def _as_kinds(value: Any) -> frozenset[FindingKind]:
    """Finding kinds by name; `errors` names every error-level kind (what strict fails on), so
    that `fail-on: [errors, outage]` adds outages to strict's set."""
    kinds: set[FindingKind] = set()
    for name in _as_list(value):
        if _canonical(name) == "errors":
            kinds.update(k for k, s in SEVERITY.items() if s is Severity.ERROR)
            continue
        try:
            kinds.add(FindingKind(_canonical(name)))
        except ValueError as exc:
            known = _known(name, ["errors", *(k.value for k in FindingKind)])
            raise OptionsError(f"option fail-on: unknown finding kind {name!r} ({known})") from exc
    return frozenset(kinds)


def _as_format(value: Any) -> ReportFormat:
    try:
        return ReportFormat(str(value).strip().lower())
    except ValueError as exc:
        known = _known(value, [f.value for f in ReportFormat])
        raise OptionsError(f"option format: unknown report format {value!r} ({known})") from exc


def _as_seconds(value: Any) -> float:
    try:
        seconds = float(value)
    except (TypeError, ValueError) as exc:
        raise OptionsError(f"option timeout: expected seconds, got {value!r}") from exc
    if seconds <= 0:
        raise OptionsError(f"option timeout: expected a positive number, got {value!r}")
    return seconds


class JudgeKind(Enum):
    """Who judges whether a source supports a claim."""

    LOCAL = "local"  # lexical rules on this machine
    OPENAI = "openai"  # any OpenAI-compatible chat endpoint
    GEMINI = "gemini"  # Gemini File Search over the cited sources


def _as_judge(value: Any) -> JudgeKind | None:
    """The judge asked for; None leaves the choice to the environment (gemini with a key,
    else local)."""
    name = str(value).strip().lower()
    if not name:
        return None
    try:
        return JudgeKind(name)
    except ValueError as exc:
        known = _known(value, [k.value for k in JudgeKind])
        raise OptionsError(f"option judge: unknown judge {value!r} ({known})") from exc


def _as_share(value: Any) -> float:
    try:
        share = float(value)
    except (TypeError, ValueError) as exc:
        raise OptionsError(f"option pool-threshold: expected a share, got {value!r}") from exc
    if not 0 < share <= 1:
        raise OptionsError(f"option pool-threshold: expected a share in (0, 1], got {value!r}")
    return share


def _as_limit(value: Any) -> int | None:
    if value in (None, ""):
        return None
    try:
        limit = int(str(value).strip())
    except ValueError as exc:
        raise OptionsError(f"option limit: expected a whole number, got {value!r}") from exc
    if limit < 0:
        raise OptionsError(f"option limit: expected a whole number of at least 0, got {value!r}")
    return limit


def _as_cutoff(value: Any) -> str:
    text = str(value or "").strip()
    if text and not re.fullmatch(r"\d{4}(-\d{1,2}(-\d{1,2})?)?", text):
        raise OptionsError(f"option cutoff: expected YYYY, YYYY-MM or YYYY-MM-DD, got {value!r}")
    return text


def _as_url(name: str, value: Any) -> str:
    text = str(value or "").strip().rstrip("/")
    if not re.fullmatch(r"https?://[^\s/]+(/\S*)?", text):
        raise OptionsError(
            f"option {name.replace('_', '-')}: expected an http(s) URL, got {value!r}"
        )
    return text


def environment_layer(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The options set as `CITECHECK_<OPTION>` in the environment."""
    environ = os.environ if environ is None else environ
    layer = {}
    for name in OPTION_NAMES:
        value = environ.get(f"CITECHECK_{name.upper()}")
        if value is not None:
            layer[name] = value
    return layer


_PATH_OPTIONS = frozenset({"sources", "cache", "snapshot", "pool", "zotero_data"})


def project_layer(folder: Path) -> dict[str, Any]:
    """The `[citecheck]` table (or top level) of `citecheck.toml` in `folder`, if there is one."""
    path = folder / PROJECT_FILE
    if not path.is_file():
        return {}
    import tomllib  # only for projects with the file

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, OSError, UnicodeDecodeError) as exc:
        raise OptionsError(f"{path}: cannot read project options: {exc}") from exc
    table = data.get("citecheck", data)
    if not isinstance(table, Mapping):
        raise OptionsError(f"{path}: `citecheck` must be a table of options, not {table!r}")
    # Paths in the file are relative to the file, wherever citecheck is run from (a build in
    # the project folder, `citecheck check docs/paper.md` from above it, an editor's server).
    return {
        name: str(folder / value)
        if name in _PATH_OPTIONS
        and isinstance(value, str)
        and value
        and not Path(value).is_absolute()
        else value
        for name, value in table.items()
    }


def resolve_options(
    cli: Mapping[str, Any],
    *,
    folder: Path | None = None,
    metadata: Mapping[str, Any] | None = None,
    base: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    metadata_origin: str = "document metadata",
) -> Options:
    """The options of one run, the same way for every shell (the CLI's `check`, `latex` and
    `verify`, the pandoc filter, the latexmk hook): the shell's own defaults (`base`) <
    `citecheck.toml` in `folder` < the document's `citecheck:` metadata < `CITECHECK_*` in
    the environment < command-line flags.

    A bad value typed on the command line is an OptionsError (the writer is there to fix it).
    One written in a file, the metadata or the environment is ignored — that option keeps what
    the layers below give it, so a typo never turns checking off — and said in `problems`,
    naming where it was written (the toml file, `metadata_origin`, the environment)."""
    problems: list[str] = []
    project_origin = str(folder / PROJECT_FILE) if folder is not None else PROJECT_FILE
    try:
        project = project_layer(folder) if folder is not None else {}
    except OptionsError as exc:
        problems.append(f"{exc}; its options were ignored")
        project = {}
    named_layers = (
        (project_origin, project),
        (f"{metadata_origin}: citecheck metadata", metadata or {}),
        ("CITECHECK_* environment", environment_layer(environ)),
    )
    kept_layers = []
    for origin, layer in named_layers:
        kept: dict[str, Any] = {}
        for name, value in layer.items():
            try:
                build_options({name: value})
            except OptionsError as exc:
                problems.append(f"{origin}: {exc}; ignored, so the option keeps its default")
                continue
            kept[name] = value
        kept_layers.append(kept)
    options = build_options(base or {}, *kept_layers, cli)
    if options.sources is None and folder is not None:
        # The conventional place: `sources/` beside the document, when it is there or is to be
        # filled (never a reason by itself to ground).
        default = folder / DEFAULT_SOURCES
        if options.fetch_sources or default.is_dir():
            options = replace(options, sources=default)
    return replace(options, problems=tuple(problems))


# Options that mean nothing without grounding: giving one asks for it.
_GROUNDING_OPTIONS = ("judge", "judge_url", "judge_model", "retry_model", "sources")


def build_options(*layers: Mapping[str, Any], today: dt.date | None = None) -> Options:
    """Options from layers given lowest precedence first; unknown names are an error. An option
    that only grounding uses (`judge`, `sources`, …) turns grounding on unless a layer says
    `ground: false`."""
    merged: dict[str, Any] = {}
    for layer in layers:
        for name, value in layer.items():
            canonical = _canonical(name)
            if canonical not in OPTION_NAMES:
                known = _known(canonical, OPTION_NAMES).replace("_", "-")
                raise OptionsError(f"unknown citecheck option {name!r} ({known})")
            if value is not None:
                merged[canonical] = value
    if "ground" not in merged and any(merged.get(name) for name in _GROUNDING_OPTIONS):
        merged["ground"] = True
    return Options(
        strict=_as_bool("strict", merged.get("strict", False)),
        fail_on=_as_kinds(merged["fail_on"]) if "fail_on" in merged else None,
        annotate=_as_bool("annotate", merged["annotate"]) if "annotate" in merged else None,
        report=Path(str(merged["report"])) if merged.get("report") else None,
        report_format=_as_format(merged["format"]) if merged.get("format") else None,
        offline=_as_bool("offline", merged.get("offline", False)),
        cache=Path(str(merged["cache"])) if merged.get("cache") else None,
        bibliographies=tuple(_as_list(merged.get("bibliography", []))),
        only_issues=_as_bool("only_issues", merged.get("only_issues", False)),
        quiet=_as_bool("quiet", merged.get("quiet", False)),
        verify=_as_bool("verify", merged.get("verify", True)),
        email=str(merged.get("email", "")),
        refresh=_as_bool("refresh", merged.get("refresh", False)),
        snapshot=Path(str(merged["snapshot"])) if merged.get("snapshot") else None,
        timeout=_as_seconds(merged.get("timeout", 20.0)),
        ground=_as_bool("ground", merged.get("ground", False)),
        sources=Path(str(merged["sources"])) if merged.get("sources") else None,
        judge=_as_judge(merged.get("judge", "")),
        judge_url=str(merged.get("judge_url", "")),
        judge_model=str(merged.get("judge_model", "")),
        retry_model=str(merged.get("retry_model", "")),
        sequential=_as_bool("sequential", merged.get("sequential", False)),
        limit=_as_limit(merged.get("limit")),
        dry_run=_as_bool("dry_run", merged.get("dry_run", False)),
        pool=Path(str(merged["pool"])) if merged.get("pool") else None,
        pool_threshold=_as_share(merged.get("pool_threshold", 0.9)),
        cutoff=_as_cutoff(merged.get("cutoff", "")),
        grobid=str(merged.get("grobid", "")),
        fetch_sources=_as_bool("fetch_sources", merged.get("fetch_sources", False)),
        zotero=_as_bool("zotero", merged.get("zotero", True)),
        zotero_url=_as_url("zotero_url", merged.get("zotero_url", "http://localhost:23119")),
        zotero_data=Path(str(merged["zotero_data"])) if merged.get("zotero_data") else None,
        today=today or dt.date.today(),
    )
