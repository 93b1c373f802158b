"""When two references name the same work: the key deduplication groups references by."""

from __future__ import annotations

import re

from citecore.identifiers import normalize_arxiv, normalize_doi
from citecore.model import Reference
from citecore.normalize import fold, normalized_title


def work_key(reference: Reference) -> str:
    """The work a reference names, as a key equal for every reference of it: its normalised DOI,
    arXiv id (without version) or PMID, else its normalised title with the first author's family
    name and the year. "" when it carries neither an identifier nor a title (nothing to share)."""
    if reference.doi:
        return f"doi:{normalize_doi(reference.doi)}"
    if reference.arxiv_id:
        return "arxiv:" + re.sub(r"v\d+$", "", normalize_arxiv(reference.arxiv_id))
    if reference.pmid.strip().isdigit():
        return f"pmid:{int(reference.pmid)}"
    title = normalized_title(reference.title)
    if not title:
        return ""
    first = fold(reference.authors[0].family) if reference.authors else ""
    return f"title:{title}|{first}|{reference.year or ''}"
