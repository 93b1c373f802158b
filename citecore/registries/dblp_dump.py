"""DBLP's XML dump (`dblp.xml.gz`, published with its DTD `dblp.dtd`) read as records, streaming.

The dump is one `<dblp>` element holding every record (over 7 million): it is read with lxml's
`iterparse`, each record dropped once read, so memory stays flat whatever the dump's size. Its
names carry the DTD's character entities (`M. Tamer &Ouml;zsu`): the DTD is loaded from beside
the dump, as DBLP publishes the two, or from the path given. What a record gives:

- every record type — article, inproceedings, proceedings, book, incollection, theses — and
  informal publications (`publtype="informal"`, CoRR's preprints among them) marked as preprints;
  the `www` person pages and `data` artefacts are not works and are left out;
- `ee` links read as a DOI (`https://doi.org/…`), an arXiv id (`arxiv.org/abs/…`), else a URL;
- the venue: the journal, else the booktitle (DBLP's short form, "CVPR"), and the key of the
  proceedings volume a paper is in (its `crossref`): the volume is a record of its own, whose
  title names the venue in full, anywhere in the dump (the snapshot joins the two once built);
- authors (editors for a volume without authors) with DBLP's homonym numbers ("Michael Schwarz
  0001") kept as DBLP's, never part of the name compared.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from lxml import etree

from citecore.bib.names import parse_display_name
from citecore.errors import InputError
from citecore.model import Source
from citecore.registries.record import WorkRecord

WORKS = ("article", "inproceedings", "proceedings", "book", "incollection", "phdthesis",
         "mastersthesis")  # fmt: skip
_SKIPPED = ("www", "data")
_ARXIV = re.compile(r"arxiv\.org/abs/([^\s?#]+)", re.IGNORECASE)
_DOI = re.compile(r"doi\.org/(10\.\S+)", re.IGNORECASE)


def is_dblp_dump(path: Path) -> bool:
    """Whether a file is DBLP's XML dump (by its name: `.xml` or `.xml.gz`)."""
    name = path.name.lower()
    return name.endswith((".xml", ".xml.gz"))


class _DtdBeside(etree.Resolver):
    """The dump's DTD, from the file given or from beside the dump, never from the network."""

    def __init__(self, dtd: Path) -> None:
        super().__init__()
        self.dtd = dtd

    # lxml-stubs lag lxml: `resolve` is given a context, and `resolve_filename` exists.
    def resolve(self, system_url: str, public_id: str, context: Any) -> Any:  # type: ignore[override]
        if system_url.endswith(".dtd"):
            return self.resolve_filename(str(self.dtd), context)  # type: ignore[attr-defined]
        return None


# A person signs many records: each name is read once (a pure function of the name).
_person = lru_cache(maxsize=262_144)(parse_display_name)


def _text(element: Any) -> str:
    """An element's text with its markup (`<i>`, `<sub>` in titles) dropped, spaces folded."""
    text = element.text or "" if len(element) == 0 else "".join(element.itertext())
    return text if "  " not in text and "\n" not in text else " ".join(text.split())


def _link(address: str, links: dict[str, str]) -> None:
    """An `ee` link filed as the record's DOI, arXiv id or URL (the first of each kind)."""
    if "doi" not in links and (found := _DOI.search(address)):
        links["doi"] = found.group(1).rstrip(".").lower()
    elif "arxiv" not in links and (found := _ARXIV.search(address)):
        links["arxiv"] = re.sub(r"v\d+$", "", found.group(1))
    elif "url" not in links:
        links["url"] = address


# A proceedings volume's title as DBLP gives it: the name, the acronym and year, the place and
# dates ("30th IEEE International Symposium on Software Reliability Engineering, ISSRE 2019,
# Berlin, Germany, October 28-31, 2019"); LNCS volumes put the acronym amid the name ("Formal
# Methods - 24th International Symposium, FM 2021, Virtual Event, …").
_VOLUME_PARTS = re.compile(r",\s+|\s+[-–—]\s+|:\s+")
_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")


def volume_name(title: str) -> tuple[str, ...]:
    """The venue's name in a proceedings volume's title: the title up to the first part that
    names a year, that part too when it holds two words or more besides the year ("2016 IEEE
    Conference on Computer Vision and Pattern Recognition", not "ISSRE 2019") — whole, commas
    and all ("… on Software Quality, Reliability and Security"), then each of its parts where it
    has several ("Formal Methods", "24th International Symposium"). Nothing for a title without
    a year or without parts (a journal's name is never split). A part is what lies between
    commas, dashes and colons."""
    if not _YEAR.search(title) or not _VOLUME_PARTS.search(title):
        return ()
    end = 0
    for found in _VOLUME_PARTS.finditer(f"{title}, "):
        part = title[end : found.start()]
        if _YEAR.search(part):
            if len(re.findall(r"[^\W\d_]{2,}", part)) >= 2:
                end = found.start()
            break
        end = found.end()
    name = title[:end].rstrip(",:-–— ")
    parts = [part for part in _VOLUME_PARTS.split(name) if part]
    return tuple(dict.fromkeys((name, *parts))) if name else ()


class DblpWork(NamedTuple):
    """One work of the dump as DBLP gives it: its element name (the kind of work), key, title,
    author names as printed (homonym numbers kept), year, venue, linked identifiers, whether it
    is a preprint, and the key of the proceedings volume it is in ("" for none)."""

    kind: str
    key: str
    title: str
    authors: tuple[str, ...]
    year: int | None
    venue: str
    doi: str
    arxiv_id: str
    url: str
    is_preprint: bool
    volume: str = ""


def _work(element: Any) -> DblpWork:
    """One DBLP record element read (its children in one pass: a dump has millions)."""
    fields: dict[str, str] = {}
    authors: list[str] = []
    editors: list[str] = []
    links: dict[str, str] = {}
    for child in element:
        tag = child.tag
        text = child.text
        # Nearly every field is plain text on one line: `_text` only for the others.
        if text is None or len(child) or "  " in text or "\n" in text:
            text = _text(child)
        if tag == "author":
            authors.append(text)
        elif tag == "editor":
            editors.append(text)
        elif tag == "ee":
            _link(text.strip(), links)
        elif tag not in fields:
            fields[tag] = text
    # The venue: the journal, else the booktitle (DBLP's short form of a conference).
    venue = fields.get("journal") or fields.get("booktitle", "")
    year = fields.get("year", "")
    key = element.get("key", "")
    return DblpWork(
        kind=element.tag,
        key=key,
        title=fields.get("title", "").rstrip("."),
        authors=tuple(name for name in authors or editors if name),
        year=int(year) if year.isdigit() else None,
        venue=venue,
        doi=links.get("doi", ""),
        arxiv_id=links.get("arxiv", ""),
        url=links.get("url") or (f"https://dblp.org/rec/{key}" if key else ""),
        is_preprint=element.get("publtype") == "informal" or venue == "CoRR",
        volume=fields.get("crossref", "").strip(),
    )


def as_record(work: DblpWork) -> WorkRecord:
    """A DBLP work as the WorkRecord the verifier compares."""
    return WorkRecord(
        source=Source.DBLP,
        title=work.title,
        authors=tuple(_person(name) for name in work.authors),
        year=work.year,
        venue=work.venue,
        doi=work.doi,
        arxiv_id=work.arxiv_id,
        url=work.url,
        work_type=work.kind,
        is_preprint=work.is_preprint,
    )


def dblp_works(path: Path, dtd: Path | None = None) -> Iterator[tuple[int, DblpWork]]:
    """(line, work) of every work in the dump, in its order. Raises InputError when the DTD is
    missing or the XML breaks off (a truncated download)."""
    dtd = dtd or path.with_name("dblp.dtd")
    if not dtd.is_file():
        raise InputError(
            f"{path}: DBLP's dump needs its DTD for the names' accents: put dblp.dtd "
            "(https://dblp.org/xml/dblp.dtd) beside it, or give --dtd PATH"
        )
    packed = path.suffix.lower() == ".gz"
    with gzip.open(path, "rb") if packed else path.open("rb") as stream:
        parsing = etree.iterparse(
            stream,
            events=("end",),
            tag=(*WORKS, *_SKIPPED),
            load_dtd=True,
            resolve_entities=True,
            no_network=True,
            huge_tree=True,
        )
        parsing.resolvers.add(_DtdBeside(dtd))
        try:
            for _, element in parsing:
                if element.tag in WORKS:
                    yield element.sourceline or 0, _work(element)
                # Drop what was read (and the siblings before it): memory stays flat.
                element.clear(keep_tail=False)
                while element.getprevious() is not None:
                    del element.getparent()[0]
        except (etree.XMLSyntaxError, OSError, EOFError) as exc:
            raise InputError(f"{path}: cannot be read as DBLP's XML dump ({exc})") from exc
