"""A PDF's references read by a GROBID server (`--grobid URL`), the standard parser of
scholarly infrastructure, through its Python client (grobid-client-python).

GROBID's `processReferences` answers TEI: one `<biblStruct>` per reference, with the article
title (`analytic/title[@level="a"]`), authors (`persName`: `forename`, `surname`), the venue
(`monogr/title`), `imprint` (date, volume, pages), identifiers (`idno` DOI/arXiv/PMID), links
(`ptr`) and, asked with `includeRawCitations`, the reference as printed (`note[@type=
"raw_reference"]`). What GROBID did not give stays empty. The TEI is data from a server: it is
parsed, never evaluated, and a server that fails or answers nonsense leaves the PDF to
citecheck's own reader (the caller decides), with the reason.
"""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from citecore.errors import InputError
from citecore.identifiers import normalize_doi
from citecore.model import Person, Reference, SourceLocation

_TEI = {"tei": "http://www.tei-c.org/ns/1.0"}


def _text(element: ElementTree.Element | None) -> str:
    return " ".join("".join(element.itertext()).split()) if element is not None else ""


def _person(name: ElementTree.Element) -> Person | None:
    family = _text(name.find("tei:surname", _TEI))
    given = " ".join(_text(f) for f in name.findall("tei:forename", _TEI))
    return Person(family=family, given=given) if family else None


def _year(struct: ElementTree.Element) -> int | None:
    for date in struct.iterfind(".//tei:imprint/tei:date", _TEI):
        found = re.match(r"(\d{4})", date.get("when", "") or _text(date))
        if found:
            return int(found.group(1))
    return None


def _pages(struct: ElementTree.Element) -> str:
    scope = struct.find(".//tei:imprint/tei:biblScope[@unit='page']", _TEI)
    if scope is None:
        return ""
    first, last = scope.get("from", ""), scope.get("to", "")
    return f"{first}–{last}" if first and last else first or _text(scope)


def _reference(struct: ElementTree.Element, file: str) -> Reference:
    analytic = struct.find("tei:analytic", _TEI)
    monograph = struct.find("tei:monogr", _TEI)
    part_title = _text(analytic.find("tei:title", _TEI)) if analytic is not None else ""
    whole_title = _text(monograph.find("tei:title", _TEI)) if monograph is not None else ""
    holder = analytic if analytic is not None and part_title else monograph
    names = holder.findall("tei:author/tei:persName", _TEI) if holder is not None else []
    authors = tuple(p for p in (_person(n) for n in names) if p is not None)
    identifiers = {
        (idno.get("type") or "").lower(): _text(idno)
        for idno in struct.iterfind(".//tei:idno", _TEI)
    }
    pointer = struct.find(".//tei:ptr", _TEI)
    raw = _text(struct.find("tei:note[@type='raw_reference']", _TEI))
    year = _year(struct)
    volume = struct.find(".//tei:imprint/tei:biblScope[@unit='volume']", _TEI)
    return Reference(
        key="",
        entry_type="article" if part_title and whole_title else "misc",
        location=SourceLocation(file),
        title=part_title or whole_title,
        authors=authors,
        authors_complete=bool(authors) and not re.search(r"\bet al\b", raw),
        year=year,
        year_text=str(year) if year else "",
        venue=whole_title if part_title else "",
        volume=_text(volume),
        pages=_pages(struct),
        doi=normalize_doi(identifiers.get("doi", "")),
        arxiv_id=re.sub(r"^arxiv:", "", identifiers.get("arxiv", ""), flags=re.IGNORECASE),
        pmid=identifiers.get("pmid", ""),
        url=pointer.get("target", "") if pointer is not None else "",
        text=raw,
    )


def references_from_tei(tei: str, file: str) -> list[Reference]:
    """Every `biblStruct` of a GROBID TEI answer, in order. Raises InputError when the answer
    is not TEI."""
    try:
        root = ElementTree.fromstring(tei)
    except ElementTree.ParseError as exc:
        raise InputError(f"{file}: GROBID's answer is not XML: {exc}") from exc
    return [_reference(s, file) for s in root.iterfind(".//tei:listBibl/tei:biblStruct", _TEI)]


_BUSY_RETRIES = 3


def references_from_grobid(path: Path, server: str, timeout: float) -> list[Reference]:
    """The references GROBID at `server` reads from the PDF at `path`. Raises InputError (with
    the server's status or the connection failure) when GROBID gives no answer to use.

    A busy GROBID (503) is asked again a few times, a second apart, not forever as the client's
    batch methods do: a build must not hang on a server that stays busy."""
    try:  # start-up: an optional extra, for --grobid only
        from grobid_client.grobid_client import GrobidClient
    except ImportError as exc:
        raise InputError(
            "--grobid needs grobid-client-python: pip install 'citecheck[grobid]'"
        ) from exc
    data = {"includeRawCitations": "1"}  # no consolidation: the registries are ours to ask
    status, answer = 0, ""
    try:
        client = GrobidClient(
            grobid_server=server.rstrip("/"), check_server=False, timeout=int(max(timeout, 1))
        )
        for attempt in range(_BUSY_RETRIES):
            with path.open("rb") as pdf:
                files = {"input": (path.name, pdf, "application/pdf")}
                response, status = client.post(
                    url=client.get_server_url("processReferences"),
                    files=files,
                    data=data,
                    headers={"Accept": "application/xml"},
                    timeout=max(timeout, 1.0),
                )
            if status != 503:
                answer = response.text
                break
            time.sleep(attempt + 1)
    except Exception as exc:  # the client raises requests' and its own errors alike
        raise InputError(f"{path}: GROBID at {server} could not be reached: {exc}") from exc
    if status != 200 or not answer:
        raise InputError(f"{path}: GROBID at {server} answered {status}")
    return references_from_tei(answer, str(path))
