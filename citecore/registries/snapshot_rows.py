"""A work as a snapshot stores it: the compact JSON of its record (`serialize.to_compact_data`:
fields holding their defaults left out), made without reflection — a dump has millions of
records, and their people recur.

DBLP's works are written straight from the dump's fields (`stored_dblp_work`), not through a
WorkRecord: building a record per work cost more than the rest of a DBLP import. What is stored
is the same; `serialize.record_from_data` reads either back as the WorkRecord the verifier
compares.
"""

from __future__ import annotations

import json
from dataclasses import fields
from functools import lru_cache
from typing import Any

from citecore.bib.names import parse_display_name
from citecore.model import Source
from citecore.registries.dblp_dump import DblpWork
from citecore.registries.record import WorkRecord
from citecore.serialize import to_compact_data

# WorkRecord's fields kept as they are when they differ from their defaults (the source, the
# authors and the updates are written apart).
_PLAIN_FIELDS = tuple(
    (f.name, f.default) for f in fields(WorkRecord)
    if f.name not in ("source", "authors", "updates")
)  # fmt: skip
_compact_person = lru_cache(maxsize=262_144)(to_compact_data)  # a person signs many works
_encode = json.JSONEncoder(separators=(",", ":")).encode
# A string as JSON, what `_encode` makes of it (called directly: millions of titles and venues).
_string = json.encoder.encode_basestring_ascii


def stored_record(record: WorkRecord) -> str:
    """A record as the snapshot stores it: `to_compact_data`'s JSON."""
    data: dict[str, Any] = {"source": record.source.value}
    if record.authors:
        data["authors"] = [_compact_person(person) for person in record.authors]
    if record.updates:
        data["updates"] = to_compact_data(record.updates)
    for name, default in _PLAIN_FIELDS:
        if (value := getattr(record, name)) != default:
            data[name] = value
    return _encode(data)


@lru_cache(maxsize=262_144)
def _stored_person(name: str) -> str:
    """A DBLP author's name as the stored JSON of the person it names."""
    return _encode(to_compact_data(parse_display_name(name)))


_DBLP_OPENING = f'{{"source":{_string(Source.DBLP.value)},"title":'


def stored_dblp_work(work: DblpWork) -> str:
    """A DBLP work as the snapshot stores it: what `stored_record` makes of
    `dblp_dump.as_record(work)`, written from the work's fields."""
    parts = [_DBLP_OPENING, _string(work.title)]
    if work.authors:
        parts += [',"authors":[', ",".join(map(_stored_person, work.authors)), "]"]
    if work.year is not None:
        parts += [',"year":', str(work.year)]
    for name, value in (("venue", work.venue), ("doi", work.doi), ("arxiv_id", work.arxiv_id),
                        ("url", work.url), ("work_type", work.kind)):  # fmt: skip
        if value:
            parts += [f',"{name}":', _string(value)]
    if work.is_preprint:
        parts.append(',"is_preprint":true')
    parts.append("}")
    return "".join(parts)
