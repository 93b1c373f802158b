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
# A shortDOI (shortdoi.org): an alias of one DOI, "10/" and a few letters and digits.
_SHORT_DOI_SHAPE = re.compile(r"^10/[a-z0-9]{2,12}$", re.IGNORECASE)
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


def is_short_doi(doi: str) -> bool:
    """True for a shortDOI (`10/bqhp9z`), which doi.org resolves to the DOI it stands for."""
    return bool(_SHORT_DOI_SHAPE.match(doi))


def is_valid_doi(doi: str) -> bool:
    """True when `doi` has a DOI's shape (`10.` + registrant code + `/` + suffix) or is a
    shortDOI; a placeholder (`10.xxxx/xxxxx`) is none."""
    return (bool(_DOI_SHAPE.match(doi)) or is_short_doi(doi)) and not is_placeholder(doi)


# What writers and templates put where an identifier is still to come: runs of X or Y
# ("XXXX.YYYYY", "10.xxxx/xxxxx"), zeros only, "TODO", "TBD", "n/a", "null", "?".
_PLACEHOLDER = re.compile(
    r"^(?:(?:10\.)?[xy?#*.\-/_]*|.*(?:x{3,}|y{3,}).*|[0./\-]*|todo|tbd|tba|n/?a|none|null|nil|unknown)$",
    re.IGNORECASE,
)


def is_placeholder(value: str) -> bool:
    """True when an identifier field holds a stand-in for an identifier, not an attempt at one
    ("XXXX.YYYYY", "10.xxxx/xxxx", "0000.00000", "TODO", "null"): said once, never looked up."""
    return bool(value.strip()) and bool(_PLACEHOLDER.match(value.strip()))


def doi_in_url(url: str) -> str:
    """The DOI inside a doi.org URL, or ""."""
    if re.match(r"^https?://(?:dx\.|www\.)?doi\.org/", url.strip(), re.IGNORECASE):
        return normalize_doi(url)
    return ""


# Zotero writes `1301.3781 [cs]`, arXiv's own listing `arXiv:2301.04531 [cs.LG]`: the primary
# class after the id, in brackets, is no part of it.
_ARXIV_CLASS_SUFFIX = re.compile(r"\s*\[[a-z\-]+(?:\.[a-z\-]+)?\]\s*$", re.IGNORECASE)


def normalize_arxiv(value: str) -> str:
    """An arXiv id without `arXiv:` or arxiv.org URL prefix, without a trailing `.pdf` and
    without the primary class some tools append (`1301.3781 [cs]`)."""
    stripped = _ARXIV_CLASS_SUFFIX.sub("", _ARXIV_PREFIX.sub("", value.strip()))
    return re.sub(r"\.pdf$", "", stripped).strip()


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


def split_isbns(value: str) -> tuple[str, ...]:
    """Every ISBN in a field, digits (and a final X) only, in order: reference managers list
    print and electronic ISBNs together ("978-3-319-45278-4 978-3-319-45279-1", "0262182394,
    9780262182393", "0-444-70266-0; 0-444-70506-6"). Groups split by spaces inside one ISBN
    ("978 3 16 148410 0") are joined back."""
    isbns: list[str] = []
    pending = ""
    for token in re.split(r"[\s,;/|]+", value.strip()):
        digits = re.sub(r"[^0-9Xx]", "", re.sub(r"^isbn(?:-1[03])?:?", "", token, flags=re.I))
        if not digits:
            continue
        if pending and (len(digits) in (10, 13) or len(pending) + len(digits) > 13):
            isbns.append(pending)
            pending = ""
        pending += digits.upper()
        if len(pending) in (10, 13) and (is_valid_isbn(pending) or len(pending) == 13):
            isbns.append(pending)
            pending = ""
    if pending:
        isbns.append(pending)
    return tuple(isbns)


def normalize_isbn(value: str) -> str:
    """The ISBNs in a field, each normalized (`split_isbns`), separated by single spaces."""
    return " ".join(split_isbns(value))


def is_valid_issn(issn: str) -> bool:
    """True for an ISSN (`0079-6123`, with or without its hyphen) whose check digit is right."""
    digits = issn.replace("-", "").upper()
    if not re.fullmatch(r"\d{7}[\dX]", digits):
        return False
    total = sum((8 - i) * int(c) for i, c in enumerate(digits[:7]))
    check = (11 - total % 11) % 11
    return digits[7] == ("X" if check == 10 else str(check))


def is_valid_isbn(isbn: str) -> bool:
    """True when `isbn` (normalized) is an ISBN-10 or ISBN-13 whose check digit is right."""
    if re.fullmatch(r"\d{9}[\dX]", isbn):
        total = sum((10 - i) * (10 if c == "X" else int(c)) for i, c in enumerate(isbn))
        return total % 11 == 0
    if re.fullmatch(r"\d{13}", isbn):
        total = sum((1 if i % 2 == 0 else 3) * int(c) for i, c in enumerate(isbn))
        return total % 10 == 0
    return False
