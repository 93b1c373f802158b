"""What the editor shows from an Analysis: diagnostics on the citations and bibliography
entries, hovers with the registry's record and the supporting passage, and code actions that
write what the report would suggest (the writer applies them; citecheck never does)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from lsprotocol import types

from citecore.extract.latex_syntax import balanced_group
from citecore.lsp.analysis import Analysis, semicolon_separated
from citecore.lsp.scan import CitedKey, Span
from citecore.model import (
    CitationResult,
    Finding,
    FindingKind,
    GroundingStatus,
    Match,
    Reference,
    ReferenceResult,
    Severity,
)
from citecore.report.correction import corrected_bibtex

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
# Said by every reference before its first verification: noise in an editor.
_NOT_SHOWN = {FindingKind.UNVERIFIABLE, FindingKind.UNMAPPED, FindingKind.NOT_IN_AUX}


def lsp_range(span: Span) -> types.Range:
    """A scan span as an LSP range."""
    return types.Range(
        types.Position(span.start_line, span.start_character),
        types.Position(span.end_line, span.end_character),
    )


def _line_range(line: int, text: str | None = None) -> types.Range:
    """A whole line (0-based) of a file."""
    length = len(text.splitlines()[line]) if text and line < len(text.splitlines()) else 0
    return types.Range(types.Position(line, 0), types.Position(line, length))


def _text_of(file: Path, texts: dict[Path, str]) -> str | None:
    """A file's text: as the editor holds it when open, else from disk."""
    if file in texts:
        return texts[file]
    try:
        return file.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _diagnostic(item: Finding, where: types.Range) -> types.Diagnostic:
    return types.Diagnostic(
        range=where,
        message=item.message if not item.key else f"{item.key}: {item.message}",
        severity=_SEVERITY[item.severity],
        code=item.kind.value,
        source="citecheck",
    )


def diagnostics(analysis: Analysis, texts: dict[Path, str]) -> dict[Path, list[types.Diagnostic]]:
    """Diagnostics by file: each finding on the citations of its key at its line (the
    document), or on its entry's line (a bibliography). `texts` holds open files' text."""
    document = analysis.path
    by_file: dict[Path, list[types.Diagnostic]] = defaultdict(list)
    by_file[document] = []
    for problem in analysis.problems:
        by_file[document].append(
            types.Diagnostic(
                range=_line_range(0),
                message=problem,
                severity=types.DiagnosticSeverity.Warning,
                source="citecheck",
            )
        )
    for item in analysis.result.findings:
        if item.kind in _NOT_SHOWN:
            continue
        file = Path(item.location.file).absolute() if item.location else document
        line = (item.location.line or 1) - 1 if item.location else 0
        if file == document and item.key:
            cited = [c for c in analysis.citations if c.key == item.key]
            here = [
                c for c in cited if line in (c.key_span.start_line, c.citation_span.start_line)
            ] or cited
            spans = {c.citation_span for c in here}
            by_file[document] += [_diagnostic(item, lsp_range(s)) for s in spans]
            if spans:
                continue
        by_file[file].append(_diagnostic(item, _line_range(line, _text_of(file, texts))))
    by_file[document] += _grounding_diagnostics(analysis)
    return dict(by_file)


def _grounding_diagnostics(analysis: Analysis) -> list[types.Diagnostic]:
    """A claim its source does not support (with the page of the conflicting words), whose
    support is not proved, or that the judge left unconfirmed (information, naming the words
    the source does not carry), on its citation."""
    shown = []
    for (line, key), result in analysis.grounding.items():
        page = f" (p. {result.page})" if result.page else ""
        severity = types.DiagnosticSeverity.Warning
        if result.status is GroundingStatus.UNSUPPORTED:
            message = f"{key}: the cited source does not support this claim{page}: {result.reason}"
            code = FindingKind.UNSUPPORTED.value
        elif result.ungrounded:
            message = f"{key}: the supporting passage was not found in the source's text"
            code = FindingKind.UNGROUNDED.value
        elif result.status is GroundingStatus.UNCONFIRMED:
            # Information: which words of the claim the source does not carry.
            message = f"{key}: unconfirmed, the closest passage{page}: {result.reason}"
            code = FindingKind.UNCONFIRMED.value
            severity = types.DiagnosticSeverity.Information
        else:
            continue
        for cited in analysis.citations:
            if cited.key == key and line in (
                cited.key_span.start_line,
                cited.citation_span.start_line,
            ):
                shown.append(
                    types.Diagnostic(
                        range=lsp_range(cited.citation_span),
                        message=message,
                        severity=severity,
                        code=code,
                        source="citecheck",
                    )
                )
                break
    return shown


def cited_at(analysis: Analysis, line: int, character: int) -> CitedKey | None:
    """The citation under the cursor: the key's own span first, then its group's."""
    for cited in analysis.citations:
        if cited.key_span.holds(line, character):
            return cited
    for cited in analysis.citations:
        if cited.citation_span.holds(line, character):
            return cited
    return None


def _record(match: Match) -> list[str]:
    authors = ", ".join(match.authors[:6]) + (" et al." if len(match.authors) > 6 else "")
    lines = [f"**{match.title}**", f"{authors} ({match.year or 'n.d.'})"]
    if match.venue:
        lines.append(f"*{match.venue}*")
    if match.doi:
        lines.append(f"[doi:{match.doi}](https://doi.org/{match.doi})")
    return lines


def _grounding(result: CitationResult) -> list[str]:
    page = f", p. {result.page}" if result.page else ""
    lines = [f"Claim: **{result.status.value}**{page} ({result.judge} judge)"]
    if result.passage and result.status in (GroundingStatus.SUPPORTED, GroundingStatus.PARTIAL):
        lines.append("> " + " ".join(result.passage.split()))
    elif result.reason:
        lines.append(result.reason)
    return lines


def hover_text(analysis: Analysis, line: int, character: int) -> tuple[str, Span] | None:
    """Markdown for the citation under the cursor: the entry's verdict, the registry's record,
    the differences, and the passage that supports the claim when grounding ran."""
    cited = cited_at(analysis, line, character)
    if cited is None:
        return None
    verdict = analysis.result.references.get(cited.key)
    if cited.key not in analysis.bibliography.references:
        return f"`@{cited.key}`: not in any bibliography", cited.key_span
    parts = [f"`@{cited.key}`: **{verdict.verdict.value if verdict else 'unchecked'}**"]
    if verdict is not None:
        parts += [
            f"- {m.field}: cited *{m.given}*, registry *{m.found}*" for m in verdict.mismatches
        ]
        record = verdict.suggested or verdict.match
        if record is not None:
            parts += ["", f"Registry record ({record.source.value}):", *_record(record)]
        parts += [f"- {note}" for note in verdict.notes]
    grounded = analysis.grounding.get((cited.key_span.start_line, cited.key))
    if grounded is not None:
        parts += ["", *_grounding(grounded)]
    return "\n\n".join(p for p in parts if p is not None), cited.key_span


def entry_lines(text: str, start_line: int) -> tuple[int, int]:
    """(first, last) 0-based lines of the BibTeX entry that starts on `start_line` (1-based):
    to the delimiter that closes the one after `@type` (LaTeX's balanced-group reading: braces
    inside values counted, a ')' in a braced entry's title only text); to the end of the file
    when it never closes."""
    lines = text.splitlines(keepends=True)
    first = min(max(start_line - 1, 0), max(len(lines) - 1, 0))
    offset = sum(len(line) for line in lines[:first])
    opening = re.search(r"[{(]", text[offset:])
    group = None
    if opening is not None:
        start = offset + opening.start()
        group = balanced_group(text, start, opening.group(), "})"["{(".index(opening.group())])
    if group is None:
        return first, max(len(lines) - 1, 0)
    return first, text.count("\n", 0, group[1] - 1)


def _entry_edit(
    bib: Path, text: str, reference: Reference, replacement: str
) -> types.WorkspaceEdit:
    first, last = entry_lines(text, reference.location.line or 1)
    end = len(text.splitlines()[last]) if text.splitlines() else 0
    where = types.Range(types.Position(first, 0), types.Position(last, end))
    return types.WorkspaceEdit(changes={bib.as_uri(): [types.TextEdit(where, replacement)]})


def _entry_actions(
    reference: Reference, verdict: ReferenceResult, texts: dict[Path, str]
) -> list[types.CodeAction]:
    """Replace a mismatched entry with the registry's record (the key kept); add a missing
    DOI the registry gives."""
    bib = Path(reference.location.file)
    text = texts.get(bib)
    if text is None:
        try:
            text = bib.read_text(encoding="utf-8")
        except OSError:
            return []
    actions = []
    corrected = corrected_bibtex(reference, verdict)
    if corrected and verdict.mismatches:
        actions.append(
            types.CodeAction(
                title=f"Replace @{reference.key} with the registry's record (key kept)",
                kind=types.CodeActionKind.QuickFix,
                edit=_entry_edit(bib, text, reference, corrected.rstrip("\n")),
            )
        )
    record = verdict.match
    if record is not None and record.doi and not reference.doi and not verdict.mismatches:
        first, _ = entry_lines(text, reference.location.line or 1)
        insert = types.Position(first + 1, 0)
        actions.append(
            types.CodeAction(
                title=f"Add the DOI {record.doi} to @{reference.key}",
                kind=types.CodeActionKind.QuickFix,
                edit=types.WorkspaceEdit(
                    changes={
                        bib.as_uri(): [
                            types.TextEdit(
                                types.Range(insert, insert), f"  doi = {{{record.doi}}},\n"
                            )
                        ]
                    }
                ),
            )
        )
    return actions


def code_actions(analysis: Analysis, line: int, texts: dict[Path, str]) -> list[types.CodeAction]:
    """The fixes for the citations (or, in a bibliography, the entry) on `line`."""
    actions: list[types.CodeAction] = []
    uri = analysis.path.as_uri()
    references = analysis.bibliography.references
    if not analysis.citations:  # a bibliography file: the entry on this line
        for reference in references.values():
            first, last = entry_lines(texts.get(analysis.path, ""), reference.location.line or 1)
            verdict = analysis.result.references.get(reference.key)
            if first <= line <= last and verdict is not None:
                actions += _entry_actions(reference, verdict, texts)
        return actions
    folded = {key.casefold(): key for key in references}
    seen_groups = set()
    for cited in analysis.citations:
        if cited.citation_span.start_line > line or cited.citation_span.end_line < line:
            continue
        group = cited.citation_span
        fixed = semicolon_separated(cited.group_text)
        if group not in seen_groups and fixed != cited.group_text:
            seen_groups.add(group)
            actions.append(_replace(uri, group, fixed, f"Separate the keys: {fixed}"))
        if cited.key not in references and cited.key.casefold() in folded:
            right = folded[cited.key.casefold()]
            actions.append(_replace(uri, _key_only(cited), right, f"Cite @{right} (as defined)"))
        verdict = analysis.result.references.get(cited.key)
        if cited.key in references and verdict is not None:
            actions += _entry_actions(references[cited.key], verdict, texts)
    return actions


def _key_only(cited: CitedKey) -> Span:
    """The key alone, without Markdown's `@` or `@{…}` around it (a LaTeX key span is the key)."""
    span = cited.key_span
    width = span.end_character - span.start_character
    skip = {len(cited.key) + 1: (1, 0), len(cited.key) + 3: (2, 1)}.get(width, (0, 0))
    return Span(
        span.start_line,
        span.start_character + skip[0],
        span.end_line,
        span.end_character - skip[1],
    )


def _replace(uri: str, span: Span, text: str, title: str) -> types.CodeAction:
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(lsp_range(span), text)]}),
    )
