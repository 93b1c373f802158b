"""Load every bibliography a document names into one Bibliography, in pandoc's order.

Files are read in the order given, then inline `references:`. The first definition of a key wins
(as in pandoc's citeproc); every later one is kept as a duplicate so it can be reported.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from citecore.bib.parsed import PARSER_VERSION, BibtexFile
from citecore.cache import Cache, content_key
from citecore.errors import BibliographyNotFoundError, InputError
from citecore.files import expand_user, is_file
from citecore.model import Bibliography, Reference, UnparsedEntry
from citecore.serialize import record_from_data, to_data

logger = logging.getLogger(__name__)

_BIBTEX_SUFFIXES = {".bib", ".bibtex", ".biblatex"}
_JSON_SUFFIXES = {".json"}
_YAML_SUFFIXES = {".yaml", ".yml"}


def resolve_bibliography(
    name: str, search_dirs: Sequence[Path], named_by: str | None = None
) -> Path:
    """The file a bibliography name refers to: as given, else under each search folder in turn.
    A name that is nowhere is an error naming the file that asked for it (`named_by`)."""
    given = expand_user(name)
    candidates = [given] if given.is_absolute() else [given, *(d / given for d in search_dirs)]
    for candidate in candidates:
        if is_file(candidate):
            return candidate
    looked = ", ".join(str(c) for c in dict.fromkeys(candidates))
    where = f"{named_by}: " if named_by else ""
    raise BibliographyNotFoundError(f"{where}bibliography {name!r} not found (looked at {looked})")


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read bibliography: {exc.strerror}") from exc
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with its byte-order mark
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")  # older .bib files are often Latin-1; every byte decodes


def _parse_bibtex_cached(text: str, path: Path, cache: Cache | None) -> BibtexFile:
    """`parse_bibtex`, answered from the cache when this exact text was parsed before by this
    version of the parser (decoding LaTeX is the slow part of a rebuild)."""
    key = content_key(PARSER_VERSION, str(path), text)
    stored = cache.get("bibtex", key) if cache is not None else None
    if stored is not None:
        try:
            return record_from_data(BibtexFile, json.loads(stored))
        except (ValueError, KeyError, TypeError) as exc:
            logger.debug("stale bibliography cache entry for %s: %s", path, exc)
    # start-up: the parser only to parse: a rebuild answered from the cache never needs it.
    from citecore.bib.bibtex import parse_bibtex

    parsed = parse_bibtex(text, str(path))
    if cache is not None:
        cache.put("bibtex", key, json.dumps(to_data(parsed)))
    return parsed


def read_bibliography_file(
    path: Path, cache: Cache | None = None
) -> tuple[list[Reference], list[Reference], list[UnparsedEntry]]:
    """(references, duplicate definitions within the file, unparsed entries) of one file."""
    text = _read_text(path)
    suffix = path.suffix.lower()
    if suffix in _BIBTEX_SUFFIXES:
        parsed = _parse_bibtex_cached(text, path, cache)
        return list(parsed.references), list(parsed.duplicates), list(parsed.unparsed)
    from citecore.bib.csl import parse_csl_json, parse_csl_yaml  # start-up: CSL files only

    if suffix in _JSON_SUFFIXES:
        references, unparsed = parse_csl_json(text, str(path))
        return references, [], unparsed
    if suffix in _YAML_SUFFIXES:
        references, unparsed = parse_csl_yaml(text, str(path))
        return references, [], unparsed
    raise InputError(
        f"{path}: unsupported bibliography format {suffix!r} (use .bib, CSL .json or CSL .yaml)"
    )


def load_bibliographies(
    paths: Iterable[Path],
    inline_references: Sequence[Mapping[str, Any]] = (),
    inline_file: str = "<metadata>",
    inline_text: str | None = None,
    cache: Cache | None = None,
    read: Sequence[Reference] = (),
) -> Bibliography:
    """Every entry of every file in `paths`, then of `inline_references` (a document's
    `references:` metadata, located in `inline_text` when given), then the entries already
    `read` (a LaTeX document's `\\bibitem`s), merged by key. With a `cache`, BibTeX files
    parsed before (same path, same text) are not parsed again."""
    by_key: dict[str, Reference] = {}
    duplicates: list[Reference] = []
    unparsed: list[UnparsedEntry] = []
    sources: list[str] = []

    def add(references: Iterable[Reference]) -> None:
        for reference in references:
            if reference.key in by_key:
                duplicates.append(reference)
            else:
                by_key[reference.key] = reference

    for path in paths:
        references, file_duplicates, file_unparsed = read_bibliography_file(path, cache)
        sources.append(str(path))
        add(references)
        duplicates.extend(file_duplicates)
        unparsed.extend(file_unparsed)
    if inline_references:
        # start-up: CSL's reader only for `references:` in the metadata
        from citecore.bib.csl import csl_items_to_references

        references, inline_unparsed = csl_items_to_references(
            inline_references, inline_file, inline_text
        )
        sources.append(inline_file)
        add(references)
        unparsed.extend(inline_unparsed)
    if read:
        sources.extend(dict.fromkeys(r.location.file for r in read))
        add(read)
    return Bibliography(tuple(sources), by_key, tuple(duplicates), tuple(unparsed))
