"""How an option's value is read: each reader takes the option's name (for its message) and
the value as any layer gives it (text from the environment or the command line, YAML or TOML
values from files), and returns the field's value or raises OptionsError with one clear line."""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from citecore.errors import OptionsError
from citecore.model import SEVERITY, FindingKind, Severity
from citecore.options.record import JudgeKind, ReportFormat

_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n", ""}


def spelled(name: str) -> str:
    """An option's name as writers spell it (`fail-on`)."""
    return name.replace("_", "-")


def known(value: Any, names: Iterable[str]) -> str:
    """What to say after an unknown name: the likely one meant, else every name known."""
    import difflib  # start-up: every build reads options, few misspell one

    names = list(names)
    close = difflib.get_close_matches(str(value).strip().lower(), names, n=1)
    return f"did you mean {close[0]!r}?" if close else f"known: {', '.join(names)}"


def boolean(name: str, value: Any) -> bool:
    """true/false, yes/no, on/off, 1/0."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise OptionsError(f"option {spelled(name)}: expected true or false, got {value!r}")


def names(name: str, value: Any) -> tuple[str, ...]:
    """A list, or one comma-separated text."""
    del name  # any text is a name
    if isinstance(value, str):
        return tuple(v.strip() for v in value.split(",") if v.strip())
    if isinstance(value, Iterable):
        return tuple(str(v).strip() for v in value if str(v).strip())
    return (str(value),)


def text(name: str, value: Any) -> str:
    """Any text."""
    del name
    return str(value)


def path(name: str, value: Any) -> Path | None:
    """A path; empty for none."""
    del name
    return Path(str(value)) if value else None


def paths(name: str, value: Any) -> tuple[Path, ...]:
    """Paths: a list, or one comma-separated text; empty for none."""
    return tuple(Path(v) for v in names(name, value)) if value else ()


def kinds(name: str, value: Any) -> frozenset[FindingKind]:
    """Finding kinds by name; `errors` names every error-level kind (what strict fails on), so
    that `fail-on: [errors, outage]` adds outages to strict's set."""
    found: set[FindingKind] = set()
    for kind in names(name, value):
        canonical = kind.strip().lower().replace("-", "_")
        if canonical == "errors":
            found.update(k for k, s in SEVERITY.items() if s is Severity.ERROR)
            continue
        try:
            found.add(FindingKind(canonical))
        except ValueError as exc:
            hint = known(kind, ["errors", *(k.value for k in FindingKind)])
            raise OptionsError(
                f"option {spelled(name)}: unknown finding kind {kind!r} ({hint})"
            ) from exc
    return frozenset(found)


def report_format(name: str, value: Any) -> ReportFormat | None:
    """One of the report formats; empty for none (the report's name says)."""
    if not value:
        return None
    try:
        return ReportFormat(str(value).strip().lower())
    except ValueError as exc:
        hint = known(value, [f.value for f in ReportFormat])
        raise OptionsError(
            f"option {spelled(name)}: unknown report format {value!r} ({hint})"
        ) from exc


def judge(name: str, value: Any) -> JudgeKind | None:
    """The judge asked for; empty leaves the choice to the environment (gemini with a key,
    else local)."""
    chosen = str(value or "").strip().lower()
    if not chosen:
        return None
    try:
        return JudgeKind(chosen)
    except ValueError as exc:
        hint = known(value, [k.value for k in JudgeKind])
        raise OptionsError(f"option {spelled(name)}: unknown judge {value!r} ({hint})") from exc


def seconds(name: str, value: Any) -> float:
    """A positive, finite number of seconds."""
    try:
        number = float(value)
    except (TypeError, ValueError) as exc:
        raise OptionsError(f"option {spelled(name)}: expected seconds, got {value!r}") from exc
    if not (number > 0 and math.isfinite(number)):
        raise OptionsError(
            f"option {spelled(name)}: expected a positive, finite number of seconds, got {value!r}"
        )
    return number


def share(name: str, value: Any) -> float:
    """A share in (0, 1]."""
    try:
        number = float(value)
    except (TypeError, ValueError) as exc:
        raise OptionsError(f"option {spelled(name)}: expected a share, got {value!r}") from exc
    if not 0 < number <= 1:
        raise OptionsError(f"option {spelled(name)}: expected a share in (0, 1], got {value!r}")
    return number


def count(name: str, value: Any) -> int | None:
    """A whole number of at least 0; empty for none."""
    if value in (None, ""):
        return None
    try:
        number = int(str(value).strip())
    except ValueError as exc:
        raise OptionsError(
            f"option {spelled(name)}: expected a whole number, got {value!r}"
        ) from exc
    if number < 0:
        raise OptionsError(
            f"option {spelled(name)}: expected a whole number of at least 0, got {value!r}"
        )
    return number


def date(name: str, value: Any) -> str:
    """YYYY, YYYY-MM or YYYY-MM-DD naming a day, month or year of the calendar; empty for none."""
    written = str(value or "").strip()
    if not written:
        return written
    match = re.fullmatch(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?", written)
    try:
        if match is None:
            raise ValueError("not YYYY, YYYY-MM or YYYY-MM-DD")
        dt.date(int(match.group(1)), int(match.group(2) or 1), int(match.group(3) or 1))
    except ValueError:
        raise OptionsError(
            f"option {spelled(name)}: expected a date as YYYY, YYYY-MM or YYYY-MM-DD, got {value!r}"
        ) from None
    return written


def url(name: str, value: Any) -> str:
    """An http(s) URL, without a trailing slash."""
    written = str(value or "").strip().rstrip("/")
    if not re.fullmatch(r"https?://[^\s/]+(/\S*)?", written):
        raise OptionsError(f"option {spelled(name)}: expected an http(s) URL, got {value!r}")
    return written
