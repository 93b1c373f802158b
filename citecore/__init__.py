"""citecore: the library behind citecheck, a citation checker that runs inside document builds.

The public API is what `__all__` names: the entries per job (`citecore.api`), the options
(`citecore.options`) and the records they return (`citecore.model`). They are loaded when first
used, so that `import citecore` costs nothing a replayed rebuild does not need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citecore.lazy import load_public
from citecore.version import __version__

if TYPE_CHECKING:
    from citecore.api import (
        check_citations,
        check_document,
        check_latex_file,
        check_markdown_document,
        check_markdown_file,
        verify_bibliography,
        verify_files,
        verify_one,
    )
    from citecore.model import (
        Bibliography,
        CheckResult,
        Citation,
        CitationId,
        CitationResult,
        Finding,
        FindingKind,
        GroundingStatus,
        Reference,
        ReferenceResult,
        ReferenceVerdict,
        Severity,
    )
    from citecore.options import Options, build_options, resolve_options
    from citecore.policy import exit_status


# Where each public name lives.
_HOMES = {
    **dict.fromkeys(
        (
            "check_citations",
            "check_document",
            "check_latex_file",
            "check_markdown_document",
            "check_markdown_file",
            "verify_bibliography",
            "verify_files",
            "verify_one",
        ),
        "citecore.api",
    ),
    **dict.fromkeys(
        (
            "Bibliography",
            "CheckResult",
            "Citation",
            "CitationId",
            "CitationResult",
            "Finding",
            "FindingKind",
            "GroundingStatus",
            "Reference",
            "ReferenceResult",
            "ReferenceVerdict",
            "Severity",
        ),
        "citecore.model",
    ),
    **dict.fromkeys(("Options", "build_options", "resolve_options"), "citecore.options"),
    "exit_status": "citecore.policy",
}

__all__ = [
    "Bibliography",
    "CheckResult",
    "Citation",
    "CitationId",
    "CitationResult",
    "Finding",
    "FindingKind",
    "GroundingStatus",
    "Options",
    "Reference",
    "ReferenceResult",
    "ReferenceVerdict",
    "Severity",
    "__version__",
    "build_options",
    "check_citations",
    "check_document",
    "check_latex_file",
    "check_markdown_document",
    "check_markdown_file",
    "exit_status",
    "resolve_options",
    "verify_bibliography",
    "verify_files",
    "verify_one",
]


def __getattr__(name: str) -> Any:
    """A public name, loaded from its module when first asked for."""
    return load_public(__name__, _HOMES, name)
