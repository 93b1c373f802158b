"""CSL JSON and CSL YAML bibliographies (and pandoc's inline `references:`) read into References.

CSL items are already structured, so mapping is direct. Line numbers come from finding each item's
`id` in the file text, since neither the JSON nor the YAML parser keeps positions we can rely on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

import yaml

from citecore.bib.bibtex import month_number
from citecore.bib.names import csl_names_complete, parse_csl_names
from citecore.errors import InputError
from citecore.identifiers import (
    arxiv_from_doi,
    arxiv_in_text,
    doi_in_url,
    normalize_doi,
    normalize_isbn,
)
from citecore.model import Reference, SourceLocation, UnparsedEntry

_VENUE_FIELDS = ("container-title", "collection-title", "event-title", "event")


def _text(value: Any) -> str:
    """A CSL scalar as a string; lists (multi-valued fields) give their first item."""
    if isinstance(value, list):
        return _text(value[0]) if value else ""
    return "" if value is None else " ".join(str(value).split())


def _date(item: Mapping[str, Any]) -> tuple[int | None, str, str]:
    """(year, year text, ISO-ish date) from `issued` in date-parts, raw or EDTF string form."""
    issued = item.get("issued")
    if isinstance(issued, Mapping):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            first = [str(p) for p in parts[0]]
            year = int(first[0]) if re.fullmatch(r"-?\d{1,4}", first[0]) else None
            date = "-".join(p.zfill(2) if i else p for i, p in enumerate(first))
            return year, first[0], date
        issued = issued.get("raw") or issued.get("literal") or ""
    text = _text(issued)
    match = re.match(r"^(\d{4})", text)
    if match is None:  # a literal date as people write it: "September 2024", "Sep. 2024"
        written = re.fullmatch(r"\s*([A-Za-zéû]+\.?)\s+(\d{4})\s*", text)
        month = month_number(written.group(1)) if written else None
        if written and month:
            return int(written.group(2)), written.group(2), f"{written.group(2)}-{month:02d}"
    return (int(match.group(1)) if match else None), (match.group(1) if match else text), text


def csl_to_reference(item: Mapping[str, Any], location: SourceLocation) -> Reference:
    """Map one CSL item onto a Reference."""
    doi = normalize_doi(_text(item.get("DOI"))) or doi_in_url(_text(item.get("URL")))
    year, year_text, date = _date(item)
    url = _text(item.get("URL"))
    return Reference(
        key=_text(item.get("id")),
        entry_type=_text(item.get("type")),
        location=location,
        title=_text(item.get("title")),
        # A lone name object, or a value that is no name at all, is read leniently.
        authors=parse_csl_names(_as_list(item.get("author"))),
        authors_complete=csl_names_complete(_as_list(item.get("author"))),
        editors=parse_csl_names(_as_list(item.get("editor"))),
        year=year,
        year_text=year_text,
        date=date,
        venue=next((_text(item[f]) for f in _VENUE_FIELDS if item.get(f)), ""),
        volume=_text(item.get("volume")),
        issue=_text(item.get("issue")),
        pages=_text(item.get("page")),
        publisher=_text(item.get("publisher")),
        doi=doi,
        arxiv_id=arxiv_from_doi(doi) or arxiv_in_text(f"{url} {_text(item.get('note'))}"),
        pmid=_text(item.get("PMID")),
        pmcid=_text(item.get("PMCID")),
        isbn=normalize_isbn(_text(item.get("ISBN"))) if item.get("ISBN") else "",
        url=url,
        files=tuple(str(f) for f in _as_list(item.get("file"))),
    )


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def _line_of_id(text: str, key: str) -> int | None:
    """The line where an item with id `key` is declared, in JSON or YAML syntax."""
    pattern = re.compile(
        rf"""(?:"id"\s*:\s*"{re.escape(key)}"|^\s*-?\s*id\s*:\s*["']?{re.escape(key)}["']?\s*$)""",
        re.MULTILINE,
    )
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else None


def csl_items_to_references(
    items: Iterable[Any], file: str, text: str | None
) -> tuple[list[Reference], list[UnparsedEntry]]:
    """References from CSL items; an item that is not a mapping with an `id` is unparsed."""
    references, unparsed = [], []
    for position, item in enumerate(items, 1):
        if not isinstance(item, Mapping) or not _text(item.get("id")):
            unparsed.append(
                UnparsedEntry(
                    SourceLocation(file, None),
                    f"item {position} is not a CSL item with an id",
                    repr(item)[:200],
                )
            )
            continue
        key = _text(item["id"])
        line = _line_of_id(text, key) if text is not None else None
        references.append(csl_to_reference(item, SourceLocation(file, line)))
    return references, unparsed


def parse_csl_json(text: str, file: str) -> tuple[list[Reference], list[UnparsedEntry]]:
    """Read a CSL JSON file (a list of items, or one item)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{file}:{exc.lineno}: not valid CSL JSON: {exc.msg}") from exc
    return csl_items_to_references(data if isinstance(data, list) else [data], file, text)


def parse_csl_yaml(text: str, file: str) -> tuple[list[Reference], list[UnparsedEntry]]:
    """Read a CSL YAML file: a `references:` map (pandoc's form) or a bare list of items."""

    try:
        documents = [d for d in yaml.safe_load_all(text) if d is not None]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(f"{file}{line}: not valid CSL YAML: {problem}") from exc
    items: list[Any] = []
    for document in documents:
        if isinstance(document, Mapping):
            items.extend(_as_list(document.get("references")))
        elif isinstance(document, list):
            items.extend(document)
    return csl_items_to_references(items, file, text)
