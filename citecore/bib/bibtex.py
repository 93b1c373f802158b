"""BibTeX and BibLaTeX files read into References with bibtexparser v2.

The layers follow bibtexparser's own: split the file into blocks (bibtexparser), expand `@string`
macros and `#` concatenation, inherit `crossref` parents, then decode LaTeX into plain text and map
fields onto a Reference. A block that fails to parse becomes an UnparsedEntry with its line; the
rest of the file is still read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from citecore.bib.bibtex_problems import (
    failure_reason,
    key_in_raw,
    malformed_field,
    split_concatenation,
)
from citecore.bib.latex_text import decode_latex
from citecore.bib.names import ends_with_others, parse_bibtex_names
from citecore.bib.parsed import BibtexFile
from citecore.identifiers import (
    arxiv_from_doi,
    arxiv_in_text,
    doi_in_url,
    normalize_arxiv,
    normalize_doi,
    normalize_isbn,
)
from citecore.model import Reference, SourceLocation, UnparsedEntry

if TYPE_CHECKING:
    from bibtexparser import model as bibmodel


_MONTHS = {
    m: str(i)
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1
    )
}
_VENUE_FIELDS = ("journal", "journaltitle", "booktitle", "eventtitle")
_FIELD_RENAMES_FROM_PARENT = {"title": "booktitle", "subtitle": "booksubtitle"}


def expand_value(raw: str, strings: Mapping[str, str]) -> str:
    """A raw BibTeX value with `@string` macros, month names and `#` concatenation resolved and
    the outer `{…}` / `"…"` delimiters removed (inner braces are kept for the LaTeX decoder)."""
    out = []
    for part in split_concatenation(raw):
        if (len(part) >= 2 and part[0] == "{" and part[-1] == "}") or (
            len(part) >= 2 and part[0] == '"' and part[-1] == '"'
        ):
            out.append(part[1:-1])
        elif part.lower() in strings:
            out.append(strings[part.lower()])
        elif part.lower() in _MONTHS:
            out.append(_MONTHS[part.lower()])
        else:
            out.append(part)
    return "".join(out)


def _fields(entry: bibmodel.Entry, strings: Mapping[str, str]) -> dict[str, str]:
    """An entry's fields, lower-cased names, values expanded (first occurrence wins)."""
    fields: dict[str, str] = {}
    for item in entry.fields:
        fields.setdefault(item.key.lower(), expand_value(_unshield(str(item.value)), strings))
    return fields


def _inherit(fields: dict[str, str], parent: Mapping[str, str]) -> dict[str, str]:
    """`crossref` inheritance as biblatex does it: missing fields come from the parent, whose
    `title` becomes the child's `booktitle`."""
    merged = dict(fields)
    for name, value in parent.items():
        target = _FIELD_RENAMES_FROM_PARENT.get(name, name)
        if name in ("ids", "crossref", "key"):
            continue
        merged.setdefault(target, value)
    return merged


_MONTH_NAMES = {
    name: number
    for number, names in enumerate(
        (
            ("jan", "january", "januar", "janvier"),
            ("feb", "february", "februar", "fevrier", "février"),
            ("mar", "march", "märz", "maerz", "mars"),
            ("apr", "april", "avril"),
            ("may", "mai"),
            ("jun", "june", "juni", "juin"),
            ("jul", "july", "juli", "juillet"),
            ("aug", "august", "aout", "août"),
            ("sep", "sept", "september", "septembre"),
            ("oct", "october", "oktober", "octobre"),
            ("nov", "november", "novembre"),
            ("dec", "december", "dezember", "decembre", "décembre"),
        ),
        start=1,
    )
    for name in names
}


def month_number(text: str) -> int | None:
    """The month a BibTeX `month` names: `9`, `09`, `sep`, `Sep.`, `September` (and the German
    and French names); None when it names none (`Spring`, `9-10` is read as its first month)."""
    value = text.strip().strip("{}").strip().rstrip(".").casefold()
    first = re.split(r"\s*(?:[-–/]|--)\s*", value)[0] if value else ""
    if first.isdigit():
        return int(first) if 1 <= int(first) <= 12 else None
    return _MONTH_NAMES.get(first)


def _year(fields: Mapping[str, str]) -> tuple[int | None, str, str]:
    """(year as int or None, the year text as written, the date if given: biblatex `date`, or
    `year` with `month` as "YYYY-MM")."""
    date = decode_latex(fields.get("date", ""))
    text = decode_latex(fields.get("year", "")) or date[:4]
    match = re.fullmatch(r"\s*(\d{4})\s*", text)
    if not date and match and fields.get("month"):
        month = month_number(decode_latex(fields["month"]))
        date = f"{match.group(1)}-{month:02d}" if month else ""
    return (int(match.group(1)) if match else None), text, date


_ARXIV_TYPES = ("arxiv", "")
_PUBMED_TYPES = ("pubmed", "pmid")


def _arxiv_id(fields: Mapping[str, str], doi: str) -> str:
    """The arXiv id from `eprint` (with an arXiv eprint type, or none and an id's shape: every
    form Zotero, Better BibTeX, JabRef, Mendeley and arXiv write, `1301.3781 [cs]` and the
    old style's number with its `primaryclass` among them), an `arxiv` field, a DOI, the venue
    or the URL."""
    eprint_type = (fields.get("archiveprefix") or fields.get("eprinttype") or "").lower()
    if fields.get("eprint") and eprint_type in _ARXIV_TYPES:
        candidate = normalize_arxiv(decode_latex(fields["eprint"]))
        archive = decode_latex(fields.get("primaryclass") or fields.get("eprintclass") or "")
        archive = archive.strip().split(".")[0].lower()
        if re.fullmatch(r"\d{7}(?:v\d+)?", candidate) and archive and eprint_type == "arxiv":
            # The old style written in two fields: `eprint = {0401008}, primaryclass = {hep-th}`.
            return f"{archive}/{candidate}"
        if eprint_type == "arxiv" or re.match(r"^\d{4}\.\d{4,5}", candidate):
            return candidate
    if fields.get("arxiv"):
        return normalize_arxiv(decode_latex(fields["arxiv"]))
    return arxiv_from_doi(doi) or arxiv_in_text(
        " ".join(
            fields.get(f, "") for f in ("journal", "journaltitle", "url", "note", "howpublished")
        )
    )


def _doi(text: Mapping[str, str]) -> str:
    """The DOI from `doi`, else a doi.org URL in `url` or in an untyped `eprint` (some
    publishers' BibTeX exports put the DOI's URL there)."""
    eprint_type = (text.get("archiveprefix") or text.get("eprinttype") or "").lower()
    return (
        normalize_doi(text.get("doi", ""))
        or doi_in_url(text.get("url", ""))
        or (doi_in_url(text.get("eprint", "")) if eprint_type in ("", "doi") else "")
    )


def to_reference(
    key: str, entry_type: str, fields: Mapping[str, str], location: SourceLocation
) -> Reference:
    """Map expanded BibTeX fields onto a Reference, decoding LaTeX."""
    text = {name: decode_latex(value) for name, value in fields.items() if name != "file"}
    doi = _doi(text)
    year, year_text, date = _year(fields)
    title = text.get("title", "")
    if text.get("subtitle"):
        title = f"{title}: {text['subtitle']}"
    eprint_type = (text.get("eprinttype") or "").lower()
    return Reference(
        key=key,
        entry_type=entry_type.lower(),
        location=location,
        title=title,
        authors=parse_bibtex_names(fields.get("author", "")),
        authors_complete=not ends_with_others(fields.get("author", "")),
        editors=parse_bibtex_names(fields.get("editor", "")),
        year=year,
        year_text=year_text,
        date=date,
        venue=next((text[f] for f in _VENUE_FIELDS if text.get(f)), ""),
        volume=text.get("volume", ""),
        issue=text.get("number", "") or text.get("issue", ""),
        pages=text.get("pages", ""),
        publisher=text.get("publisher", "")
        or text.get("school", "")
        or text.get("institution", ""),
        doi=doi,
        arxiv_id=_arxiv_id(fields, doi),
        pmid=text.get("pmid", "")
        or (text.get("eprint", "").strip() if eprint_type in _PUBMED_TYPES else ""),
        pmcid=text.get("pmcid", ""),
        isbn=normalize_isbn(text.get("isbn", "")) if text.get("isbn") else "",
        url=text.get("url", ""),
        files=(fields["file"],) if fields.get("file") else (),
    )


_ENTRY_START = re.compile(r"@\s*([A-Za-z]+)\s*([{(])")


def blank_comments(text: str) -> str:
    """The text with every `%` comment blanked where biber reads one (from `%` to the end of the
    line, outside field values: between entries and between the fields of an entry), line
    breaks kept so that every line number stays the file's. `@comment` and `@preamble` blocks
    are left whole: their text is not fields."""
    out: list[str] = []
    copied, index, depth, quoted, kind = 0, 0, 0, False, ""
    # Only these characters change what follows; the text between them is copied whole.
    while (special := _COMMENT_SYNTAX.search(text, index)) is not None:
        index = special.start()
        char = text[index]
        comment = False
        if depth == 0:
            if char == "@" and (start := _ENTRY_START.match(text, index)):
                kind = start.group(1).lower()
                depth = 1
                index = start.end()
                continue
            comment = char == "%"
        elif char == "{":
            depth += 1
        elif char in "})" and not quoted:
            if char == "}" or depth == 1:
                depth -= 1
        elif char == '"' and depth == 1 and kind not in ("comment", "preamble"):
            quoted = not quoted
        elif char == "%" and depth == 1 and not quoted:
            comment = kind not in ("comment", "preamble")
        if comment:
            end = text.find("\n", index)
            end = len(text) if end < 0 else end
            out.append(text[copied:index])
            out.append(" " * (end - index))
            copied = index = end
            continue
        index += 1
    out.append(text[copied:])
    return "".join(out)


_COMMENT_SYNTAX = re.compile(r'[@%{})"]')


# BibTeX and biber count every brace, a backslash before it or not (`{\\{\\bf SP}}` is one
# balanced value to both); bibtexparser takes `\{` for an escaped brace. The backslash is
# swapped for a private-use character while bibtexparser splits the file, and put back after.
_SHIELD = "\ue000"


def _shield_braces(text: str) -> str:
    return text.replace("\\{", _SHIELD + "{").replace("\\}", _SHIELD + "}")


def _unshield(value: str) -> str:
    return value.replace(_SHIELD, "\\")


def parse_bibtex(text: str, file: str) -> BibtexFile:
    """Read BibTeX/BibLaTeX source text; never raises on malformed entries (they are unparsed)."""
    # start-up: a rebuild answered from the cache never needs bibtexparser (or pylatexenc).
    from bibtexparser import model as bibmodel
    from bibtexparser.entrypoint import parse_string

    library = parse_string(_shield_braces(blank_comments(text)), parse_stack=[])
    # BibTeX lets a later @string redefine a name (bibtexparser calls it a duplicate block): the
    # definitions are applied in file order, each seeing those before it.
    redefined = [
        failed.ignore_error_block
        for failed in library.failed_blocks
        if isinstance(failed, bibmodel.DuplicateBlockKeyBlock)
        and isinstance(failed.ignore_error_block, bibmodel.String)
    ]
    strings: dict[str, str] = {}
    for string in sorted([*library.strings, *redefined], key=lambda s: s.start_line or 0):
        strings[string.key.lower()] = expand_value(_unshield(str(string.value)), strings)
    expanded = {e.key: _fields(e, strings) for e in library.entries}
    folded = {k.lower(): v for k, v in expanded.items()}

    def location(start_line: int | None) -> SourceLocation:
        return SourceLocation(file, None if start_line is None else start_line + 1)

    def reference(entry: bibmodel.Entry, fields: dict[str, str], start: int | None) -> Reference:
        parent_key = fields.get("crossref", "").strip().lower()
        if parent_key in folded:
            fields = _inherit(fields, folded[parent_key])
        return to_reference(entry.key, entry.entry_type, fields, location(start))

    references: list[Reference] = []
    duplicates: list[Reference] = []
    unparsed: list[UnparsedEntry] = []
    for entry in library.entries:
        problem = malformed_field(entry)
        if problem is None:
            references.append(reference(entry, expanded[entry.key], entry.start_line))
        else:
            unparsed.append(
                UnparsedEntry(
                    location(entry.start_line), problem, _unshield(entry.raw or ""), entry.key
                )
            )
    for failed in library.failed_blocks:
        kept = failed.ignore_error_block
        if isinstance(kept, bibmodel.String):
            continue  # a redefined @string, applied above
        if isinstance(failed, bibmodel.DuplicateBlockKeyBlock) and isinstance(kept, bibmodel.Entry):
            duplicates.append(reference(kept, _fields(kept, strings), failed.start_line))
        elif isinstance(failed, bibmodel.DuplicateFieldKeyBlock) and isinstance(
            kept, bibmodel.Entry
        ):
            # BibTeX and biber keep the first of a repeated field and go on; so do we.
            references.append(reference(kept, _fields(kept, strings), failed.start_line))
        else:
            raw = _unshield(failed.raw or "")
            unparsed.append(
                UnparsedEntry(
                    location(failed.start_line), failure_reason(failed), raw, key_in_raw(raw)
                )
            )
    references.sort(key=lambda r: r.location.line or 0)
    return BibtexFile(tuple(references), tuple(duplicates), tuple(unparsed))
