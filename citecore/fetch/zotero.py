"""The writer's Zotero library: the PDFs attached to cited works.

Two ways in, tried in order: Zotero 7's local API (`http://localhost:23119/api/`, the web API's
format, only while Zotero runs with "Allow other applications … to communicate with Zotero" on),
else the data folder itself, `zotero.sqlite` opened immutable and read-only (Zotero holds a lock
on it while running; nothing is ever written) with the files under `storage/`. An item is the
cited work when its citation key matches (Zotero 7's `citationKey` field, Better BibTeX's
`better-bibtex.sqlite` or a `Citation Key:` line in Extra), else its DOI, else its title.
"""

from __future__ import annotations

import abc
import logging
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from citecore.http_clients import ClientShape, sync_client
from citecore.identifiers import normalize_doi
from citecore.model import Reference
from citecore.normalize import normalized_title

if TYPE_CHECKING:
    import httpx

logger = logging.getLogger(__name__)

DEFAULT_URL = "http://localhost:23119"
_PDF = "application/pdf"
_EXTRA_KEY = re.compile(r"^\s*citation key\s*:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)
# `…/Zotero/storage/ABCD2345/name.pdf` (and the old profile folder's `…/zotero/storage/…`).
_STORAGE_PATH = re.compile(
    r"[/\\]storage[/\\]([A-Z0-9]{8})[/\\][^;]*?\.pdf(?=$|[:;])", re.IGNORECASE
)
_EXTRA_DOI = re.compile(r"^\s*doi\s*:\s*(\S+)\s*$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True, slots=True)
class LibraryItem:
    """A regular Zotero item with the PDFs attached to it (attachment keys, in order)."""

    item_key: str
    citation_key: str = ""
    doi: str = ""
    title: str = ""
    attachments: tuple[str, ...] = ()


def zotero_storage_keys(file_field: str) -> list[str]:
    """The attachment keys of the PDFs a Zotero-exported `file` field names by their place in
    Zotero's `storage/` folder (on whichever machine it was exported)."""
    return [match.group(1).upper() for match in _STORAGE_PATH.finditer(file_field)]


def default_data_folder() -> Path:
    """Zotero's default data folder (`~/Zotero`)."""
    return Path.home() / "Zotero"


class ZoteroLibrary(abc.ABC):
    """Cited works found among a library's items, and the files of their PDFs."""

    def __init__(self, items: Iterable[LibraryItem], where: str) -> None:
        self.where = where  # "Zotero's local API at …", "zotero.sqlite in …": for the report
        self._by_key: dict[str, LibraryItem] = {}
        self._by_doi: dict[str, LibraryItem] = {}
        self._by_title: dict[str, LibraryItem] = {}
        for item in items:
            if not item.attachments:
                continue
            if item.citation_key:
                self._by_key.setdefault(item.citation_key, item)
            if item.doi:
                self._by_doi.setdefault(normalize_doi(item.doi).casefold(), item)
            if item.title:
                self._by_title.setdefault(normalized_title(item.title), item)

    def find(self, reference: Reference) -> LibraryItem | None:
        """The library's item for a reference: by citation key, else DOI, else title."""
        found = self._by_key.get(reference.key)
        if found is None and reference.doi:
            found = self._by_doi.get(normalize_doi(reference.doi).casefold())
        if found is None and reference.title:
            found = self._by_title.get(normalized_title(reference.title))
        return found

    @abc.abstractmethod
    def file_of(self, attachment_key: str) -> Path | None:
        """The local file of an attachment, if it is there."""

    @abc.abstractmethod
    def close(self) -> None:
        """Let go of any connection (the local API's)."""


def _extra_fields(extra: str) -> tuple[str, str]:
    key = _EXTRA_KEY.search(extra)
    doi = _EXTRA_DOI.search(extra)
    return (key.group(1) if key else "", doi.group(1) if doi else "")


def _file_url_path(url: str) -> Path | None:
    parts = urlsplit(url.strip())
    if parts.scheme != "file":
        return None
    return Path(url2pathname(unquote(parts.path)))


class LocalApiLibrary(ZoteroLibrary):
    """A library read through Zotero's local API."""

    def __init__(self, base_url: str, items: Iterable[LibraryItem], client: httpx.Client) -> None:
        super().__init__(items, f"Zotero's local API at {base_url}")
        self._base = base_url.rstrip("/")
        self._client = client

    def file_of(self, attachment_key: str) -> Path | None:
        import httpx  # start-up: ~110 ms: only a run that asks Zotero

        try:
            reply = self._client.get(
                f"{self._base}/api/users/0/items/{attachment_key}/file/view/url"
            )
        except httpx.HTTPError as exc:
            logger.info("zotero: %s", exc)
            return None
        path = _file_url_path(reply.text) if reply.status_code == 200 else None
        return path if path is not None and path.is_file() else None

    def close(self) -> None:
        self._client.close()


def open_local_api(base_url: str = DEFAULT_URL, timeout: float = 5.0) -> LocalApiLibrary | None:
    """The library behind a running Zotero's local API; None when nothing answers there (Zotero
    is not running) or the API is switched off (403)."""
    import httpx  # start-up: ~110 ms: only a run that asks Zotero

    client = sync_client(ClientShape(timeout, connect=1.0, follow_redirects=False))
    try:
        reply = client.get(f"{base_url.rstrip('/')}/api/users/0/items", params={"format": "json"})
    except httpx.HTTPError as exc:
        logger.info("zotero: no local API at %s: %s", base_url, type(exc).__name__)
        client.close()
        return None
    if reply.status_code == 403:
        logger.warning(
            "zotero: the local API at %s is switched off (Zotero's Settings → Advanced: "
            '"Allow other applications on this computer to communicate with Zotero")',
            base_url,
        )
    try:
        data = reply.json() if reply.status_code == 200 else None
    except ValueError:
        data = None
    if not isinstance(data, list):
        client.close()
        return None
    return LocalApiLibrary(base_url, items_from_api(data), client)


def items_from_api(data: list[Any]) -> list[LibraryItem]:
    """Regular items with their PDF attachments, from the local API's item list."""
    pdfs: dict[str, list[str]] = {}
    regular: list[dict[str, Any]] = []
    for entry in data:
        fields = entry.get("data") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not isinstance(fields, dict):
            continue
        if fields.get("itemType") == "attachment":
            parent = str(fields.get("parentItem") or "")
            if (
                parent
                and fields.get("contentType") == _PDF
                and fields.get("linkMode") != "linked_url"
            ):
                pdfs.setdefault(parent, []).append(str(fields.get("key") or entry.get("key")))
        elif fields.get("itemType") not in ("note", "annotation"):
            regular.append(fields)
    items = []
    for fields in regular:
        key = str(fields.get("key") or "")
        extra_key, extra_doi = _extra_fields(str(fields.get("extra") or ""))
        items.append(
            LibraryItem(
                key,
                str(fields.get("citationKey") or "") or extra_key,
                str(fields.get("DOI") or "") or extra_doi,
                str(fields.get("title") or ""),
                tuple(pdfs.get(key, ())),
            )
        )
    return items


class DataFolderLibrary(ZoteroLibrary):
    """A library read from Zotero's data folder, never written."""

    def __init__(self, folder: Path, items: Iterable[LibraryItem], paths: dict[str, str]):
        super().__init__(items, f"zotero.sqlite in {folder}")
        self._folder = folder
        self._paths = paths  # attachment key → Zotero's `path` value

    def file_of(self, attachment_key: str) -> Path | None:
        stored = self._paths.get(attachment_key, "")
        if stored.startswith("storage:"):
            path = self._folder / "storage" / attachment_key / stored.removeprefix("storage:")
        elif stored and not stored.startswith("attachments:"):
            path = Path(stored)  # a linked file, by its absolute path
        else:
            return None  # relative to a base folder set in Zotero's preferences: not known here
        return path if path.is_file() else None

    def close(self) -> None:
        """Nothing to let go of: every read opens and closes the database."""


def _immutable(path: Path) -> sqlite3.Connection:
    """A read-only connection that takes no lock (Zotero keeps its database locked)."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)


def _better_bibtex_keys(folder: Path) -> dict[str, str]:
    """Item key → citation key from Better BibTeX's own database, when there is one."""
    path = folder / "better-bibtex.sqlite"
    if not path.is_file():
        return {}
    try:
        with _immutable(path) as connection:
            rows = connection.execute("SELECT itemKey, citationKey FROM citationkey").fetchall()
    except sqlite3.Error as exc:
        logger.info("zotero: %s unreadable: %s", path, exc)
        return {}
    return {str(item): str(key) for item, key in rows if item and key}


def open_data_folder(folder: Path) -> DataFolderLibrary | None:
    """The library in a Zotero data folder; None when it holds no readable `zotero.sqlite`."""
    database = folder / "zotero.sqlite"
    if not database.is_file():
        return None
    try:
        with _immutable(database) as connection:
            return _read_database(folder, connection)
    except sqlite3.Error as exc:
        logger.warning("zotero: cannot read %s: %s", database, exc)
        return None


def _read_database(folder: Path, connection: sqlite3.Connection) -> DataFolderLibrary:
    keys = dict(connection.execute("SELECT itemID, key FROM items").fetchall())
    deleted = {row[0] for row in connection.execute("SELECT itemID FROM deletedItems")}
    fields: dict[int, dict[str, str]] = {}
    # Zotero 5 and later join item data to `fieldsCombined` (base and custom fields together).
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    names = "fieldsCombined" if "fieldsCombined" in tables else "fields"
    for item_id, name, value in connection.execute(
        "SELECT d.itemID, f.fieldName, v.value FROM itemData d "
        f"JOIN {names} f ON f.fieldID = d.fieldID JOIN itemDataValues v ON v.valueID = d.valueID "
        "WHERE f.fieldName IN ('title', 'DOI', 'extra', 'citationKey')"
    ):
        fields.setdefault(item_id, {})[name] = str(value)
    pdfs: dict[int, list[str]] = {}
    paths: dict[str, str] = {}
    for item_id, parent, link_mode, content_type, path in connection.execute(
        "SELECT itemID, parentItemID, linkMode, contentType, path FROM itemAttachments"
    ):
        # linkMode 3 is a link to a web page: no file on this machine.
        if parent is None or item_id in deleted or content_type != _PDF or link_mode == 3:
            continue
        pdfs.setdefault(parent, []).append(keys[item_id])
        paths[keys[item_id]] = str(path or "")
    better_bibtex = _better_bibtex_keys(folder)
    items = []
    for item_id, attachments in pdfs.items():
        if item_id in deleted or item_id not in keys:
            continue
        values = fields.get(item_id, {})
        extra_key, extra_doi = _extra_fields(values.get("extra", ""))
        item_key = keys[item_id]
        citation_key = values.get("citationKey") or better_bibtex.get(item_key) or extra_key
        doi = values.get("DOI") or extra_doi
        items.append(
            LibraryItem(item_key, citation_key, doi, values.get("title", ""), tuple(attachments))
        )
    return DataFolderLibrary(folder, items, paths)


def open_library(base_url: str, data_folder: Path | None) -> ZoteroLibrary | None:
    """The writer's Zotero library: through the local API when Zotero runs, else from the data
    folder (`~/Zotero` unless told); None when neither is there."""
    library: ZoteroLibrary | None = open_local_api(base_url) if base_url else None
    if library is None:
        library = open_data_folder(data_folder or default_data_folder())
    return library
