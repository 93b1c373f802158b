"""DBLP's XML dump (`dblp.xml.gz`, published with its DTD `dblp.dtd`) read as records, streaming.

The dump is one `<dblp>` element holding every record (over 7 million): it is read with lxml's
`iterparse`, each record dropped once read, so memory stays flat whatever the dump's size. Its
names carry the DTD's character entities (`M. Tamer &Ouml;zsu`): the DTD is loaded from beside
the dump, as DBLP publishes the two, or from the path given. What a record gives:

- every record type — article, inproceedings, proceedings, book, incollection, theses — and
  informal publications (`publtype="informal"`, CoRR's preprints among them) marked as preprints;
  the `www` person pages and `data` artefacts are not works and are left out;
- `ee` links read as a DOI (`https://doi.org/…`), an arXiv id (`arxiv.org/abs/…`), else a URL;
- the venue: the journal, else the booktitle (DBLP's short form, "CVPR"); a proceedings
  volume is a record of its own, whose title names the venue in full;
- authors (editors for a volume without authors) with DBLP's homonym numbers ("Michael Schwarz
  0001") kept as DBLP's, never part of the name compared.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

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
    return " ".join("".join(element.itertext()).split())


def _record(element: Any) -> WorkRecord:
    """One DBLP record element as a WorkRecord, or why it is none."""
    titled = element.find("title")
    title = _text(titled) if titled is not None else ""
    people = [_text(a) for a in element.iterfind("author")] or [
        _text(e) for e in element.iterfind("editor")
    ]
    year_text = element.findtext("year") or ""
    doi = arxiv = url = ""
    for link in element.iterfind("ee"):
        address = (link.text or "").strip()
        if not doi and (found := _DOI.search(address)):
            doi = found.group(1).rstrip(".").lower()
        elif not arxiv and (found := _ARXIV.search(address)):
            arxiv = re.sub(r"v\d+$", "", found.group(1))
        elif not url:
            url = address
    container = element.find("journal")
    if container is None:
        container = element.find("booktitle")
    venue = _text(container) if container is not None else ""
    key = element.get("key", "")
    informal = element.get("publtype") == "informal" or venue == "CoRR"
    return WorkRecord(
        source=Source.DBLP,
        title=title.rstrip("."),
        authors=tuple(_person(name) for name in people if name),
        year=int(year_text) if year_text.isdigit() else None,
        venue=venue,
        doi=doi,
        arxiv_id=arxiv,
        url=url or (f"https://dblp.org/rec/{key}" if key else ""),
        work_type=element.tag,
        is_preprint=informal,
    )


def dblp_records(path: Path, dtd: Path | None = None) -> Iterator[tuple[int, WorkRecord, str]]:
    """(line, record, DBLP key) of every work in the dump, in its order. Raises InputError when
    the DTD is missing or the XML breaks off (a truncated download)."""
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
                    yield element.sourceline or 0, _record(element), element.get("key", "")
                # Drop what was read (and the siblings before it): memory stays flat.
                element.clear(keep_tail=False)
                while element.getprevious() is not None:
                    del element.getparent()[0]
        except (etree.XMLSyntaxError, OSError, EOFError) as exc:
            raise InputError(f"{path}: cannot be read as DBLP's XML dump ({exc})") from exc
