"""The input .bib with each entry's verdict added as fields, and nothing else changed.

The fields go on their own lines right after the entry's key (`@article{key,`), so that no
existing byte moves: `cite_check` (the verdict), `cite_check_differs` (the fields that differ),
`cite_check_doi` (the DOI of the record found), `cite_check_fix` (the record's values of the
fields that differ, "year = 2021; doi = 10.…": a correction to apply or not) and `cite_check_oa`
(an open-access copy). The
input's line endings are used; fields from an earlier run are replaced, not repeated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from citecore.model import Reference, ReferenceResult
from citecore.report.correction import clean_value, corrected_fields, latex_text

_ENTRY_START = re.compile(r"@\s*(\w+)\s*[{(]\s*([^,\s]+)\s*,")
_ADDED = re.compile(r"\r?\n[ \t]*cite_check(?:_differs|_doi|_fix|_oa)? = \{[^{}\r\n]*\},")


def _fields(result: ReferenceResult, reference: Reference | None) -> list[tuple[str, str]]:
    fields = [("cite_check", result.verdict.value)]
    if result.mismatches:
        fields.append(("cite_check_differs", ", ".join(m.field for m in result.mismatches)))
    if result.match is not None and result.match.doi:
        fields.append(("cite_check_doi", result.match.doi))
    fix = corrected_fields(reference, result) if reference is not None else ""
    if fix:
        fields.append(("cite_check_fix", fix))
    if result.open_access_url:
        fields.append(("cite_check_oa", result.open_access_url))
    return fields


def remove_verdict_fields(text: str) -> str:
    """`text` without the fields an earlier run added (the original bytes)."""
    return _ADDED.sub("", text)


def annotate_bibtex(
    text: str,
    results: Mapping[str, ReferenceResult],
    references: Mapping[str, Reference] | None = None,
) -> str:
    """`text` with verdict fields added after the key of every entry that has a result (and,
    where `references` gives the entry, the fields that would correct it)."""
    references = references or {}
    newline = "\r\n" if "\r\n" in text else "\n"
    text = remove_verdict_fields(text)
    pieces: list[str] = []
    position = 0
    for match in _ENTRY_START.finditer(text):
        result = results.get(match.group(2))
        if result is None or match.group(1).lower() in ("string", "preamble", "comment"):
            continue
        pieces.append(text[position : match.end()])
        fields = _fields(result, references.get(match.group(2)))
        pieces.extend(f"{newline}  {name} = {{{value}}}," for name, value in fields)
        position = match.end()
    pieces.append(text[position:])
    return "".join(pieces)


def listed_bibtex(references: Iterable[Reference]) -> str:
    """References read from a PDF or a text list as BibTeX entries: each preceded by a comment
    with its printed text, holding only what was read (the first author, then "and others":
    the rest of the list is not read)."""
    blocks = []
    for reference in references:
        fields = [
            ("title", latex_text(reference.title)),
            ("author", _author_field(reference)),
            ("year", str(reference.year or "")),
            ("doi", clean_value(reference.doi)),
            ("eprint", clean_value(reference.arxiv_id)),
            ("archiveprefix", "arXiv" if reference.arxiv_id else ""),
            ("url", clean_value(reference.url)),
        ]
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields if value)
        printed = clean_value(reference.text).replace("\n", " ")
        blocks.append(f"% {printed}\n@misc{{{reference.key},\n{body}\n}}\n")
    return "\n".join(blocks)


def _author_field(reference: Reference) -> str:
    names = [latex_text(person.display()) for person in reference.authors]
    if names and not reference.authors_complete:
        names.append("others")
    return " and ".join(names)
