"""A loopback server speaking GROBID's REST API as grobid-client-python uses it: `GET
/api/isalive` and `POST /api/processReferences` (multipart: the PDF as `input`, form fields such
as `includeRawCitations`). It answers TEI shaped like GROBID 0.8's (the element and attribute
names of GROBID's documentation, doc/Grobid-service.md): a `listBibl` of `biblStruct`s with
`analytic`/`monogr` titles, `persName` authors with typed forenames, an `imprint` with
`biblScope` volume and page range and a `date type="published" when=…`, `idno` DOI/arXiv, and
`note type="raw_reference"` when raw citations were asked for.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import default as default_policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from xml.sax.saxutils import escape, quoteattr

_HEADER = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<TEI xml:space="preserve" xmlns="http://www.tei-c.org/ns/1.0" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xmlns:xlink="http://www.w3.org/1999/xlink">\n'
    "\t<teiHeader/>\n\t<text>\n\t\t<front/>\n\t\t<body/>\n\t\t<back>\n\t\t\t<div>\n"
    "\t\t\t\t<listBibl>\n"
)
_FOOTER = "\t\t\t\t</listBibl>\n\t\t\t</div>\n\t\t</back>\n\t</text>\n</TEI>\n"


def _persname(name: dict[str, str]) -> str:
    given = name.get("given", "").split()
    forenames = "".join(
        f'<forename type="{"first" if i == 0 else "middle"}">{escape(part)}</forename>'
        for i, part in enumerate(given)
    )
    surname = f"<surname>{escape(name['family'])}</surname>"
    return f"<author><persName>{forenames}{surname}</persName></author>"


def bibl_struct(number: int, record: dict[str, Any], raw: bool) -> str:
    """One `biblStruct` for a record with CSL JSON field names."""
    authors = "".join(_persname(a) for a in record.get("author", []))
    year = record.get("issued", {}).get("date-parts", [[None]])[0][0]
    date = f'<date type="published" when="{year}" />' if year else ""
    scopes = ""
    if record.get("volume"):
        scopes += f'<biblScope unit="volume">{escape(record["volume"])}</biblScope>'
    if record.get("page"):
        first, _, last = record["page"].partition("-")
        scopes += f'<biblScope unit="page" from="{first}" to="{last or first}" />'
    ids = "".join(
        f'<idno type="{kind}">{escape(record[key])}</idno>'
        for key, kind in (("DOI", "DOI"), ("arxiv", "arXiv"))
        if record.get(key)
    )
    venue = record.get("container-title", "")
    title = f'<title level="a" type="main">{escape(record["title"])}</title>'
    analytic = f"<analytic>{title}{authors}{ids}</analytic>" if venue else ""
    monogr_title = (
        f'<title level="j">{escape(venue)}</title>'
        if venue
        else f'<title level="m">{escape(record["title"])}</title>{authors}'
    )
    note = f'<note type="raw_reference">{escape(record["raw"])}</note>' if raw else ""
    return (
        f"\t\t\t\t\t<biblStruct xml:id={quoteattr(f'b{number}')}>{analytic}"
        f"<monogr>{monogr_title}<imprint>{scopes}{date}</imprint></monogr>"
        f"{'' if venue else ids}{note}</biblStruct>\n"
    )


@dataclass
class GrobidEmulator:
    """The server's state: the records it "reads" from any PDF, what it answers, and every
    request seen (path, form fields, size of the uploaded PDF)."""

    records: list[dict[str, Any]] = field(default_factory=list)
    status: int = 200
    body: str | None = None  # answer this instead of TEI (a broken server)
    busy: int = 0  # answer 503 to this many requests first
    requests: list[tuple[str, dict[str, str], int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        emulator = self

        class Handler(BaseHTTPRequestHandler):
            def _send(self, status: int, text: str, kind: str) -> None:
                data = text.encode()
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path == "/api/isalive":
                    self._send(200, "true", "text/plain")
                else:
                    self._send(404, "not found", "text/plain")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                body = self.rfile.read(length)
                form, pdf_size = _form(self.headers.get("Content-Type", ""), body)
                emulator.requests.append((self.path, form, pdf_size))
                if self.path != "/api/processReferences":
                    self._send(404, "not found", "text/plain")
                elif emulator.busy > 0:
                    emulator.busy -= 1
                    self._send(503, "", "text/plain")
                elif pdf_size == 0:
                    self._send(400, "no input", "text/plain")
                elif emulator.status != 200 or emulator.body is not None:
                    self._send(emulator.status, emulator.body or "", "application/xml")
                else:
                    raw = form.get("includeRawCitations") == "1"
                    entries = "".join(
                        bibl_struct(i, r, raw) for i, r in enumerate(emulator.records)
                    )
                    self._send(200, _HEADER + entries + _FOOTER, "application/xml")

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        """The base URL a GROBID client is given."""
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        """Stop serving."""
        self._server.shutdown()
        self._server.server_close()


def _form(content_type: str, body: bytes) -> tuple[dict[str, str], int]:
    """The text fields of a multipart form and the size of its `input` file."""
    message = BytesParser(policy=default_policy).parsebytes(
        f"Content-Type: {content_type}\r\n\r\n".encode() + body
    )
    fields: dict[str, str] = {}
    size = 0
    for part in message.iter_parts() if message.is_multipart() else ():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        if name == "input":
            size = len(data)
        elif isinstance(name, str):
            fields[name] = data.decode()
    return fields, size
