"""Benchmark: registry verification of a 200-reference bibliography against the loopback
emulator, with realistic latency and the published rate limits kept by the client.

Prints, for a cold cache: wall time, the floor implied by the request plan and the rate limits,
their ratio (target ≤ 1.15), and requests per reference (target ≤ 1.2 for DOI-bearing entries);
for the same run warm: the requests made (target 0); and the peak memory (max RSS) of a
2,000-reference run in a child process (target ≤ 200 MB). The registry answers are real recorded
bodies (../shared/fixtures/real/) with the identifiers and titles of the generated entries put
in. Run with `python bench/verify_throughput.py [--latency 0.08]`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from citecore.bib.bibtex import parse_bibtex
from citecore.model import Reference, Source
from citecore.registries import arxiv, crossref, datacite, europepmc, pubmed
from citecore.registries.settings import POLICIES, ClientSettings
from citecore.verify.registry import RegistryVerifier
from tests.emulator import RegistryEmulator, Reply, floor_seconds, recorded

CROSSREF_WORK = json.loads(recorded("crossref/works_10.7554_elife.01567.json").read_text())
ARXIV_FEED = recorded("arxiv/query_id_list_1605.08386.xml").read_text()
PUBMED_SUMMARY = json.loads(
    recorded("pubmed/esummary_pubmed_27933103_retmode_json.json").read_text()
)
NO_HITS_EUROPEPMC = recorded("europepmc/search_no_results.json").read_text()
DATACITE_ARXIV = json.loads(recorded("datacite/dois_10.48550_arxiv.1902.02534.json").read_text())


ELIFE_AUTHORS = (
    "Sankar, Martial and Nieminen, Kaisa and Ragni, Laura and Xenarios, Ioannis and "
    "Hardtke, Christian S."
)


def entries(count: int) -> str:
    """A BibTeX file mixing DOIs (40%), arXiv ids (10%), PMIDs (15%) and titles only (35%)."""
    lines = []
    for i in range(count):
        title = f"Benchmark study number {i} of vascular morphodynamics"
        kind = i % 20
        if kind < 8:
            extra = f"doi = {{10.5555/bench.{i}}}"
        elif kind < 10:
            extra = f"eprint = {{2101.{i:05d}}}, archivePrefix = {{arXiv}}"
        elif kind < 13:
            extra = f"pmid = {{{30000000 + i}}}"
        else:
            extra = ""
        # Each entry lists the authors its registry record has (the eLife paper's five; the
        # arXiv, DataCite and PubMed records made from it keep two).
        # An arXiv id is cited as the preprint it names, as writers and reference managers do.
        authors = "Sankar, Martial and Ragni, Laura" if 8 <= kind < 13 else ELIFE_AUTHORS
        venue = "" if 8 <= kind < 10 else "journal = {eLife}, "
        lines.append(
            f"@article{{ref{i}, title = {{{title}}}, author = {{{authors}}}, "
            f"{venue}year = {{2014}}, {extra}}}"
        )
    return "\n".join(lines)


def crossref_item(reference: Reference, doi: str) -> dict[str, object]:
    item = dict(CROSSREF_WORK["message"])
    item.update({"DOI": doi, "title": [reference.title]})
    return item


def serve(emulator: RegistryEmulator, references: list[Reference], latency: float) -> None:
    """Declare an answer for every request the run will make."""
    for reference in references:
        if reference.doi:
            body = {"status": "ok", "message": crossref_item(reference, reference.doi)}
            emulator.serve(
                crossref.work_request(reference.doi), Reply(200, json.dumps(body), delay=latency)
            )
        elif reference.arxiv_id:
            feed = (
                ARXIV_FEED.replace("1605.08386", reference.arxiv_id)
                .replace("Heat-bath random walks with Markov bases", reference.title)
                .replace("2016-05-26", "2014-05-26")
                .replace("Caprice Stanley", "Martial Sankar")
                .replace("Tobias Windisch", "Laura Ragni")
            )
            emulator.serve(arxiv.id_request(reference.arxiv_id), Reply(200, feed, delay=latency))
            # arXiv registers a DOI for every paper with DataCite, which is asked first.
            data = json.loads(json.dumps(DATACITE_ARXIV))
            attributes = data["data"]["attributes"]
            attributes["doi"] = f"10.48550/arxiv.{reference.arxiv_id}"
            attributes["titles"] = [{"title": reference.title}]
            attributes["publicationYear"] = 2014
            attributes["creators"] = [
                {"name": "Sankar, Martial", "givenName": "Martial", "familyName": "Sankar",
                 "nameType": "Personal"},
                {"name": "Ragni, Laura", "givenName": "Laura", "familyName": "Ragni",
                 "nameType": "Personal"},
            ]  # fmt: skip
            emulator.serve(
                datacite.work_request(f"10.48550/arxiv.{reference.arxiv_id}"),
                Reply(200, json.dumps(data), delay=latency),
            )
        elif reference.pmid:
            data = json.loads(json.dumps(PUBMED_SUMMARY))
            item = data["result"].pop("27933103")
            item.update(
                {
                    "title": reference.title,
                    "pubdate": "2014",
                    "fulljournalname": "eLife",
                    "authors": [
                        {"name": "Sankar M", "authtype": "Author"},
                        {"name": "Ragni L", "authtype": "Author"},
                    ],
                }
            )
            data["result"] = {"uids": [reference.pmid], reference.pmid: item}
            emulator.serve(
                pubmed.summary_request(reference.pmid), Reply(200, json.dumps(data), delay=latency)
            )
        else:
            body = {
                "status": "ok",
                "message": {"items": [crossref_item(reference, f"10.5555/found.{reference.key}")]},
            }
            emulator.serve(
                crossref.search_request(reference.title, "Sankar"),
                Reply(200, json.dumps(body), delay=latency),
            )
            emulator.serve(
                europepmc.search_request(reference.title),
                Reply(200, NO_HITS_EUROPEPMC, delay=latency),
            )


def run(references: list[Reference], emulator: RegistryEmulator, cache: Path) -> tuple[float, int]:
    settings = ClientSettings.from_environment(emulator.environment())
    verifier = RegistryVerifier(settings, cache)
    start = time.perf_counter()
    results = verifier.verify(references)
    elapsed = time.perf_counter() - start
    verdicts = Counter(r.verdict.value for r in results.values())
    print(f"  verdicts: {dict(verdicts)}")
    return elapsed, verifier.requests_sent


def memory_child(count: int, url: str, cache: str) -> None:
    """In a child process: verify `count` references and print the peak RSS in MB."""
    references = list(parse_bibtex(entries(count), "bench.bib").references)
    environ = {f"CITECHECK_{s.value.upper()}_URL": url for s in Source}
    fast = {source: POLICIES[source].__class__(1000.0, 8) for source in Source}
    settings = ClientSettings.from_environment(environ, policies=fast)
    RegistryVerifier(settings, Path(cache)).verify(references)
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--latency", type=float, default=0.08)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--memory-count", type=int, default=2000)
    parser.add_argument("--memory-child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        memory_child(int(args.memory_child[0]), args.memory_child[1], args.memory_child[2])
        return
    references = list(parse_bibtex(entries(args.count), "bench.bib").references)
    # Requests the plan does not declare (follow-ups for a published version) find nothing.
    with tempfile.TemporaryDirectory() as folder, RegistryEmulator(strict=False) as emulator:
        serve(emulator, references, args.latency)
        cache = Path(folder) / "cache.sqlite3"
        print(
            f"{len(references)} references, {args.latency * 1000:.0f} ms latency, published limits"
        )
        print("cold:")
        cold_time, cold_requests = run(references, emulator, cache)
        plan = Counter(_source_of(key) for _, key in emulator.log)
        floor = floor_seconds(plan, args.latency)
        doi_refs = [r for r in references if r.doi]
        doi_requests = sum(1 for _, key in emulator.log if key.startswith('["/works/10.5555/bench'))
        print(
            f"  wall {cold_time:.2f} s, floor {floor:.2f} s, ratio {cold_time / floor:.2f} "
            "(target <= 1.15)"
        )
        print(
            f"  requests {cold_requests}, per reference {cold_requests / len(references):.2f}; "
            f"DOI-bearing: {doi_requests / len(doi_refs):.2f} per reference (target <= 1.2)"
        )
        print(f"  plan: {dict((s.value, n) for s, n in plan.items())}")
        print("warm:")
        warm_time, warm_requests = run(references, emulator, cache)
        print(f"  wall {warm_time:.3f} s, requests {warm_requests} (target 0)")
        extra = list(parse_bibtex(entries(args.memory_count), "bench.bib").references)
        serve(emulator, extra, 0.0)
        child = subprocess.run(
            [
                sys.executable,
                __file__,
                "--memory-child",
                str(args.memory_count),
                emulator.url,
                str(Path(folder) / "memory.sqlite3"),
            ],
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ),
        )
        print(
            f"memory: {args.memory_count} references, peak RSS {float(child.stdout):.0f} MB "
            "(target <= 200 MB)"
        )


def _source_of(key: str) -> Source:
    path = json.loads(key)[0]
    for prefix, source in (
        ("/works", Source.CROSSREF), ("/api/query", Source.ARXIV), ("/entrez", Source.PUBMED),
        ("/europepmc", Source.EUROPEPMC), ("/dois", Source.DATACITE), ("/search/publ", Source.DBLP),
        ("/graph", Source.SEMANTICSCHOLAR), ("/v2/", Source.UNPAYWALL),
    ):  # fmt: skip
        if path.startswith(prefix):
            return source
    return Source.DOI


if __name__ == "__main__":
    main()
