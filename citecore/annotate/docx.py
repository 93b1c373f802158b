"""Word comments for docx output, through pandoc's comment spans (`comment-start`/`comment-end`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import panflute as pf

from citecore.annotate.elements import insert_around
from citecore.annotate.flags import Flag
from citecore.extract.markdown import CiteGroup

AUTHOR = "citecheck"


def annotate(doc: pf.Doc, flagged: Sequence[tuple[CiteGroup, Flag]]) -> None:
    """Attach a Word comment holding the problems to each flagged citation."""
    del doc  # comments live on the citations themselves; nothing document-wide is needed
    date = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    # Last first: what is inserted around a citation moves only the ones after it, which are
    # done by then, so each citation is still where extraction found it.
    for number, (group, flag) in reversed(list(enumerate(flagged))):
        identifier = f"citecheck-{number}"
        text = f"citecheck ({flag.severity.value}): " + " · ".join(flag.lines)
        start = pf.Span(
            pf.Str(text),
            classes=["comment-start"],
            attributes={"id": identifier, "author": AUTHOR, "date": date},
        )
        end = pf.Span(classes=["comment-end"], attributes={"id": identifier})
        insert_around(group.element, group.container, start, end)
