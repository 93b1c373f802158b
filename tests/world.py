"""The registry world of ../shared/fixtures/world/ served the way the real registries serve it.

`World` holds the OpenAlex and Crossref dump lines of about 1,100 real works and answers the
requests citecheck sends to every source, in each source's own response format:

- Crossref `/works/{doi}` (the dump line as `message`) and `query.bibliographic` (ranked by the
  words a title shares with the query, like Crossref's relevance search: weak matches included);
- OpenAlex `/works/doi:{doi}` and `filter=title.search:` (works whose title holds most words);
- doi.org `/ra/{doi}`: Crossref for the Crossref dump, DataCite for the other DOIs of the world,
  "DOI does not exist" for every DOI outside the world;
- DataCite `/dois/{doi}` (JSON:API, built from the OpenAlex line);
- arXiv `/api/query` by `id_list` and `ti:"phrase"` (arXiv's phrase search), for the works the world
  knows an arXiv id of (a `10.48550` DOI or an arXiv location);
- PubMed `esummary` and Europe PMC `TITLE:"phrase"` for the works with a PMID;
- DBLP `/search/publ/api` (every query word must occur, as DBLP's search requires) for the
  computer-science venues, with DBLP's own venue names;
- Semantic Scholar `/paper/search/match` (the closest title, 404 "Title match not found" below a
  similarity a real match would have).

What is not in the world does not exist: a fabricated reference finds only what a real registry
would find for it, the real work it was made from, a near neighbour, or nothing.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import cached_property
from pathlib import Path
from typing import Any
from urllib.parse import unquote
from xml.sax.saxutils import escape

from tests.paths import SHARED

WORLD = SHARED / "fixtures" / "world"
_STOP = frozenset("a an the of in on for to and with by at from into as via".split())

# DBLP's venue names for the computer-science venues of the world (as DBLP's own records give
# them: the `venue` of a hit). Venues outside this table are not in DBLP.
_DBLP_VENUES = (
    (r"neural information processing systems", "NeurIPS"),
    (r"international conference on machine learning", "ICML"),
    (r"international conference on learning representations", "ICLR"),
    (r"computer vision and pattern recognition", "CVPR"),
    (r"aaai conference on artificial intelligence", "AAAI"),
    (r"^journal of machine learning research$", "J. Mach. Learn. Res."),
    (r"^machine learning$", "Mach. Learn."),
    (r"^transactions on machine learning research$", "Trans. Mach. Learn. Res."),
    (r"^eccv$|european conference on computer vision", "ECCV"),
    (r"^arxiv", "CoRR"),
)


def dblp_venue(venue: str) -> str:
    """DBLP's name for a venue of the world ("NeurIPS"), or "" for a venue DBLP does not hold."""
    folded = " ".join(fold_words(venue))
    for pattern, name in _DBLP_VENUES:
        if re.search(pattern, folded):
            return name
    return ""


def fold_words(text: str) -> list[str]:
    """Lower-case words without accents or punctuation (hyphenated words kept apart)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[^\w\s]|_", " ", plain).split()


def _content(words: Iterable[str]) -> set[str]:
    return {w for w in words if w not in _STOP}


@dataclass(frozen=True)
class Answer:
    """One HTTP answer."""

    status: int
    body: str
    content_type: str = "application/json"


def _json(data: Any, status: int = 200) -> Answer:
    return Answer(status, json.dumps(data))


@dataclass
class Work:
    """One work of the world: its OpenAlex line, its Crossref line when it has one."""

    openalex: dict[str, Any]
    crossref: dict[str, Any] | None = None

    @property
    def title(self) -> str:
        return str(self.openalex.get("title") or self.openalex.get("display_name") or "")

    @cached_property
    def words(self) -> list[str]:
        return fold_words(self.title)

    @property
    def doi(self) -> str:
        return str(self.openalex.get("doi") or "").lower().removeprefix("https://doi.org/")

    @property
    def year(self) -> int | None:
        year = self.openalex.get("publication_year")
        return int(year) if isinstance(year, int) else None

    @property
    def venue(self) -> str:
        source = (self.openalex.get("primary_location") or {}).get("source") or {}
        return str(source.get("display_name") or "")

    @property
    def names(self) -> list[str]:
        """Authors as displayed ("Given Family")."""
        return [
            str((a.get("author") or {}).get("display_name") or "")
            for a in self.openalex.get("authorships") or ()
        ]

    @property
    def pmid(self) -> str:
        pmid = str((self.openalex.get("ids") or {}).get("pmid") or "")
        return pmid.rstrip("/").rsplit("/", 1)[-1]

    @property
    def arxiv_id(self) -> str:
        """The work's arXiv id: from an arXiv DOI, else from an arXiv location."""
        if self.doi.startswith("10.48550/arxiv."):
            return self.doi.removeprefix("10.48550/arxiv.")
        for location in self.openalex.get("locations") or ():
            match = re.fullmatch(r"arxiv:(\d{4}\.\d{4,5}|[a-z-]+/\d{7})", str(location.get("id")))
            if match:
                return match.group(1)
        return ""

    @property
    def is_arxiv_preprint(self) -> bool:
        return self.doi.startswith("10.48550/")

    @property
    def dblp_venue(self) -> str:
        return dblp_venue(self.venue)


def _split_name(display: str) -> tuple[str, str]:
    """("Given", "Family") of a displayed name."""
    given, _, family = display.rpartition(" ")
    return given, family


@dataclass
class World:
    """The works, indexed the ways registries look them up."""

    works: list[Work]
    by_doi: dict[str, Work] = field(default_factory=dict)
    by_arxiv: dict[str, Work] = field(default_factory=dict)
    by_pmid: dict[str, Work] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for work in self.works:
            if work.doi:
                self.by_doi[work.doi] = work
            if work.arxiv_id:
                self.by_arxiv[work.arxiv_id.lower()] = work
            if work.pmid:
                self.by_pmid[work.pmid] = work

    @classmethod
    def load(cls, folder: Path = WORLD) -> World:
        """The world of ../shared/fixtures/world/."""
        crossref = {}
        for line in (folder / "crossref-works.jsonl").read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            crossref[str(item["DOI"]).lower()] = item
        works = []
        for line in (folder / "openalex-works.jsonl").read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            doi = str(item.get("doi") or "").lower().removeprefix("https://doi.org/")
            works.append(Work(item, crossref.get(doi)))
        return cls(works)

    # -- answering -------------------------------------------------------------------------

    def answer(self, path: str, params: Mapping[str, str]) -> Answer | None:
        """The answer to one GET, or None when the path is no registry API the world serves."""
        path = unquote(path)
        if path.startswith("/works/doi:"):
            return self._openalex_work(path.removeprefix("/works/doi:"))
        if path.startswith("/works/"):
            return self._crossref_work(path.removeprefix("/works/"))
        if path == "/works" and "query.bibliographic" in params:
            return self._crossref_search(params["query.bibliographic"], int(params.get("rows", 5)))
        if path == "/works" and params.get("filter", "").startswith("title.search:"):
            query = params["filter"].removeprefix("title.search:")
            return self._openalex_search(query, int(params.get("per-page", 5)))
        if path.startswith("/ra/"):
            return self._agency(path.removeprefix("/ra/"))
        if path.startswith("/dois/"):
            return self._datacite(path.removeprefix("/dois/"))
        if path == "/api/query":
            return self._arxiv(params)
        if path.endswith("/esummary.fcgi"):
            return self._pubmed(params.get("id", ""))
        if path.endswith("/rest/search"):
            return self._europepmc(params.get("query", ""), int(params.get("pageSize", 5)))
        if path == "/search/publ/api":
            return self._dblp(params.get("q", ""), int(params.get("h", 5)))
        if path == "/graph/v1/paper/search/match":
            return self._semantic_scholar(params.get("query", ""))
        if path.startswith("/v2/"):
            return _json({"HTTP_status_code": 404, "error": True, "message": "not found"}, 404)
        return None

    def _ranked(
        self, query: str, works: Iterable[Work], rows: int, share: float = 0.0
    ) -> list[Work]:
        """Works by the share of the query's content words their title holds, best first;
        those holding less than `share` (and none) left out."""
        wanted = _content(fold_words(query))
        if not wanted:
            return []
        scored = []
        for work in works:
            held = len(wanted & _content(work.words)) / len(wanted)
            if held > 0 and held >= share:
                closeness = SequenceMatcher(None, " ".join(fold_words(query)), " ".join(work.words))
                scored.append((held, closeness.ratio(), work))
        scored.sort(key=lambda item: (-item[0], -item[1]))
        return [work for _, _, work in scored[:rows]]

    def _phrase(self, phrase: str, works: Iterable[Work]) -> list[Work]:
        """Works whose title holds the phrase's words in order (arXiv's and Europe PMC's quoted
        title search)."""
        wanted = " ".join(fold_words(phrase))
        return [w for w in works if wanted and f" {wanted} " in f" {' '.join(w.words)} "]

    def _crossref_work(self, doi: str) -> Answer:
        work = self.by_doi.get(doi.lower())
        if work is None or work.crossref is None:
            return Answer(404, "Resource not found.", "text/plain")
        return _json({"status": "ok", "message-type": "work", "message": work.crossref})

    def _crossref_search(self, query: str, rows: int) -> Answer:
        found = self._ranked(query, (w for w in self.works if w.crossref), rows)
        items = [w.crossref for w in found]
        message = {"total-results": len(items), "items": items, "items-per-page": rows}
        return _json({"status": "ok", "message-type": "work-list", "message": message})

    def _openalex_work(self, doi: str) -> Answer:
        work = self.by_doi.get(doi.lower())
        if work is None:
            return Answer(404, "<html>Not Found</html>", "text/html")
        return _json(work.openalex)

    def _openalex_search(self, query: str, rows: int) -> Answer:
        found = self._ranked(query, self.works, rows, share=0.7)
        return _json({"meta": {"count": len(found)}, "results": [w.openalex for w in found]})

    def _agency(self, doi: str) -> Answer:
        work = self.by_doi.get(doi.lower())
        if work is None:
            return _json([{"DOI": doi, "status": "DOI does not exist"}])
        return _json([{"DOI": doi, "RA": "Crossref" if work.crossref else "DataCite"}])

    def _datacite(self, doi: str) -> Answer:
        work = self.by_doi.get(doi.lower())
        if work is None or work.crossref is not None:
            return _json(
                {"errors": [{"status": "404", "title": "The resource was not found"}]}, 404
            )
        creators = []
        for name in work.names:
            given, family = _split_name(name)
            creators.append(
                {
                    "name": f"{family}, {given}",
                    "nameType": "Personal",
                    "givenName": given,
                    "familyName": family,
                }
            )
        general = "Preprint" if work.is_arxiv_preprint else "Dataset"
        attributes = {
            "doi": work.doi,
            "titles": [{"title": work.title}],
            "creators": creators,
            "publicationYear": work.year,
            "publisher": work.venue or "DataCite",
            "types": {"resourceTypeGeneral": general},
            "url": f"https://doi.org/{work.doi}",
        }
        return _json({"data": {"id": work.doi, "type": "dois", "attributes": attributes}})

    def _arxiv(self, params: Mapping[str, str]) -> Answer:
        if "id_list" in params:
            wanted = [re.sub(r"v\d+$", "", i.strip().lower()) for i in params["id_list"].split(",")]
            found = [self.by_arxiv[i] for i in wanted if i in self.by_arxiv]
        else:
            match = re.fullmatch(r'ti:"(.*)"', params.get("search_query", ""))
            found = self._phrase(match.group(1), self.by_arxiv.values()) if match else []
        found = found[: int(params.get("max_results", 10))]
        return Answer(200, _atom(found), "application/atom+xml")

    def _pubmed(self, pmid: str) -> Answer:
        work = self.by_pmid.get(pmid)
        if work is None:
            return _json(
                {
                    "result": {
                        "uids": [pmid],
                        pmid: {"uid": pmid, "error": "cannot get document summary"},
                    }
                }
            )
        summary = {
            "uid": pmid,
            "title": work.title,
            "authors": [{"name": _nlm_name(name), "authtype": "Author"} for name in work.names],
            "pubdate": str(work.year or ""),
            "source": _medline_abbreviation(work),
            "fulljournalname": work.venue,
            "articleids": [{"idtype": "doi", "value": work.doi}] if work.doi else [],
            "pubtype": ["Journal Article"],
        }
        return _json({"result": {"uids": [pmid], pmid: summary}})

    def _europepmc(self, query: str, rows: int) -> Answer:
        match = re.fullmatch(r'TITLE:"(.*)"', query)
        found = self._phrase(match.group(1), self.by_pmid.values())[:rows] if match else []
        results = []
        for work in found:
            authors = []
            for name in work.names:
                given, family = _split_name(name)
                authors.append(
                    {"fullName": _nlm_name(name), "firstName": given, "lastName": family}
                )
            abbreviation = _medline_abbreviation(work)
            results.append(
                {
                    "id": work.pmid,
                    "source": "MED",
                    "pmid": work.pmid,
                    "doi": work.doi,
                    "title": work.title,
                    "authorList": {"author": authors},
                    "pubYear": str(work.year or ""),
                    "journalInfo": {
                        "journal": {
                            "title": work.venue,
                            "isoabbreviation": abbreviation.replace(" ", ". ") + ".",
                            "medlineAbbreviation": abbreviation,
                        }
                    },
                    "pubType": "journal article",
                }
            )
        return _json({"hitCount": len(results), "resultList": {"result": results}})

    def _dblp(self, query: str, rows: int) -> Answer:
        wanted = fold_words(query)
        found = [
            w
            for w in self.works
            if w.dblp_venue
            and wanted
            and all(any(t.startswith(q) for t in w.words) for q in wanted)
        ][:rows]
        hits = []
        for work in found:
            info: dict[str, Any] = {
                "authors": {"author": [{"@pid": "00/0", "text": n} for n in work.names]},
                "title": work.title + ".",
                "venue": work.dblp_venue,
                "year": str(work.year or ""),
                "type": "Informal and Other Publications"
                if work.dblp_venue == "CoRR"
                else ("Conference and Workshop Papers"),
                "url": "https://dblp.org/rec/x",
            }
            # DBLP lists an arXiv DOI only on its CoRR records.
            if work.doi and (work.dblp_venue == "CoRR" or not work.is_arxiv_preprint):
                info["doi"] = work.doi.upper() if work.is_arxiv_preprint else work.doi
                info["ee"] = f"https://doi.org/{work.doi}"
            hits.append({"@score": "1", "@id": "1", "info": info})
        envelope = {
            "result": {
                "query": query,
                "status": {"@code": "200", "text": "OK"},
                "hits": {
                    "@total": str(len(hits)),
                    "@computed": str(len(hits)),
                    "@sent": str(len(hits)),
                    "@first": "0",
                    "hit": hits,
                },
            }
        }
        return _json(envelope)

    def _semantic_scholar(self, query: str) -> Answer:
        best = self._ranked(query, self.works, 1, share=0.5)
        if not best:
            return _json({"error": "Title match not found"}, 404)
        work = best[0]
        closeness = SequenceMatcher(None, " ".join(fold_words(query)), " ".join(work.words))
        if closeness.ratio() < 0.8:
            return _json({"error": "Title match not found"}, 404)
        ids: dict[str, str] = {}
        if work.doi:
            ids["DOI"] = work.doi
        if work.arxiv_id:
            ids["ArXiv"] = work.arxiv_id
        if work.pmid:
            ids["PubMed"] = work.pmid
        paper = {
            "paperId": str(work.openalex["id"]).rsplit("/", 1)[-1],
            "title": work.title,
            "authors": [{"authorId": None, "name": n} for n in work.names],
            "year": work.year,
            "venue": work.venue,
            "externalIds": ids,
            "matchScore": 100.0 * closeness.ratio(),
        }
        return _json({"data": [paper]})


def _nlm_name(display: str) -> str:
    """ "Ashish Vaswani" → "Vaswani A" (PubMed's form)."""
    given, family = _split_name(display)
    initials = "".join(part[0] for part in re.split(r"[\s.-]+", given) if part)
    return f"{family} {initials}".strip()


def _medline_abbreviation(work: Work) -> str:
    """The journal's NLM abbreviation: Crossref's short title without its full stops."""
    short = (work.crossref or {}).get("short-container-title") or []
    return " ".join(str(short[0]).replace(".", " ").split()) if short else work.venue


def _atom(works: Iterable[Work]) -> str:
    """An arXiv API Atom feed of the works' arXiv versions."""
    entries = []
    for work in works:
        arxiv_id = work.arxiv_id
        month = re.match(r"(\d{2})(\d{2})\.", arxiv_id)
        published = (
            f"20{month.group(1)}-{month.group(2)}-01T00:00:00Z"
            if month
            else (f"{work.year}-01-01T00:00:00Z")
        )
        authors = "".join(f"<author><name>{escape(n)}</name></author>" for n in work.names)
        journal = (
            ""
            if work.is_arxiv_preprint or not work.doi
            else (f"<arxiv:doi>{escape(work.doi)}</arxiv:doi>")
        )
        entries.append(
            f"<entry><id>http://arxiv.org/abs/{arxiv_id}v1</id><published>{published}</published>"
            f"<title>{escape(work.title)}</title><summary>{escape(work.title)}</summary>"
            f"{authors}{journal}</entry>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom">' + "".join(entries) + "</feed>"
    )
