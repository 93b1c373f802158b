"""The writer's Zotero library: cited keys matched by citation key (Zotero 7's field, Better
BibTeX's database, Extra), else DOI, else title; PDFs read through the local API when Zotero
runs, else from the data folder opened read-only; trashed items, links to web pages and files
not on this machine are no source."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from citecore.fetch.records import Origin
from citecore.fetch.run import FetchPlan, fetch_sources
from citecore.fetch.zotero import ZoteroLibrary, open_data_folder, open_library, open_local_api
from citecore.model import Reference, SourceLocation
from citecore.registries.settings import ClientSettings
from tests.fetch.made import pdf_of
from tests.fetch.zotero_library import Attachment, Item, LocalApi, build_data_folder

NATIVE = pdf_of("The native citation key's paper.")
BBT = pdf_of("Better BibTeX's paper.")
EXTRA = pdf_of("A key pinned in Extra.")
BY_DOI = pdf_of("Found by its DOI.")
BY_TITLE = pdf_of("Found by its title.")
LINKED = pdf_of("A linked file.")


def library_items(tmp_path: Path) -> list[Item]:
    linked = tmp_path / "elsewhere" / "linked.pdf"
    linked.parent.mkdir(parents=True)
    linked.write_bytes(LINKED)
    return [
        Item("AAAA1111", "Native keys", citation_key="native2024",
             attachments=[Attachment("PDF00001", NATIVE)]),
        Item("BBBB2222", "Kept by Better BibTeX", attachments=[Attachment("PDF00002", BBT)]),
        Item("CCCC3333", "Pinned in Extra", extra="Citation Key: pinned2020\ntex.x: y",
             attachments=[Attachment("PDF00003", EXTRA)]),
        Item("DDDD4444", "A title that differs", doi="10.1000/ByDoi",
             attachments=[Attachment("PDF00004", BY_DOI)]),
        Item("EEEE5555", "Deep Residual Learning for Image Recognition",
             attachments=[Attachment("PDF00005", BY_TITLE, link_mode="imported_url")]),
        Item("FFFF6666", "Linked", citation_key="linked2019",
             attachments=[Attachment("PDF00006", link_mode="linked_file",
                                     linked_path=str(linked))]),
        Item("GGGG7777", "In the trash", citation_key="trashed2018", deleted=True,
             attachments=[Attachment("PDF00007", pdf_of("Trashed."))]),
        Item("HHHH8888", "Only a web link", citation_key="weblink2017",
             attachments=[Attachment("LINK0008", link_mode="linked_url",
                                     content_type="text/html")]),
        Item("JJJJ9999", "Not synced here", citation_key="elsewhere2016",
             attachments=[Attachment("PDF00009", link_mode="linked_file",
                                     linked_path="/nonexistent/paper.pdf")]),
    ]  # fmt: skip


def cited() -> list[Reference]:
    def ref(key: str, title: str = "", doi: str = "") -> Reference:
        return Reference(key, "article", SourceLocation("refs.bib", 1), title=title, doi=doi)

    return [
        ref("native2024"),
        ref("bbt2023"),
        ref("pinned2020"),
        ref("bydoi", "Another title", "10.1000/bydoi"),
        ref("he2016", "Deep residual learning for image recognition"),
        ref("linked2019"),
        ref("trashed2018"),
        ref("weblink2017"),
        ref("elsewhere2016"),
        ref("unknown", "Nothing like it"),
    ]


EXPECTED = {
    "native2024": NATIVE,
    "bbt2023": BBT,
    "pinned2020": EXTRA,
    "bydoi": BY_DOI,
    "he2016": BY_TITLE,
    "linked2019": LINKED,
}


def _found(library: ZoteroLibrary) -> dict[str, bytes]:
    found = {}
    for reference in cited():
        item = library.find(reference)
        for key in item.attachments if item else ():
            path = library.file_of(key)
            if path is not None:
                found[reference.key] = path.read_bytes()
    return found


def test_the_data_folder_read_only(tmp_path: Path) -> None:
    folder = build_data_folder(
        tmp_path / "Zotero", library_items(tmp_path), better_bibtex={"BBBB2222": "bbt2023"}
    )
    database = folder / "zotero.sqlite"
    before = hashlib.sha256(database.read_bytes()).hexdigest()
    database.chmod(0o444)  # as good as locked: citecheck must never need to write
    library = open_data_folder(folder)
    assert library is not None
    assert _found(library) == EXPECTED
    assert hashlib.sha256(database.read_bytes()).hexdigest() == before
    assert not (folder / "zotero.sqlite-wal").exists()


def test_the_local_api_when_zotero_runs(tmp_path: Path) -> None:
    items = library_items(tmp_path)
    folder = build_data_folder(tmp_path / "Zotero", items)
    items[1].citation_key = "bbt2023"  # Better BibTeX puts its key in the item's field
    with LocalApi(folder, items) as api:
        library = open_local_api(api.url)
        assert library is not None and "local API" in library.where
        assert _found(library) == EXPECTED
        library.close()
        assert "/api/users/0/items" in api.requests


def test_the_data_folder_when_the_local_api_is_off(tmp_path: Path) -> None:
    items = library_items(tmp_path)
    folder = build_data_folder(tmp_path / "Zotero", items, better_bibtex={"BBBB2222": "bbt2023"})
    with LocalApi(folder, items, enabled=False) as api:
        library = open_library(api.url, folder)
        assert library is not None and "zotero.sqlite" in library.where
    # Nothing listening at all: the data folder, after a refused connection.
    library = open_library("http://127.0.0.1:9", folder)
    assert library is not None and "zotero.sqlite" in library.where
    assert open_library("http://127.0.0.1:9", tmp_path / "no-zotero") is None


@pytest.mark.parametrize("broken", [b"", b"not a database at all" * 100])
def test_an_unreadable_database_is_no_library(tmp_path: Path, broken: bytes) -> None:
    (tmp_path / "zotero.sqlite").write_bytes(broken)
    assert open_data_folder(tmp_path) is None  # said once in the log, never a traceback


def test_sources_fetch_copies_the_library_pdfs_first(tmp_path: Path) -> None:
    folder = build_data_folder(
        tmp_path / "Zotero", library_items(tmp_path), better_bibtex={"BBBB2222": "bbt2023"}
    )
    library = open_data_folder(folder)
    sources = tmp_path / "sources"
    plan = FetchPlan(sources, settings=ClientSettings(offline=True), library=library)
    outcome = fetch_sources(cited(), plan)
    stored = {s.key: s for s in outcome.stored}
    assert set(stored) == set(EXPECTED)
    assert all(s.origin is Origin.ZOTERO for s in stored.values())
    assert (sources / "bydoi.pdf").read_bytes() == BY_DOI
    missing = {m.key: m for m in outcome.missing}
    assert "elsewhere2016" in missing
    assert any("not on this machine" in t for t in missing["elsewhere2016"].tried)


def test_a_file_field_from_another_machine_names_the_attachment(tmp_path: Path) -> None:
    # Exported by Zotero elsewhere (the wild corpus's zotero-filepaths-only and Better BibTeX
    # files carry such paths): the storage folder's name is the attachment's key here too.
    folder = build_data_folder(tmp_path / "Zotero", library_items(tmp_path))
    library = open_data_folder(folder)
    exported = (
        "ScienceDirect Full Text PDF:/Users/someone/Library/Application Support/Zotero/"
        "Profiles/x.default/zotero/storage/PDF00004/A title that differs.pdf:application/pdf;"
        "Snapshot:/Users/someone/Zotero/storage/SNAP0001/index.html:text/html"
    )
    entry = Reference("ishibashi2011", "article", SourceLocation("refs.bib", 3), files=(exported,))
    plan = FetchPlan(tmp_path / "sources", settings=ClientSettings(offline=True), library=library)
    (stored,) = fetch_sources([entry], plan).stored
    assert (
        stored.origin is Origin.ZOTERO
        and (tmp_path / "sources" / stored.file).read_bytes() == BY_DOI
    )
