"""Every option, declared once: its name (`fail-on` in files and metadata, `CITECHECK_FAIL_ON`
in the environment), the Options field it fills, how its value is read, what it means, and how
the command line spells it. The environment layer, the project file's paths, the options that
ask for grounding, the command-line flags and `cli_layer` are all read from this table; adding
an option is one entry here and one field of `Options` (tests/options/test_options.py holds the
two to each other)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from citecore.options import values
from citecore.options.record import JudgeKind


@dataclass(frozen=True, slots=True)
class Flag:
    """How the command line spells an option: a switch that turns it on (`--offline`) or off
    (`--no-verify`), or a flag that takes a value (`--timeout SECONDS`)."""

    spelling: str
    switch: bool | None = None  # True: sets the option on; False: off; None: takes a value
    metavar: str = ""
    short: str = ""  # a one-letter spelling too ("-q")
    says: str = ""  # what the flag does, where that is not the option's meaning ("--no-verify")
    repeated: bool = False  # a value flag that may be given more than once (`--snapshot A`…)


@dataclass(frozen=True, slots=True)
class Declared:
    """One option."""

    name: str
    read: Callable[[str, Any], Any]
    meaning: str
    flag: Flag | None = None
    field: str = ""  # the Options field, when not the name
    # A path in citecheck.toml, read relative to the file.
    path: bool = False
    # Meaningless without grounding: giving it asks for grounding.
    grounding: bool = False

    @property
    def target(self) -> str:
        """The Options field this option fills."""
        return self.field or self.name


_JUDGES = ", ".join(kind.value for kind in JudgeKind)

DECLARED: tuple[Declared, ...] = (
    Declared(
        "strict",
        values.boolean,
        "every error-level finding fails the run (exit 1)",
        Flag("--strict", switch=True),
    ),
    Declared(
        "fail_on",
        values.kinds,
        "finding kinds that fail the run (`errors` for every error kind, `outage`)",
        Flag("--fail-on", metavar="KIND[,KIND…]"),
    ),
    Declared("annotate", values.boolean, "margin notes, highlights or comments in the output"),
    Declared("report", values.path, "write a report to this path"),
    Declared(
        "format", values.report_format, "report format", field="report_format"
    ),  # the command line's -f, which also names formats that are not reports
    Declared(
        "offline",
        values.boolean,
        "no network: cached registry answers only",
        Flag("--offline", switch=True),
    ),
    Declared(
        "cache",
        values.path,
        "cache database (default: the user cache)",
        Flag("--cache", metavar="PATH"),
        path=True,
    ),
    Declared(
        "bibliography", values.names, "bibliographies to use", field="bibliographies"
    ),  # the command line's repeatable --bib
    Declared("only_issues", values.boolean, "leave out information-level rows"),
    Declared(
        "quiet",
        values.boolean,
        "print only the findings that fail the run",
        Flag("--quiet", switch=True, short="-q"),
    ),
    Declared(
        "verify",
        values.boolean,
        "check each cited reference against the registries",
        Flag("--no-verify", switch=False, says="skip registry verification (local checks only)"),
    ),
    Declared(
        "email",
        values.text,
        "contact address sent to the registries",
        Flag("--email", metavar="ADDR"),
    ),
    Declared(
        "refresh",
        values.boolean,
        "ask the registries again, ignoring cached answers",
        Flag("--refresh", switch=True),
    ),
    Declared(
        "snapshot",
        values.paths,
        "local snapshots of registry records (files or folders), asked first",
        Flag("--snapshot", metavar="FILE", repeated=True),
        path=True,
    ),
    Declared(
        "timeout",
        values.seconds,
        "per-request timeout for the registries (default 20)",
        Flag("--timeout", metavar="SECONDS"),
    ),
    Declared(
        "ground",
        values.boolean,
        "check that each cited source supports its claim (local judge)",
        Flag("--ground", switch=True),
    ),
    Declared(
        "sources",
        values.path,
        "folder of source files named <key>.pdf|.md|.txt",
        Flag("--sources", metavar="DIR"),
        path=True,
        grounding=True,
    ),
    Declared(
        "judge",
        values.judge,
        f"who judges support: {_JUDGES} (turns --ground on; default: gemini with a key, "
        "else local)",
        Flag("--judge", metavar="JUDGE"),
        grounding=True,
    ),
    Declared(
        "judge_url",
        values.text,
        "an OpenAI-compatible endpoint",
        Flag("--judge-url", metavar="URL"),
        grounding=True,
    ),
    Declared(
        "judge_model",
        values.text,
        "the judge's model name",
        Flag("--judge-model", metavar="NAME"),
        grounding=True,
    ),
    Declared(
        "retry_model",
        values.text,
        "ask UNSUPPORTED and UNCONFIRMED claims again with this (stronger) Gemini model",
        Flag("--retry-model", metavar="NAME"),
        grounding=True,
    ),
    Declared(
        "sequential",
        values.boolean,
        "one model call at a time instead of one batch",
        Flag("--sequential", switch=True),
    ),
    Declared("limit", values.count, "judge at most N citations", Flag("--limit", metavar="N")),
    Declared(
        "dry_run",
        values.boolean,
        "print the questions a judge would get, make no call",
        Flag("--dry-run", switch=True),
    ),
    Declared(
        "pool",
        values.path,
        "the literature pool the document must cover",
        Flag("--pool", metavar="POOL.json"),
        path=True,
    ),
    Declared(
        "pool_threshold",
        values.share,
        "share of the pool the document must cite (default 0.9)",
        Flag("--pool-threshold", metavar="SHARE"),
    ),
    Declared(
        "cutoff",
        values.date,
        "cited works must be published strictly before this date",
        Flag("--cutoff", metavar="YYYY[-MM[-DD]]"),
    ),
    Declared(
        "grobid",
        values.text,
        "read PDF reference lists with the GROBID server at URL (else citecheck's reader)",
        Flag("--grobid", metavar="URL"),
    ),
    Declared("fetch_sources", values.boolean, "fetch open-access copies of cited sources"),
    Declared(
        "zotero",
        values.boolean,
        "look for sources in the writer's Zotero library",
        Flag("--no-zotero", switch=False, says="do not look in the Zotero library"),
    ),
    Declared(
        "zotero_url",
        values.url,
        "Zotero's local API (default http://localhost:23119)",
        Flag("--zotero-url", metavar="URL"),
    ),
    Declared(
        "zotero_data",
        values.path,
        "Zotero's data folder (default ~/Zotero)",
        Flag("--zotero-data", metavar="DIR"),
        path=True,
    ),
)

BY_NAME = {declared.name: declared for declared in DECLARED}
OPTION_NAMES = tuple(BY_NAME)
