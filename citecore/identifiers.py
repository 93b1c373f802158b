"""Scholarly identifiers: normalizing what writers type, and checking each one's shape.

Normalizers never invent an identifier: they strip resolver prefixes and white space from what was
given. Shape checks say whether a value can be an identifier at all; whether it exists is for the
registries to say.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

_DOI_PREFIXES = re.compile(r"^\s*(?:doi:\s*|(?:https?://)?(?:dx\.|www\.)?doi\.org/)", re.IGNORECASE)
_DOI_RESOLVER = re.compile(r"^\s*(?:https?://)?(?:dx\.|www\.)?doi\.org/", re.IGNORECASE)
_DOI_SHAPE = re.compile(r"^10\.\d{4,9}(?:\.\d+)*/\S+$")
_DOI_IN_TEXT = re.compile(r"10\.\d{4,9}(?:\.\d+)*/[^\s\"<>{}]+")

_ARXIV_NEW = r"\d{4}\.\d{4,5}(?:v\d+)?"
_ARXIV_OLD = r"[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7}(?:v\d+)?"
_ARXIV_SHAPE = re.compile(rf"^(?:{_ARXIV_NEW}|{_ARXIV_OLD})$")
_ARXIV_PREFIX = re.compile(
    r"^\s*(?:arxiv:\s*|https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)", re.IGNORECASE
)
_ARXIV_IN_TEXT = re.compile(
    rf"(?:arxiv[:\s]\s*|arxiv\.org/(?:abs|pdf)/)({_ARXIV_NEW}|{_ARXIV_OLD})", re.IGNORECASE
)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.IGNORECASE)


def normalize_doi(value: str) -> str:
    """A DOI without resolver prefix or surrounding space, case kept; "" for an empty value. A
    resolver URL is decoded as the URL it is (reference managers write SICI DOIs' parentheses
    as %28 %29 there); a bare DOI is taken as written."""
    stripped = value.strip()
    if _DOI_RESOLVER.match(stripped):
        stripped = unquote(stripped)
    return _DOI_PREFIXES.sub("", stripped).strip().rstrip(".")


def is_valid_doi(doi: str) -> bool:
    """True when `doi` has a DOI's shape: `10.` + registrant code + `/` + suffix."""
    return bool(_DOI_SHAPE.match(doi))


def doi_in_url(url: str) -> str:
    """The DOI inside a doi.org URL, or ""."""
    if re.match(r"^https?://(?:dx\.|www\.)?doi\.org/", url.strip(), re.IGNORECASE):
        return normalize_doi(url)
    return ""


def normalize_arxiv(value: str) -> str:
    """An arXiv id without `arXiv:` or arxiv.org URL prefix and without a trailing `.pdf`."""
    return re.sub(r"\.pdf$", "", _ARXIV_PREFIX.sub("", value.strip())).strip()


def is_valid_arxiv(arxiv_id: str) -> bool:
    """True for new-style (`2101.00001v2`) and old-style (`hep-th/9901001`) arXiv ids, with a
    real month and the sequence length of its period (4 digits to 1412, 5 from 1501)."""
    if not _ARXIV_SHAPE.match(arxiv_id):
        return False
    new_style = re.match(r"^(\d{2})(\d{2})\.(\d+)", arxiv_id)
    if new_style is None:
        return True
    year, month, sequence = (int(new_style.group(1)), int(new_style.group(2)), new_style.group(3))
    if not 1 <= month <= 12 or (year, month) < (7, 4):
        return False
    return len(sequence) == (4 if year < 15 else 5)


def arxiv_in_text(text: str) -> str:
    """An arXiv id named in free text ("arXiv preprint arXiv:1706.03762", a URL), or ""."""
    match = _ARXIV_IN_TEXT.search(text)
    return match.group(1) if match else ""


def arxiv_from_doi(doi: str) -> str:
    """The arXiv id inside an arXiv DataCite DOI (`10.48550/arXiv.1706.03762`), or ""."""
    match = _ARXIV_DOI.match(doi)
    return match.group(1) if match else ""


def is_valid_pmid(pmid: str) -> bool:
    """True for a PubMed id: 1 to 9 digits."""
    return bool(re.fullmatch(r"\d{1,9}", pmid))


def is_valid_pmcid(pmcid: str) -> bool:
    """True for a PubMed Central id: `PMC` and digits."""
    return bool(re.fullmatch(r"PMC\d{1,9}", pmcid, re.IGNORECASE))


def normalize_isbn(value: str) -> str:
    """The first ISBN in a field, digits (and a final X) only."""
    first = re.split(r"[,;]|\s{2,}", value.strip())[0]
    return re.sub(r"[^0-9Xx]", "", first).upper()


def is_valid_isbn(isbn: str) -> bool:
    """True when `isbn` (normalized) is an ISBN-10 or ISBN-13 whose check digit is right."""
    if re.fullmatch(r"\d{9}[\dX]", isbn):
        total = sum((10 - i) * (10 if c == "X" else int(c)) for i, c in enumerate(isbn))
        return total % 11 == 0
    if re.fullmatch(r"\d{13}", isbn):
        total = sum((1 if i % 2 == 0 else 3) * int(c) for i, c in enumerate(isbn))
        return total % 10 == 0
    return False
