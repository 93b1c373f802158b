"""`sources fetch`: a readable source for every cited key that has none — from the writer's
Zotero library first (the copy they read), else a legal open-access copy — stored in the
sources folder as `<key>.pdf` or `<key>.md`, with `sources.json` saying where each came from.

A key looked for and not found is not looked for again for a day (the manifest says when), so
a build that fetches on every run makes no request for it until then; `refresh` looks again.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from citecore.cache import Cache
from citecore.fetch.download import Downloader, Fetched, Refused, check_pdf, opening_text
from citecore.fetch.local import source_files, stored_name
from citecore.fetch.locate import WorkIds, open_access_copies
from citecore.fetch.manifest import Manifest, read_manifest, write_manifest
from citecore.fetch.records import FetchOutcome, MissingSource, Origin, StoredSource
from citecore.fetch.zotero import ZoteroLibrary, zotero_storage_keys
from citecore.files import write_atomically
from citecore.model import Reference
from citecore.normalize import normalized_title
from citecore.registries.http import RegistryClient
from citecore.registries.settings import ClientSettings

if TYPE_CHECKING:
    import httpx

LOOK_AGAIN_AFTER = dt.timedelta(days=1)
_AT_ONCE = 8  # references looked for at the same time (each host keeps its own limit)


def carries_title(text: str, title: str) -> bool:
    """Whether a file's opening text carries the cited title (case, accents, punctuation,
    hyphenation and line breaks aside; a title of fewer than three words says too little to
    refuse by, and so does a text with no words at all: a scan)."""
    wanted = normalized_title(title)
    if len(wanted.split()) < 3:
        return True
    folded = normalized_title(text)
    if not folded:
        return True
    return fuzz.partial_ratio(wanted, folded) >= 85


def _now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


@dataclass(frozen=True, slots=True)
class FetchPlan:
    """Where to store, what to ask, and what may be asked."""

    sources_dir: Path
    bibliography_dirs: tuple[Path, ...] = ()
    settings: ClientSettings = field(default_factory=ClientSettings)
    library: ZoteroLibrary | None = None
    found_dois: Mapping[str, str] | None = None  # key → the DOI verification found
    refresh: bool = False


def fetch_sources(
    references: Sequence[Reference],
    plan: FetchPlan,
    cache: Cache | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> FetchOutcome:
    """Find a source for every reference without one, store it, update the manifest; what was
    stored, what was there already and what is still missing (with why)."""
    return asyncio.run(_fetch_all(references, plan, cache, transport))


async def _fetch_all(
    references: Sequence[Reference],
    plan: FetchPlan,
    cache: Cache | None,
    transport: httpx.AsyncBaseTransport | None,
) -> FetchOutcome:
    manifest = read_manifest(plan.sources_dir)
    present: list[str] = []
    wanted: list[Reference] = []
    kept_missing: list[MissingSource] = []
    for reference in references:
        if source_files(reference, plan.bibliography_dirs, plan.sources_dir):
            present.append(reference.key)
        elif _recently_missed(manifest, reference.key) and not plan.refresh:
            kept_missing.append(manifest.missing[reference.key])
        else:
            wanted.append(reference)
    results: list[StoredSource | MissingSource] = []
    if wanted:
        plan.sources_dir.mkdir(parents=True, exist_ok=True)
        async with (
            RegistryClient(plan.settings, cache, transport) as client,
            Downloader(plan.settings, transport) as downloader,
        ):
            slots = asyncio.Semaphore(_AT_ONCE)

            async def one(reference: Reference) -> StoredSource | MissingSource:
                async with slots:
                    return await _fetch_one(reference, plan, client, downloader)

            results = list(await asyncio.gather(*(one(r) for r in wanted)))
    stored = [r for r in results if isinstance(r, StoredSource)]
    missing = [*kept_missing, *(r for r in results if isinstance(r, MissingSource))]
    learnt = stored or any(manifest.missing.get(m.key) != m for m in missing)
    if learnt:
        updated = Manifest(
            {**manifest.stored, **{s.key: s for s in stored}},
            {
                **{k: m for k, m in manifest.missing.items() if k not in {s.key for s in stored}},
                **{m.key: m for m in missing},
            },
        )
        write_manifest(plan.sources_dir, updated)
    return FetchOutcome(tuple(stored), tuple(present), tuple(missing))


def _recently_missed(manifest: Manifest, key: str) -> bool:
    missing = manifest.missing.get(key)
    if missing is None:
        return False
    try:
        checked = dt.datetime.fromisoformat(missing.checked)
    except ValueError:
        return False
    if checked.tzinfo is None:
        checked = checked.replace(tzinfo=dt.UTC)
    return dt.datetime.now(dt.UTC) - checked < LOOK_AGAIN_AFTER


async def _fetch_one(
    reference: Reference, plan: FetchPlan, client: RegistryClient, downloader: Downloader
) -> StoredSource | MissingSource:
    """The reference's source from the library, else the first open-access copy that passes
    its checks; else why there is none."""
    ids = WorkIds.of(reference, (plan.found_dois or {}).get(reference.key, ""))
    tried: list[str] = []
    if plan.library is not None:
        found = await asyncio.to_thread(_from_library, reference, ids, plan)
        if isinstance(found, StoredSource):
            return found
        tried.extend(found)
    if not ids:
        reason = "no identifier (DOI, arXiv id, PMID) to find an open-access copy by"
        return MissingSource(reference.key, reason, tuple(tried), _now())
    if plan.settings.offline:
        # Not looked for: nothing is learnt, so the next run with network looks at once.
        return MissingSource(reference.key, "offline: not looked for", tuple(tried))
    problems: list[str] = []
    copies = 0
    transient = False
    async for copy in open_access_copies(ids, client, problems):
        copies += 1
        result = await downloader.fetch(copy.url, copy.full_text_xml)
        if isinstance(result, Fetched) and not carries_title(opening_text(result), reference.title):
            # A wrong identifier in the entry, or a registry's link to another file, fetches
            # another work: grounding against it would judge the claim by the wrong paper.
            result = Refused("another work: its first page does not carry the cited title")
        if isinstance(result, Fetched):
            return _store(
                reference,
                plan.sources_dir,
                result.data,
                result.suffix,
                StoredSource(
                    reference.key,
                    "",
                    Origin(copy.source.value),
                    url=result.url,
                    doi=ids.doi,
                    arxiv_id=ids.arxiv_id,
                    license=copy.license,
                    version=copy.version,
                ),
            )
        transient = transient or result.transient
        tried.append(f"{copy.source.value}: {result.reason} ({copy.url})")
    if problems:
        tried.append("no answer from " + ", ".join(problems))
    if copies == 0:
        reason = "no open-access copy known" + (
            " (some registries did not answer)" if problems else ""
        )
    else:
        reason = "every open-access copy was refused"
    # A miss the registries or hosts may mend by themselves is looked for again next run.
    checked = "" if problems or transient else _now()
    return MissingSource(reference.key, reason, tuple(tried), checked)


def _from_library(reference: Reference, ids: WorkIds, plan: FetchPlan) -> StoredSource | list[str]:
    """The PDF the writer's library holds for the reference, stored; else what was seen."""
    library = plan.library
    assert library is not None
    item = library.find(replace(reference, doi=reference.doi or ids.doi))
    # A `file` field exported by Zotero on another machine names the attachment's storage
    # folder, which is its key in the writer's synced library here.
    named = [key for value in reference.files for key in zotero_storage_keys(value)]
    attachments = list(dict.fromkeys([*named, *(item.attachments if item else ())]))
    if not attachments:
        return []
    seen = []
    for attachment in attachments:
        path = library.file_of(attachment)
        if path is None:
            seen.append(f"zotero: attachment {attachment}: its file is not on this machine")
            continue
        data = path.read_bytes()
        problem = check_pdf(data)
        if problem:
            seen.append(f"zotero: {path.name}: {problem}")
            continue
        return _store(
            reference,
            plan.sources_dir,
            data,
            ".pdf",
            StoredSource(reference.key, "", Origin.ZOTERO, url=str(path), doi=ids.doi),
        )
    return seen


def _store(
    reference: Reference, folder: Path, data: bytes, suffix: str, record: StoredSource
) -> StoredSource:
    """Write the file as `<key><suffix>` and complete its manifest entry."""
    name = stored_name(reference.key) + suffix
    write_atomically(folder / name, data)
    return replace(
        record,
        file=name,
        arxiv_id=record.arxiv_id or reference.arxiv_id,
        sha256=hashlib.sha256(data).hexdigest(),
        size=len(data),
        fetched=_now(),
    )
