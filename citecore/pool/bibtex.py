"""BibTeX from a literature pool, and moving a document's citation keys onto the pool's.

Entries get the pool's deterministic keys, an entry type read from the venue (a conference →
`@inproceedings`, a journal → `@article`, none → `@misc`) and only the fields the pool has.
`sync-keys` maps the writer's bibliography entries to pool papers (DOI, arXiv id, then title) and
rewrites the keys inside `\\cite…{}` commands and `[@…]`/`@key` citations, nothing else.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from pathlib import Path

from citecore.model import Bibliography
from citecore.pool.model import Pool, PoolPaper, title_score

_CONFERENCE = re.compile(
    r"\b(conference|proceedings|proc\.|workshop|symposium|congress|meeting|neurips|nips|icml|"
    r"iclr|cvpr|iccv|eccv|acl|emnlp|naacl|aaai|ijcai|kdd|sigir|chi|www|uai|aistats|colt|interspeech)\b",
    re.IGNORECASE,
)
_TITLE_MATCH = 90


def entry_type(venue: str) -> str:
    """`inproceedings` for a conference venue, `article` for a journal, `misc` for none."""
    if not venue.strip():
        return "misc"
    return "inproceedings" if _CONFERENCE.search(venue) else "article"


def _braced(value: str) -> str:
    return "{" + value.replace("{", "").replace("}", "") + "}"


def paper_bibtex(paper: PoolPaper) -> str:
    """One entry, with only the fields the pool gives."""
    kind = entry_type(paper.venue)
    venue_field = {"inproceedings": "booktitle", "article": "journal"}.get(kind)
    fields: list[tuple[str, str]] = []
    if paper.authors:
        fields.append(("author", " and ".join(paper.authors)))
    fields.append(("title", "{" + paper.title + "}"))
    if venue_field and paper.venue:
        fields.append((venue_field, paper.venue))
    if paper.year:
        fields.append(("year", str(paper.year)))
    if paper.doi:
        fields.append(("doi", paper.doi))
    if paper.arxiv_id:
        fields.extend([("eprint", paper.arxiv_id), ("archiveprefix", "arXiv")])
    if paper.abstract:
        fields.append(("abstract", paper.abstract))
    body = ",\n".join(
        f"  {name} = {_braced(value) if name != 'title' else value}" for name, value in fields
    )
    return f"@{kind}{{{paper.key},\n{body}\n}}\n"


def pool_bibtex(pool: Pool) -> str:
    """The whole pool as BibTeX, in pool order."""
    return "\n".join(paper_bibtex(p) for p in pool.papers)


def key_mapping(bibliography: Bibliography, pool: Pool) -> dict[str, str]:
    """The writer's keys → the pool's keys, for entries that are pool papers (same DOI, same
    arXiv id, or a title matching at ratio ≥ 90); keys already the pool's are left out."""
    by_doi = {p.doi: p.key for p in pool.papers if p.doi}
    by_arxiv = {p.arxiv_id.split("v")[0]: p.key for p in pool.papers if p.arxiv_id}
    mapping = {}
    pool_keys = {p.key for p in pool.papers}
    for key, reference in bibliography.references.items():
        if key in pool_keys:
            continue
        target = by_doi.get(reference.doi.lower()) or by_arxiv.get(reference.arxiv_id.split("v")[0])
        if target is None and reference.title:
            scored = [(title_score(reference.title, p.title), p.key) for p in pool.papers]
            best = max(scored, default=(0.0, ""))
            target = best[1] if best[0] >= _TITLE_MATCH else None
        if target is not None:
            mapping[key] = target
    return mapping


_LATEX_CITE = re.compile(r"(\\[A-Za-z]*cite[A-Za-z]*\*?(?:\s*\[[^\]]*\]){0,2}\s*\{)([^}]*)(\})")


def rewrite_keys(text: str, mapping: Mapping[str, str]) -> str:
    """`text` with cited keys renamed: inside LaTeX citation commands' key lists, and in
    pandoc citations (`@key`, `[@a; -@b]`); other text is left alone."""

    def latex(match: re.Match[str]) -> str:
        keys = [k for k in match.group(2).split(",")]
        renamed = ",".join(
            (
                k[: len(k) - len(k.lstrip())]
                + mapping.get(k.strip(), k.strip())
                + k[len(k.rstrip()) :]
            )
            for k in keys
        )
        return match.group(1) + renamed + match.group(3)

    text = _LATEX_CITE.sub(latex, text)
    if not mapping:
        return text
    alternatives = "|".join(re.escape(k) for k in sorted(mapping, key=len, reverse=True))
    pandoc = re.compile(rf"(?<![\w\\@])(-?@\{{?)({alternatives})(?![\w:.#$%&\-+?<>~/]*\w)")
    return pandoc.sub(lambda m: m.group(1) + mapping[m.group(2)], text)


def sync_preview(path: Path, new_text: str) -> str:
    """A unified diff of the rewrite, for the preview."""
    old = path.read_text(encoding="utf-8")
    return "".join(
        difflib.unified_diff(
            old.splitlines(keepends=True),
            new_text.splitlines(keepends=True),
            fromfile=str(path),
            tofile=f"{path} (pool keys)",
        )
    )
