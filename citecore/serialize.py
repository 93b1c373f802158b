"""Records to JSON-ready data and back, for the cache.

Only the shapes the records use are supported: dataclasses, enums, tuples (`tuple[X, ...]`),
frozensets, dicts of str, optionals and plain scalars. A value that does not fit its type raises
ValueError, which callers treat as a stale cache entry.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cache
from typing import Any, TypeVar, get_args, get_origin

T = TypeVar("T")


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    """The fields of a dataclass type, in order; () for any other type. Asked once a type:
    `dataclasses.fields` per value was most of the cost of storing a parsed bibliography."""
    return tuple(f.name for f in dataclasses.fields(kind)) if dataclasses.is_dataclass(kind) else ()


def to_data(value: Any) -> Any:
    """JSON-ready data for a record (dataclass), enum, container or scalar."""
    kind: type = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    names = _field_names(kind)
    if names:
        return {name: to_data(getattr(value, name)) for name in names}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [to_data(v) for v in value]
        return sorted(items) if isinstance(value, (frozenset, set)) else items
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    return value


def to_compact_data(value: Any) -> Any:
    """`to_data` leaving out every dataclass field that holds its default (`from_data` puts it
    back): what a store of millions of records keeps."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    kind = type(value)
    fields = _DEFAULTS[kind] if kind in _DEFAULTS else _defaults(kind)
    if fields is not None:
        return {
            name: to_compact_data(field_value)
            for name, default in fields
            if (field_value := getattr(value, name)) is not default and field_value != default
        }
    if isinstance(value, (tuple, list, frozenset, set)):
        items = [to_compact_data(v) for v in value]
        return sorted(items) if isinstance(value, (frozenset, set)) else items
    if isinstance(value, dict):
        return {str(k): to_compact_data(v) for k, v in value.items()}
    return to_data(value)


_REQUIRED = object()  # a field without a default: always kept
_DEFAULTS: dict[type, tuple[tuple[str, Any], ...] | None] = {}


def _defaults(kind: type) -> tuple[tuple[str, Any], ...] | None:
    """A dataclass's fields with their defaults (`_REQUIRED` for none), read once per class (a
    snapshot serializes millions of records); None for a type that is no dataclass."""
    if not dataclasses.is_dataclass(kind):
        _DEFAULTS[kind] = None
        return None
    found = []
    for f in dataclasses.fields(kind):
        if f.default is not dataclasses.MISSING:
            found.append((f.name, f.default))
        elif f.default_factory is not dataclasses.MISSING:
            found.append((f.name, f.default_factory()))
        else:
            found.append((f.name, _REQUIRED))
    _DEFAULTS[kind] = tuple(found)
    return _DEFAULTS[kind]


def from_data(kind: Any, data: Any) -> Any:
    """Rebuild a value of type `kind` from what `to_data` made."""
    return _decoder(kind)(data)


@cache
def _decoder(kind: Any) -> Callable[[Any], Any]:
    """A function that rebuilds values of type `kind`; built once per type, because rebuilding
    a cached bibliography is on every rebuild's path."""
    origin = get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        inner = _decoder(next(a for a in get_args(kind) if a is not type(None)))
        return lambda data: None if data is None else inner(data)
    if origin is tuple:
        item = _decoder(get_args(kind)[0])
        return lambda data: tuple(item(v) for v in data)
    if origin is frozenset:
        member = _decoder(get_args(kind)[0])
        return lambda data: frozenset(member(v) for v in data)
    if origin is dict:
        key_decoder, value_decoder = (_decoder(a) for a in get_args(kind))
        return lambda data: {key_decoder(k): value_decoder(v) for k, v in data.items()}
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        return _dataclass_decoder(kind)
    if isinstance(kind, type) and issubclass(kind, Enum):
        return kind
    if kind in (str, int, float, bool):
        return lambda data: _checked(kind, data)
    return lambda data: data


def _dataclass_decoder(kind: type) -> Callable[[Any], Any]:
    hints = typing.get_type_hints(kind)
    fields = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(kind)]

    def decode(data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"expected a mapping for {kind.__name__}")
        return kind(
            **{name: decode_field(data[name]) for name, decode_field in fields if name in data}
        )

    return decode


def _checked(kind: type, data: Any) -> Any:
    if not isinstance(data, kind):
        raise ValueError(f"expected {kind.__name__}, got {type(data).__name__}")
    return data


def record_from_data(cls: type[T], data: Any) -> T:
    """Rebuild a record of class `cls` (typed convenience over `from_data`)."""
    result: T = from_data(cls, data)
    return result
