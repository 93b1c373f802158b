"""Word comments for docx output, through pandoc's comment spans (`comment-start`/`comment-end`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from citecore.annotate.elements import insert_around, span
from citecore.annotate.flags import Flag
from citecore.extract.markdown import CiteGroup
from citecore.pandoc.ast import Node

AUTHOR = "citecheck"


def annotate(doc: Node, flagged: Sequence[tuple[CiteGroup, Flag]]) -> None:
    """Attach a Word comment holding the problems to each flagged citation."""
    del doc  # comments live on the citations themselves; nothing document-wide is needed
    date = dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    for number, (group, flag) in enumerate(flagged):
        identifier = f"citecheck-{number}"
        text = f"citecheck ({flag.severity.value}): " + " · ".join(flag.lines)
        start = span(
            [{"t": "Str", "c": text}],
            ["comment-start"],
            [("id", identifier), ("author", AUTHOR), ("date", date)],
        )
        end = span([], ["comment-end"], [("id", identifier)])
        insert_around(group.element, group.container, start, end)
