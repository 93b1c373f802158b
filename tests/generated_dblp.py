"""DBLP dumps in the format DBLP publishes (`dblp.xml`, ISO-8859-1, its DTD's entities for
accented names), generated from the registry world of real works (../shared/fixtures/world/),
for tests and benchmarks: every record type, `ee` links to DOIs and arXiv, homonym numbers,
informal CoRR preprints, conference papers with the proceedings volume they are in
(`crossref`, the volume's record written after its first paper, titled as DBLP titles them),
and the person pages (`www`) and artefacts (`data`) a dump also holds. Any number of records:
past the world's, titles are made distinct by a numbered word. A paper's booktitle is its
venue written out (DBLP's is an acronym: tests/verify/test_dblp_volumes.py reads those), so
that a complete copy holds the venues the world's references name."""

from __future__ import annotations

import gzip
import html
import re
from collections.abc import Iterator
from dataclasses import replace
from itertools import cycle, islice
from pathlib import Path

from citecore.model import Source
from citecore.registries.record import WorkRecord
from citecore.registries.snapshot_build import parse_line
from tests.paths import SHARED
from tests.world import WORLD, dblp_venue

DTD = SHARED / "fixtures" / "dblp" / "dblp.dtd"
_ENTITY = re.compile(r'<!ENTITY\s+(\w+)\s+"&#(\d+);"')


def _entities() -> dict[str, str]:
    """The DTD's named character entities, by the character they stand for."""
    return {chr(int(code)): name for name, code in _ENTITY.findall(DTD.read_text("latin-1"))}


ENTITIES = _entities()


def escaped(text: str) -> str:
    """Text as the dump writes it: markup escaped, accented letters as the DTD's entities (or a
    character reference where it names none)."""
    out = []
    for char in html.escape(text, quote=False):
        if ord(char) < 128:
            out.append(char)
        elif char in ENTITIES:
            out.append(f"&{ENTITIES[char]};")
        else:
            out.append(f"&#{ord(char)};")
    return "".join(out)


def world_records() -> list[WorkRecord]:
    """The world's works with a title and people as authors, as the snapshot reads them."""
    found = []
    for name in ("openalex-works.jsonl", "crossref-works.jsonl"):
        for line in (WORLD / name).read_text(encoding="utf-8").splitlines():
            record = parse_line(line) if line.strip() else None
            if record is None or not record.title or not record.authors or len(record.title) >= 300:
                continue
            # DBLP lists people: a work signed by an organisation ("The PLOS ONE Staff") is not
            # one of its records.
            if not any(a.is_organization for a in record.authors):
                found.append(record)
    return found


def dblp_works() -> list[WorkRecord]:
    """The world's works that DBLP holds (its computer-science venues, under DBLP's names):
    what the emulated DBLP answers from, and so what its dump holds."""
    return [
        replace(work, source=Source.DBLP, venue=dblp_venue(work.venue))
        for work in world_records()
        if dblp_venue(work.venue)
    ]


def record_xml(record: WorkRecord, number: int) -> str:
    """One record as the dump holds it; every seventh author of a record gets a homonym
    number; a record in CoRR, and every eleventh of another registry's, is an informal CoRR
    preprint."""
    informal = record.venue == "CoRR" or (record.source != Source.DBLP and number % 11 == 0)
    conference = record.work_type == "inproceedings" or bool(
        re.search(r"conference|proceedings|symposium|workshop", record.venue, re.I)
    )
    tag = "inproceedings" if conference and not informal else "article"
    volume = volume_of(record)[0] if tag == "inproceedings" else ""
    key = f"{'conf' if tag == 'inproceedings' else 'journals'}/gen/R{number}"
    lines = [
        f'<{tag} mdate="2024-01-01" key="{key}"' + (' publtype="informal">' if informal else ">")
    ]
    for index, author in enumerate(record.authors[:12]):
        name = " ".join(p for p in (author.given, author.particle, author.family) if p)
        homonym = f" {index + 1:04d}" if (number + index) % 7 == 0 else ""
        lines.append(f"<author>{escaped(name)}{homonym}</author>")
    lines.append(f"<title>{escaped(record.title)}.</title>")
    if informal:
        lines.append("<journal>CoRR</journal>")
    elif tag == "inproceedings":
        lines.append(f"<booktitle>{escaped(record.venue)}</booktitle>")
    else:
        lines.append(f"<journal>{escaped(record.venue or 'Journal of Things')}</journal>")
    if record.year:
        lines.append(f"<year>{record.year}</year>")
    if record.doi:
        lines.append(f"<ee>https://doi.org/{escaped(record.doi)}</ee>")
    if record.arxiv_id:
        lines.append(f'<ee type="oa">https://arxiv.org/abs/{record.arxiv_id}</ee>')
    if volume:
        lines.append(f"<crossref>{volume}</crossref>")
    lines.append(f"<url>db/gen/{number}.html</url>")
    lines.append(f"</{tag}>")
    return "\n".join(lines)


def volume_of(record: WorkRecord) -> tuple[str, str]:
    """(key, title) of the proceedings volume a conference paper is in: its venue and year,
    titled as DBLP titles volumes (name, acronym and year, place, dates)."""
    year = record.year or 2000
    slug = re.sub(r"[^a-z0-9]+", "", record.venue.lower())
    acronym = "".join(re.findall(r"\b[A-Z]", record.venue))[:8] or "CONF"
    title = f"{record.venue}, {acronym} {year}, Virtual Event, June 1-4, {year}"
    return f"conf/gen/{slug}-{year}", title


def _volume_xml(key: str, title: str) -> str:
    """A proceedings volume's record: signed by its editors, titled in full."""
    year = title.rsplit(" ", 1)[-1]
    return (
        f'<proceedings mdate="2024-01-01" key="{key}">\n<editor>Vera Editor</editor>\n'
        f"<title>{escaped(title)}</title>\n<publisher>IEEE</publisher>\n<year>{year}</year>\n"
        "</proceedings>"
    )


def _not_works(number: int) -> str:
    """What a dump holds that is no work: a person's page and a data artefact."""
    return (
        f'<www mdate="2024-01-01" key="homepages/gen/{number}">\n<author>Person {number}</author>\n'
        f"<title>Home Page</title>\n<url>https://example.org/{number}</url>\n</www>\n"
        f'<data mdate="2024-01-01" key="data/gen/{number}">\n<title>A dataset {number}</title>\n'
        "</data>"
    )


def numbered(records: list[WorkRecord], count: int) -> Iterator[WorkRecord]:
    """`count` records cycling through `records`, each title past the first round given a
    numbered word so that every title names one record."""
    for number, record in enumerate(islice(cycle(records), count)):
        if number < len(records):
            yield record
        else:
            doi = f"{record.doi}.g{number}" if record.doi else ""
            yield WorkRecord(
                record.source, f"{record.title} n{number}x", record.authors, record.year,
                record.venue, doi,
            )  # fmt: skip


def write_dump(path: Path, records: Iterator[WorkRecord] | list[WorkRecord]) -> int:
    """Write a dump (gzipped when the name ends in .gz) with DBLP's DTD beside it; returns how
    many works it holds (the proceedings volumes among them)."""
    opener = gzip.open if path.suffix == ".gz" else open
    count = 0
    volumes: set[str] = set()
    with opener(path, "wt", encoding="iso-8859-1") as stream:
        stream.write('<?xml version="1.0" encoding="ISO-8859-1"?>\n')
        stream.write('<!DOCTYPE dblp SYSTEM "dblp.dtd">\n<dblp>\n')
        for number, record in enumerate(records):
            written = record_xml(record, number)
            stream.write(written + "\n")
            if number % 100 == 0:
                stream.write(_not_works(number) + "\n")
            count += 1
            if written.startswith("<inproceedings"):
                key, title = volume_of(record)
                if key not in volumes:
                    volumes.add(key)
                    stream.write(_volume_xml(key, title) + "\n")
                    count += 1
        stream.write("</dblp>\n")
    (path.parent / "dblp.dtd").write_bytes(DTD.read_bytes())
    return count
