"""The verdict file citecheck.sty reads and the lines the latexmk hook prints: one verdict per
flagged key at its worst level, information left out, warnings only where there is a line."""

from __future__ import annotations

from citecore.annotate.latex_verdicts import render_verdicts
from citecore.model import (
    Bibliography,
    CheckResult,
    Finding,
    FindingKind,
    Severity,
    SourceLocation,
)

FINDINGS = (
    Finding(FindingKind.FUTURE_YEAR, Severity.WARNING, "date 2031 is in the future", "smith",
            SourceLocation("refs.bib", 3)),
    Finding(FindingKind.NOT_FOUND, Severity.ERROR, "in no registry", "smith",
            SourceLocation("intro.tex", 12)),
    Finding(FindingKind.UNUSED, Severity.INFO, "never cited", "doe", SourceLocation("refs.bib", 9)),
    Finding(FindingKind.OUTAGE, Severity.WARNING, "Crossref did not answer: 100% & more"),
)  # fmt: skip


def _verdicts() -> list[str]:
    result = CheckResult(("main.tex",), Bibliography(), (), {}, FINDINGS)
    return render_verdicts(result).splitlines()


def test_one_verdict_per_flagged_key_at_its_worst_level() -> None:
    verdicts = [line for line in _verdicts() if line.startswith("\\citecheckVerdict")]
    assert verdicts == [
        "\\citecheckVerdict{smith}{error}{future\\_year: date 2031 is in the future · "
        "not\\_found: in no registry}"
    ]


def test_warnings_for_the_log_only_where_a_line_is_known() -> None:
    warnings = [line for line in _verdicts() if line.startswith("\\citecheckWarning")]
    assert warnings == [
        "\\citecheckWarning{3}{refs.bib:3: [future\\_year] smith: date 2031 is in the future}",
        "\\citecheckWarning{12}{intro.tex:12: [not\\_found] smith: in no registry}",
    ]


def test_the_file_says_who_wrote_it_and_ends_with_a_newline() -> None:
    result = CheckResult(("main.tex",), Bibliography(), (), {}, ())
    assert (
        render_verdicts(result) == "% Written by citecheck; read by citecheck.sty. Do not edit.\n"
    )
