"""One Options object for every shell, built from layers of raw settings.

Precedence, highest first: command line > environment (`CITECHECK_<OPTION>`) > document metadata
(`citecheck:` map) > project file (`citecheck.toml` beside the document) > defaults. Each layer
is a plain mapping of option names (`fail-on`, `fail_on` and `FAIL_ON` are the same name); values
are validated once, by the readers `declared.py` names, so a bad value is one clear error
wherever it came from.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from citecore.errors import OptionsError
from citecore.model import SourceLocation
from citecore.options.declared import BY_NAME, DECLARED, OPTION_NAMES
from citecore.options.record import OptionProblem, Options
from citecore.options.values import known, spelled

PROJECT_FILE = "citecheck.toml"
DEFAULT_SOURCES = "sources"  # the sources folder beside a document, unless told otherwise


def _canonical(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def _is_path(name: str) -> bool:
    declared = BY_NAME.get(_canonical(name))
    return declared is not None and declared.path


def environment_layer(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The options set as `CITECHECK_<OPTION>` in the environment."""
    environ = os.environ if environ is None else environ
    layer = {}
    for name in OPTION_NAMES:
        value = environ.get(f"CITECHECK_{name.upper()}")
        if value is not None:
            layer[name] = value
    return layer


def project_layer(folder: Path) -> dict[str, Any]:
    """The `[citecheck]` table (or top level) of `citecheck.toml` in `folder`, if there is one."""
    path = folder / PROJECT_FILE
    if not path.is_file():
        return {}
    import tomllib  # start-up: only for projects with the file

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
        name: _beside(folder, value) if _is_path(name) else value for name, value in table.items()
    }


def _beside(folder: Path, value: Any) -> Any:
    """A path (or a list of paths) written in the project file, relative to its folder."""
    if isinstance(value, list):
        return [_beside(folder, item) for item in value]
    if isinstance(value, str) and value and not Path(value).is_absolute():
        return str(folder / value)
    return value


def resolve_options(
    cli: Mapping[str, Any],
    *,
    folder: Path | None = None,
    metadata: Mapping[str, Any] | None = None,
    base: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
    metadata_origin: str = "document metadata",
    metadata_lines: Mapping[str, int] | None = None,
) -> Options:
    """The options of one run, the same way for every shell (the CLI's `check`, `latex` and
    `verify`, the pandoc filter, the latexmk hook): the shell's own defaults (`base`) <
    `citecheck.toml` in `folder` < the document's `citecheck:` metadata < `CITECHECK_*` in
    the environment < command-line flags.

    A bad value typed on the command line is an OptionsError (the writer is there to fix it).
    One written in a file, the metadata or the environment is ignored — that option keeps what
    the layers below give it, so a typo never turns checking off — and said in `problems`,
    naming where it was written (the toml file, `metadata_origin` with the option's line from
    `metadata_lines` when known, the environment)."""
    problems: list[OptionProblem] = []
    project_file = str(folder / PROJECT_FILE) if folder is not None else PROJECT_FILE
    try:
        project = project_layer(folder) if folder is not None else {}
    except OptionsError as exc:
        problems.append(OptionProblem(f"{exc}; its options were ignored"))
        project = {}
    document = SourceLocation(metadata_origin) if metadata_lines is not None else None
    lines = {_canonical(name): line for name, line in (metadata_lines or {}).items()}
    kept_layers = []
    for layer, said in (
        (project, f"{project_file}: "),
        (
            metadata or {},
            "citecheck metadata: " if document else f"{metadata_origin}: citecheck metadata: ",
        ),
        (environment_layer(environ), "CITECHECK_* environment: "),
    ):
        kept: dict[str, Any] = {}
        for name, value in layer.items():
            try:
                build_options({name: value})
            except OptionsError as exc:
                location = None
                if layer is metadata and document is not None:
                    location = replace(document, line=lines.get(_canonical(name)))
                text = f"{said}{exc}; ignored, so the option keeps its default"
                problems.append(OptionProblem(text, location))
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


def build_options(*layers: Mapping[str, Any], today: dt.date | None = None) -> Options:
    """Options from layers given lowest precedence first; unknown names are an error. An option
    that only grounding uses (`judge`, `sources`, …) turns grounding on unless a layer says
    `ground: false`."""
    merged: dict[str, Any] = {}
    for layer in layers:
        for name, value in layer.items():
            canonical = _canonical(name)
            if canonical not in BY_NAME:
                hint = spelled(known(canonical, OPTION_NAMES))
                raise OptionsError(f"unknown citecheck option {name!r} ({hint})")
            if value is not None:
                merged[canonical] = value
    if "ground" not in merged and any(merged.get(d.name) for d in DECLARED if d.grounding):
        merged["ground"] = True
    read = {
        declared.target: declared.read(declared.name, merged[declared.name])
        for declared in DECLARED
        if declared.name in merged
    }
    return Options(**read, today=today or dt.date.today())
