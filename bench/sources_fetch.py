"""Benchmark: `citecheck sources fetch` on the tour and on the example paper over the loopback
emulator. Printed for each: the share of cited keys with a source before and after the fetch,
where the stored files came from, why the rest have none, and the grounding verdicts (local
judge) before and after; then the time per source under the published limits (arXiv's one
request every three seconds on its own host; the other registries and the hosts their answers
name at their table's limits), against the same run with the limits lifted.

The emulator announces open-access copies where real works have them: every arXiv id; for
DOIs, the tour's stand-ins (tests/cases/open-access-tour/) and, for the example paper, the
publishers and archives that are open access (PLOS, PeerJ, Scientific Data and Reports, NAR,
QSS, the ACL Anthology, CVF; full text in Europe PMC for the papers PubMed Central holds).
The example paper's stand-ins carry each work's title and nothing of its text: their grounding
verdicts say what a title alone supports. Run with `python bench/sources_fetch.py`
(`BENCH_VERBOSE=1`: only the first pass, with every supported or partial claim and why each key
still has no source).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.loader import load_bibliographies
from citecore.cli import main as citecheck
from citecore.model import Source
from citecore.registries import europepmc
from citecore.registries.settings import base_url_variable, rate_variables
from tests.emulator import RegistryEmulator, Reply
from tests.fetch.made import jats_of
from tests.fetch.open_access import TOUR_COPIES, TOUR_TEXTS, serve_copies
from tests.paths import REPO

EXAMPLES = REPO / "examples"
# The example paper's open-access works by DOI: where the copy is announced.
PAPER_DOIS: Mapping[str, Source] = {
    "10.18653/v1/N19-1423": Source.OPENALEX,
    "10.18653/v1/2020.emnlp-main.609": Source.OPENALEX,
    "10.18653/v1/N18-1074": Source.OPENALEX,
    "10.1109/CVPR.2016.90": Source.OPENALEX,
    "10.7717/peerj.4375": Source.UNPAYWALL,
    "10.1162/qss_a_00022": Source.UNPAYWALL,
    "10.1038/s41598-023-41032-5": Source.EUROPEPMC,
    "10.1136/bmj.b2680": Source.EUROPEPMC,
    "10.1371/journal.pmed.0020124": Source.EUROPEPMC,
    "10.1073/pnas.1212247109": Source.EUROPEPMC,
    "10.1038/sdata.2016.18": Source.EUROPEPMC,
    "10.1093/nar/gku1061": Source.EUROPEPMC,
}


def _stand_in(title: str) -> str:
    return (
        f"{title}\n\nAn open-access stand-in served by citecheck's bench: the title, not the text."
    )


def serve_paper(emulator: RegistryEmulator, texts: Path) -> None:
    """Announce the example paper's open-access copies, each a stand-in carrying its title."""
    bibliography = load_bibliographies([EXAMPLES / "references.bib"])
    copies: dict[tuple[Source, str], str] = {}
    for number, reference in enumerate(bibliography.references.values()):
        name = f"{reference.key}.md"
        (texts / name).write_text(_stand_in(reference.title), encoding="utf-8")
        source = PAPER_DOIS.get(reference.doi)
        if reference.arxiv_id:
            copies[(Source.ARXIV, reference.arxiv_id)] = name
        elif source is Source.EUROPEPMC:
            pmcid = f"PMC{900000 + number}"
            hit = {"pmcid": pmcid, "isOpenAccess": "Y", "inEPMC": "Y", "license": "cc by"}
            body = json.dumps({"hitCount": 1, "resultList": {"result": [hit]}})
            emulator.serve(europepmc.open_access_request(reference.doi), Reply(body=body))
            xml = jats_of(reference.title, {"Stand-in": [_stand_in(reference.title)] * 3})
            path = europepmc.full_text_path(pmcid)
            emulator.serve_path(path, Reply(body=xml))
        elif source is not None:
            copies[(source, reference.doi)] = name
    serve_copies(emulator, copies, texts)


def _environment(
    registries: RegistryEmulator, arxiv: RegistryEmulator, fast: bool
) -> dict[str, str]:
    environ = {base_url_variable(source): registries.url for source in Source}
    environ[base_url_variable(Source.ARXIV)] = arxiv.url
    environ["CITECHECK_EMAIL"] = "bench@example.org"
    environ["CITECHECK_OFFLINE"] = "0"
    for source in Source if fast else ():
        rate, concurrency = rate_variables(source)
        environ[rate], environ[concurrency] = "1000", "4"
    return environ


@contextmanager
def _environ(values: Mapping[str, str]) -> Iterator[None]:
    saved = dict(os.environ)
    os.environ.update(values)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def _grounding(document: Path, cache: Path) -> Counter[str]:
    out = document.parent / "report.json"
    citecheck(["check", str(document), "--no-verify", "--ground", "--judge", "local",
               "--cache", str(cache), "-o", str(out)])  # fmt: skip
    report = json.loads(out.read_text())
    if os.environ.get("BENCH_VERBOSE"):
        for c in report["citations"]:
            if c["grounding"]["status"] in ("supported", "partial"):
                grounding = c["grounding"]
                print(f"  {c['key']} {grounding['status']}: {c['claim']} | {grounding['passage']}")
    return Counter(c["grounding"]["status"] for c in report["citations"])


def _share(document: Path) -> tuple[int, int]:
    report = json.loads((document.parent / "report.json").read_text())
    rows = report["source_files"]
    return sum(1 for r in rows if r["files"]), len(rows)


def run(name: str, document: Path, fast: bool) -> float:
    """Fetch for one document in a fresh folder; print its figures; the seconds it took."""
    work = Path(tempfile.mkdtemp(prefix=f"fetch-{name}-"))
    for item in document.parent.iterdir():
        if item.is_file() and item.suffix in (".md", ".bib"):
            shutil.copy(item, work / item.name)
    if (document.parent / "sources").is_dir():  # the writer's own sources come along
        shutil.copytree(document.parent / "sources", work / "sources")
    texts = work / "stand-ins"
    texts.mkdir()
    with RegistryEmulator(strict=False) as registries, RegistryEmulator(strict=False) as arxiv:
        if name == "tour":
            for (source, identifier), text in TOUR_COPIES.items():
                target = arxiv if source is Source.ARXIV else registries
                serve_copies(target, {(source, identifier): text}, TOUR_TEXTS)
        else:
            serve_paper(registries, texts)
            for key in list(registries.routes):  # arXiv's copies live on arXiv's own host
                if key.startswith('["/pdf/'):
                    arxiv.routes[key] = registries.routes.pop(key)
        with _environ(_environment(registries, arxiv, fast)):
            cache = work / "cache.sqlite"
            copied = work / document.name
            before = _grounding(copied, cache)
            have_before, cited = _share(copied)
            started = time.perf_counter()
            citecheck(["sources", "fetch", str(copied), "--no-zotero", "--cache", str(cache)])
            seconds = time.perf_counter() - started
            after = _grounding(copied, cache)
            have_after, _ = _share(copied)
    manifest = json.loads((work / "sources" / "sources.json").read_text())
    origins = Counter(s["origin"] for s in manifest["sources"])
    reasons = Counter(m["reason"] for m in manifest["missing"])
    looked = len(manifest["sources"]) + len(manifest["missing"])
    label = "no limits" if fast else "published limits"
    print(f"{name} ({label}): {cited} cited keys; with a source {have_before} before "
          f"({have_before / cited:.0%}), {have_after} after "
          f"({have_after / cited:.0%})")  # fmt: skip
    print(f"  stored from: {dict(origins)}")
    print(f"  still none: {dict(reasons)}")
    if os.environ.get("BENCH_VERBOSE"):
        print(json.dumps(manifest["missing"], indent=1))
    print(f"  grounding before: {dict(sorted(before.items()))}")
    print(f"  grounding after:  {dict(sorted(after.items()))}")
    print(f"  fetch: {seconds:.1f} s for {looked} keys looked for, "
          f"{seconds / max(looked, 1):.2f} s per key")  # fmt: skip
    shutil.rmtree(work)
    return seconds


def main() -> None:
    """Both documents with the limits lifted, then with the published limits."""
    import logging

    logging.disable(logging.WARNING)
    for fast in (True,) if os.environ.get("BENCH_VERBOSE") else (True, False):
        run("tour", EXAMPLES / "tour" / "tour.md", fast)
        run("paper", EXAMPLES / "paper.md", fast)


if __name__ == "__main__":
    main()
