"""`<jobname>.citecheck.tex`: the verdicts citecheck.sty reads, and warnings for the LaTeX log.

Three kinds of line:

- `\\citecheckVerdict{key}{level}{reason}`: what is said of an entry (not found, a mismatch),
  noted at every citation of its key;
- `\\citecheckCitation{file}{line}{key}{n}{level}{reason}`: the whole note of one citation that
  has findings of its own (its grounding, an undefined key there), said where TeX reads it — the
  file's name (`\\CurrentFile`), the line, the key and which citation of that key on that line
  it is (`n` from 1, or `*` when every citation of the key on the line has the same note); two
  citations of one key on one line keep their own verdicts;
- `\\citecheckWarning{line}{text}`: one per finding with a place (LaTeX prints it as `Package
  citecheck Warning: … on input line N.`, which editors pick up).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import PurePath

from citecore.annotate.latex import escape_latex
from citecore.model import CheckResult, Citation, CitationId, Finding, Severity
from citecore.report.labels import finding_line, one_line

_HEADER = "% Written by citecheck; read by citecheck.sty. Do not edit."


def _note(findings: Iterable[Finding], limit: int) -> tuple[str, str] | None:
    """(level, reason) of a note saying `findings`, None when there is nothing to say."""
    said = [f for f in findings if f.severity is not Severity.INFO]
    if not said:
        return None
    level = max((f.severity for f in said), key=lambda s: s.rank).value
    reasons = " · ".join(dict.fromkeys(finding_line(f) for f in said))
    return level, escape_latex(one_line(reasons, limit))


def _entry_lines(result: CheckResult, limit: int) -> list[str]:
    by_key: dict[str, list[Finding]] = defaultdict(list)
    for item in result.findings:
        if item.key and item.citation is None:
            by_key[item.key].append(item)
    lines = []
    for key, findings in sorted(by_key.items()):
        note = _note(findings, limit)
        if note is not None:
            lines.append(f"\\citecheckVerdict{{{key}}}{{{note[0]}}}{{{note[1]}}}")
    return lines


def _citation_lines(result: CheckResult, limit: int) -> list[str]:
    """The notes of citations with findings of their own, grouped as TeX meets them: by file
    name, line and key, numbered in reading order within the group."""
    own: dict[CitationId, list[Finding]] = defaultdict(list)
    entry: dict[str, list[Finding]] = defaultdict(list)
    for item in result.findings:
        if item.citation is not None:
            own[item.citation].append(item)
        elif item.key:
            entry[item.key].append(item)
    groups: dict[tuple[str, int, str], list[Citation]] = defaultdict(list)
    for citation in sorted(result.citations, key=lambda c: c.ident):
        if citation.location.line is not None:
            place = (PurePath(citation.location.file).name, citation.location.line, citation.key)
            groups[place].append(citation)
    lines = []
    for (file, line, key), citations in groups.items():
        if not any(c.ident in own for c in citations):
            continue
        notes = [_note([*entry[key], *own[c.ident]], limit) for c in citations]
        numbered = [("*", notes[0])] if len(set(notes)) == 1 else list(enumerate(notes, 1))
        for n, note in numbered:
            # No note of its own: the entry's verdict (or nothing) is what TeX shows there.
            level, reason = note if note is not None else ("none", "")
            lines.append(
                f"\\citecheckCitation{{{file}}}{{{line}}}{{{key}}}{{{n}}}{{{level}}}{{{reason}}}"
            )
    return lines


def _warning_lines(result: CheckResult) -> list[str]:
    lines = []
    for item in result.findings:
        if item.severity is Severity.INFO or item.location is None or item.location.line is None:
            continue
        text = escape_latex(
            f"{item.location}: [{item.kind.value}] {item.key or ''}: {one_line(item.message, 200)}"
        )
        lines.append(f"\\citecheckWarning{{{item.location.line}}}{{{text}}}")
    return lines


def render_verdicts(result: CheckResult, note_limit: int = 140) -> str:
    """The verdict file for citecheck.sty: every entry's verdict, every citation's own note
    where it has one, and a log warning per placed finding."""
    lines = [
        _HEADER,
        *_entry_lines(result, note_limit),
        *_citation_lines(result, note_limit),
        *_warning_lines(result),
    ]
    return "\n".join(lines) + "\n"
