"""A Zotero library for tests, in both of the forms citecheck reads: a data folder with a
`zotero.sqlite` in Zotero's own schema (the tables and columns of Zotero 7's userdata.sql and
system.sql that hold items, fields, attachments and the trash) and its `storage/`, and a
loopback server speaking Zotero's local API (`/api/users/0/items`, `…/file/view/url`)."""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

_SCHEMA = """
CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL,
    dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0,
    synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key));
CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID));
CREATE TABLE itemAttachments (itemID INTEGER PRIMARY KEY, parentItemID INT, linkMode INT,
    contentType TEXT, charsetID INT, path TEXT, syncState INT DEFAULT 0, storageModTime INT,
    storageHash TEXT);
CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY,
    dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL);
CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT,
    display INT DEFAULT 1);
CREATE TABLE fields (fieldID INTEGER PRIMARY KEY, fieldName TEXT, fieldFormatID INT);
CREATE TABLE fieldsCombined (fieldID INT NOT NULL, fieldName TEXT NOT NULL, label TEXT,
    fieldFormatID INT, custom INT NOT NULL, PRIMARY KEY (fieldID, custom));
"""
_TYPES = {"journalArticle": 22, "preprint": 31, "attachment": 3, "note": 28}
_FIELDS = {"title": 1, "DOI": 59, "extra": 16, "citationKey": 120, "url": 13}
_LINK_MODES = {"imported_file": 0, "imported_url": 1, "linked_file": 2, "linked_url": 3}


@dataclass
class Attachment:
    """A PDF attached to an item: stored in `storage/` (imported) or linked by its path."""

    key: str
    data: bytes = b""
    filename: str = "paper.pdf"
    link_mode: str = "imported_file"
    linked_path: str = ""
    content_type: str = "application/pdf"


@dataclass
class Item:
    """A regular item of the library."""

    key: str
    title: str = ""
    doi: str = ""
    citation_key: str = ""  # Zotero 7's own field
    extra: str = ""
    deleted: bool = False
    attachments: list[Attachment] = field(default_factory=list)


def build_data_folder(
    folder: Path, items: list[Item], better_bibtex: dict[str, str] | None = None
) -> Path:
    """A Zotero data folder holding `items`; `better_bibtex` maps item keys to the citation
    keys Better BibTeX's own database holds."""
    folder.mkdir(parents=True, exist_ok=True)
    connection = sqlite3.connect(folder / "zotero.sqlite")
    connection.executescript(_SCHEMA)
    connection.executemany("INSERT INTO itemTypes (itemTypeID, typeName) VALUES (?, ?)",
                           [(i, n) for n, i in _TYPES.items()])  # fmt: skip
    connection.executemany("INSERT INTO fields (fieldID, fieldName) VALUES (?, ?)",
                           [(i, n) for n, i in _FIELDS.items()])  # fmt: skip
    connection.executemany(
        "INSERT INTO fieldsCombined (fieldID, fieldName, custom) VALUES (?, ?, 0)",
        [(i, n) for n, i in _FIELDS.items()],
    )
    values: dict[str, int] = {}
    next_id = 1

    def add(key: str, type_name: str, deleted: bool) -> int:
        nonlocal next_id
        item_id, next_id = next_id, next_id + 1
        connection.execute(
            "INSERT INTO items (itemID, itemTypeID, libraryID, key) VALUES (?, ?, 1, ?)",
            (item_id, _TYPES[type_name], key),
        )
        if deleted:
            connection.execute("INSERT INTO deletedItems (itemID) VALUES (?)", (item_id,))
        return item_id

    def set_field(item_id: int, name: str, value: str) -> None:
        if not value:
            return
        value_id = values.setdefault(value, len(values) + 1)
        connection.execute("INSERT OR IGNORE INTO itemDataValues VALUES (?, ?)", (value_id, value))
        connection.execute(
            "INSERT INTO itemData VALUES (?, ?, ?)", (item_id, _FIELDS[name], value_id)
        )

    for item in items:
        item_id = add(item.key, "journalArticle", item.deleted)
        for name, value in (("title", item.title), ("DOI", item.doi), ("extra", item.extra),
                            ("citationKey", item.citation_key)):  # fmt: skip
            set_field(item_id, name, value)
        for attachment in item.attachments:
            attachment_id = add(attachment.key, "attachment", False)
            if attachment.link_mode in ("imported_file", "imported_url"):
                stored = folder / "storage" / attachment.key / attachment.filename
                stored.parent.mkdir(parents=True, exist_ok=True)
                stored.write_bytes(attachment.data)
                path = f"storage:{attachment.filename}"
            else:
                path = attachment.linked_path
            connection.execute(
                "INSERT INTO itemAttachments (itemID, parentItemID, linkMode, contentType, path) "
                "VALUES (?, ?, ?, ?, ?)",
                (attachment_id, item_id, _LINK_MODES[attachment.link_mode],
                 attachment.content_type, path),
            )  # fmt: skip
    connection.commit()
    connection.close()
    if better_bibtex:
        bbt = sqlite3.connect(folder / "better-bibtex.sqlite")
        bbt.execute("CREATE TABLE citationkey (itemID NOT NULL PRIMARY KEY, itemKey NOT NULL, "
                    "libraryID NOT NULL, citationKey NOT NULL, pinned)")  # fmt: skip
        bbt.executemany("INSERT INTO citationkey VALUES (?, ?, 1, ?, 0)",
                        [(i, k, c) for i, (k, c) in enumerate(better_bibtex.items())])  # fmt: skip
        bbt.commit()
        bbt.close()
    return folder


def api_items(folder: Path, items: list[Item]) -> list[dict[str, object]]:
    """The items as the local API's `/api/users/0/items` lists them (regular items and their
    attachments, each with `key`, `version` and `data`)."""
    listed: list[dict[str, object]] = []
    for item in items:
        if item.deleted:
            continue
        data = {"key": item.key, "itemType": "journalArticle", "title": item.title,
                "DOI": item.doi, "extra": item.extra, "citationKey": item.citation_key}  # fmt: skip
        listed.append({"key": item.key, "version": 1, "data": data})
        for attachment in item.attachments:
            listed.append({"key": attachment.key, "version": 1, "data": {
                "key": attachment.key, "itemType": "attachment", "parentItem": item.key,
                "linkMode": attachment.link_mode, "contentType": attachment.content_type,
                "filename": attachment.filename}})  # fmt: skip
    return listed


class LocalApi:
    """A loopback server answering as Zotero 7's local API does for a library in `folder`."""

    def __init__(self, folder: Path, items: list[Item], enabled: bool = True) -> None:
        listed = api_items(folder, items)
        files = {
            a.key: (folder / "storage" / a.key / a.filename
                    if a.link_mode.startswith("imported") else Path(a.linked_path))
            for item in items for a in item.attachments
        }  # fmt: skip
        self.requests: list[str] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = urlsplit(self.path).path
                server.requests.append(path)
                if not enabled:
                    self._send(403, "text/plain", "Local API is not enabled")
                elif path == "/api/users/0/items":
                    self._send(200, "application/json", json.dumps(listed, indent=4))
                elif path.startswith("/api/users/0/items/") and path.endswith("/file/view/url"):
                    key = path.split("/")[5]
                    if key in files:
                        self._send(200, "text/plain", files[key].resolve().as_uri())
                    else:
                        self._send(404, "text/plain", "Not found")
                else:
                    self._send(404, "text/plain", "Not found")

            def _send(self, status: int, content_type: str, body: str) -> None:
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Zotero-API-Version", "3")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: object) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> LocalApi:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()
