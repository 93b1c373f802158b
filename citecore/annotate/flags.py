"""What each citation is flagged with in an annotated draft: its worst finding, or the page
its source supports it on."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from citecore.annotate.checked import DocumentCheck
from citecore.extract.markdown import CiteGroup
from citecore.model import (
    Citation,
    CitationContext,
    CitationResult,
    Finding,
    GroundingStatus,
    Severity,
)
from citecore.report.labels import finding_line


@dataclass(frozen=True, slots=True)
class Flag:
    """What one Cite element is flagged with: its worst severity and one line per problem."""

    severity: Severity
    lines: tuple[str, ...]

    @property
    def tone(self) -> str:
        """How loudly a draft shows it: the severity's name, or `unconfirmed` (lighter than
        information) when all it says is that grounding found neither support nor conflict."""
        if all(line.startswith("unconfirmed") for line in self.lines):
            return "unconfirmed"
        return self.severity.value

    def text(self, limit: int = 220) -> str:
        """The problems joined into one short note."""
        joined = " · ".join(self.lines)
        return joined if len(joined) <= limit else joined[: limit - 1].rstrip() + "…"


def flags_for(check: DocumentCheck) -> list[tuple[CiteGroup, Flag]]:
    """Each Cite group with at least one warning or error about one of its keys, and, when
    grounding ran, each supported one with its page ("supported, p. 7") as information; each
    flag is on the citation a reader sees (see `_where_shown`)."""
    return _where_shown(_flags_by_group(check))


def _about(item: Finding, citation: Citation, documents: set[str]) -> bool:
    """Whether a finding about the citation's key is about this citation: one about a citation
    is about that one only, by its identity (two citations of one key on one line get their own
    verdicts); one placed in the document is about the citation at its line only (`[@a,@b]` on
    line 30 says nothing of a clean @b on line 10); one placed in the bibliography is about every
    citation of the entry."""
    if item.citation is not None:
        return item.citation == citation.ident
    where = item.location
    if where is None or where.file not in documents or citation.location is None:
        return True
    return (where.file, where.line) == (
        citation.location.file,
        citation.location.line,
    )


def _flags_by_group(check: DocumentCheck) -> list[tuple[CiteGroup, Flag]]:
    by_key: dict[str, list[Finding]] = defaultdict(list)
    for item in check.result.findings:
        if item.key and item.severity is not Severity.INFO:
            by_key[item.key].append(item)
    documents = {c.location.file for c in check.result.citations if c.location is not None}
    flagged = []
    for group in check.extraction.groups:
        findings = [
            f for c in group.citations for f in by_key.get(c.key, []) if _about(f, c, documents)
        ]
        lines = tuple(dict.fromkeys(finding_line(f) for f in findings))
        if findings:
            worst = max((f.severity for f in findings), key=lambda s: s.rank)
            flagged.append((group, Flag(worst, lines)))
            continue
        verdicts = (check.result.grounding_of(c) for c in group.citations)
        grounded = [_grounding_line(v) for v in verdicts if v is not None]
        said = [line for line in grounded if line]
        if said:
            flagged.append((group, Flag(Severity.INFO, tuple(dict.fromkeys(said)))))
    return flagged


def _grounding_line(result: CitationResult) -> str:
    """ "supported, p. 7 (local)" for a supported, proved verdict; for an unconfirmed one what
    the writer can do ("unconfirmed: …; the closest passage is on p. 3"); "" otherwise."""
    page = f", p. {result.page}" if result.page else ""
    if result.status is GroundingStatus.SUPPORTED and not result.ungrounded:
        return f"supported{page} ({result.judge})"
    if result.status is GroundingStatus.UNCONFIRMED:
        closest = f"; the closest passage is on p. {result.page}" if result.page else ""
        # Why, in the judge's words: which words of the claim the source does not carry.
        why = _JUDGE_PREFIX.sub("", result.reason) or "neither support nor conflict found"
        return f"unconfirmed ({result.judge}): {why}{closest}: check it against the source"
    return ""


# "lexical judge: " / "lexical judge (rules only: …): " before a local judge's reason: the note
# names the judge already.
_JUDGE_PREFIX = re.compile(r"^lexical judge(?: \([^)]*\))?: ")


def _where_shown(flagged: list[tuple[CiteGroup, Flag]]) -> list[tuple[CiteGroup, Flag]]:
    """Flags moved to where a reader sees them. A Cite nested in another's prefix or suffix
    (`[@a,@b]` reads @b into @a's suffix) is rendered by citeproc as part of the outer one, so
    its lines join the outer Cite's flag. A Cite in an inline image's alt text is never shown
    (alt text is an attribute: no note fits there), nor one in the metadata (a title's or an
    abstract's note would travel into the title block and the PDF's properties): those stay
    in the reports only."""
    shown: dict[int, tuple[CiteGroup, Flag]] = {}
    for group, flag in flagged:
        target = group.shown_as()
        if target is None or any(c.context is CitationContext.METADATA for c in group.citations):
            continue
        earlier = shown.get(id(target.element))
        if earlier is not None:
            worst = max(earlier[1].severity, flag.severity, key=lambda s: s.rank)
            flag = Flag(worst, tuple(dict.fromkeys([*earlier[1].lines, *flag.lines])))
        shown[id(target.element)] = (target, flag)
    return list(shown.values())
