"""One promise for every registry parser: an answer it cannot read is a ValueError.

Registries answer in JSON or XML whose shape the parsers expect; an answer of another shape
(`null`, a list where an object belongs, a truncated feed) makes Python raise whatever the first
access trips on. Callers treat ValueError as an unreadable answer (a server failure, never a
verdict), so every parser is wrapped to raise nothing else on bad data.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_SHAPE_ERRORS = (AttributeError, TypeError, KeyError, IndexError, ElementTree.ParseError)


def answer_parser(parse: Callable[P, T]) -> Callable[P, T]:
    """`parse`, raising ValueError (with the original as its cause) for any answer whose shape
    it cannot read."""

    @functools.wraps(parse)
    def checked(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return parse(*args, **kwargs)
        except _SHAPE_ERRORS as exc:
            raise ValueError(f"unreadable answer: {type(exc).__name__}: {exc}") from exc

    return checked
