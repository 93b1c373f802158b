"""The options of a run: each declared once (`declared.py`), read by one reader each
(`values.py`), into one `Options` record (`record.py`) from the layers every shell shares
(`layers.py`: defaults < citecheck.toml < document metadata < environment < command line)."""

from citecore.options.declared import DECLARED, OPTION_NAMES, Declared, Flag
from citecore.options.layers import (
    DEFAULT_SOURCES,
    PROJECT_FILE,
    build_options,
    environment_layer,
    project_layer,
    resolve_options,
)
from citecore.options.record import JudgeKind, OptionProblem, Options, ReportFormat

__all__ = [
    "DECLARED",
    "DEFAULT_SOURCES",
    "OPTION_NAMES",
    "PROJECT_FILE",
    "Declared",
    "Flag",
    "JudgeKind",
    "OptionProblem",
    "Options",
    "ReportFormat",
    "build_options",
    "environment_layer",
    "project_layer",
    "resolve_options",
]
