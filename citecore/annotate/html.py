"""Highlighted citations for HTML output: a span per flagged citation, classed by severity and
finding kind, with the reasons as its tooltip, and a small stylesheet."""

from __future__ import annotations

import re
from collections.abc import Sequence

import panflute as pf

from citecore.annotate.elements import append_header_include, place_of
from citecore.annotate.flags import Flag
from citecore.extract.markdown import CiteGroup

STYLESHEET = """<style>
.citecheck { border-bottom: 2px solid; cursor: help; padding: 0 1px; }
.citecheck::after { font-size: 0.7em; vertical-align: super; font-weight: bold;
  margin-left: 1px; content: attr(data-citecheck); }
.citecheck-error { background: #fdecea; border-color: #b71c1c; }
.citecheck-error::after { color: #b71c1c; }
.citecheck-warning { background: #fff4e5; border-color: #a14d00; }
.citecheck-warning::after { color: #a14d00; }
.citecheck-info { background: #eef6ee; border-color: #2e7d32; }
.citecheck-info::after { color: #2e7d32; }
.citecheck-unconfirmed { background: none; border-bottom: 1px dotted #757575; }
.citecheck-unconfirmed::after { color: #757575; font-weight: normal; }
</style>"""


_KIND = re.compile(r"[a-z_]+")


def _kind(line: str) -> str:
    """The kind a note line opens with ("undefined: …" → undefined, "supported, p. 7" →
    supported), for a CSS class."""
    match = _KIND.match(line)
    return match.group(0) if match else "note"


def annotate(doc: pf.Doc, flagged: Sequence[tuple[CiteGroup, Flag]]) -> None:
    """Wrap each flagged Cite in `<span class="citecheck citecheck-error …" title="…">`."""
    if not flagged:
        return
    append_header_include(doc, pf.RawBlock(STYLESHEET, "html"))
    for group, flag in flagged:
        # Each line opens with its kind ("undefined: …", "supported, p. 7 …").
        kinds = dict.fromkeys(_kind(line) for line in flag.lines)
        index = place_of(group.element, group.container)
        group.container[index] = pf.Span(
            group.element,
            classes=["citecheck", f"citecheck-{flag.tone}"] + [f"citecheck-{k}" for k in kinds],
            attributes={"title": "\n".join(flag.lines), "data-citecheck": " ".join(kinds)},
        )
