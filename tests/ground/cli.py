"""The `citecheck check --ground` invocation the grounding tests share."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from citecore.cli import main


def grounding_args(paper: Path, sources: Path, *extra: str) -> list[str]:
    """Arguments that ground `paper`'s citations against `sources`, registries left out."""
    return ["check", str(paper), "--ground", "--sources", str(sources), "--no-verify", *extra]


def grounding_report(paper: Path, sources: Path, *extra: str) -> dict[str, Any]:
    """Run the grounding check and return its JSON report (written beside `paper`)."""
    out = paper.parent / "report.json"
    main(grounding_args(paper, sources, *extra, "-o", str(out)))
    report: dict[str, Any] = json.loads(out.read_text())
    return report
