"""Records to JSON-ready data and back (the cache's format): every record the cache stores
survives the round trip through JSON; data that does not fit its type is refused. Records
also survive pickling and copying."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.bib.parsed import BibtexFile
from citecore.model import (
    Citation,
    CitationId,
    CitationMode,
    CitationResult,
    Finding,
    FindingKind,
    GroundingStatus,
    Outage,
    Reference,
    ReferenceResult,
    ReferenceVerdict,
    Severity,
    SourceLocation,
)
from citecore.registries.record import WorkRecord
from citecore.serialize import from_data, record_from_data, to_compact_data, to_data

# NaN is never equal to itself; the records never hold one.
st.register_type_strategy(float, st.floats(allow_nan=False, allow_infinity=False))

CACHED = (Reference, ReferenceResult, CitationResult, WorkRecord, Citation, Finding, BibtexFile)


def _through_json(value: Any) -> Any:
    return json.loads(json.dumps(to_data(value)))


@pytest.mark.parametrize("kind", CACHED, ids=lambda k: k.__name__)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_round_trip_through_json(kind: type, data: st.DataObject) -> None:
    value = data.draw(st.from_type(kind))
    assert record_from_data(kind, _through_json(value)) == value


@pytest.mark.parametrize("kind", CACHED, ids=lambda k: k.__name__)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_compact_round_trip_leaves_out_only_defaults(kind: type, data: st.DataObject) -> None:
    value = data.draw(st.from_type(kind))
    compact = json.loads(json.dumps(to_compact_data(value)))
    assert record_from_data(kind, compact) == value
    assert len(json.dumps(compact)) <= len(json.dumps(to_data(value)))


def test_enums_are_stored_by_value_and_sets_in_order() -> None:
    result = ReferenceResult("k", ReferenceVerdict.VERIFIED, flags=frozenset(), notes=("b", "a"))
    data = to_data(result)
    assert data["verdict"] == "verified"
    assert data["notes"] == ["b", "a"]  # tuples keep their order
    assert to_data(frozenset({"b", "a"})) == ["a", "b"]  # sets are sorted: stable cache text


def test_missing_fields_take_their_defaults_and_unknown_ones_are_ignored() -> None:
    data = {"key": "k", "verdict": "not_found", "added_later": 1}
    assert record_from_data(ReferenceResult, data) == ReferenceResult(
        "k", ReferenceVerdict.NOT_FOUND
    )


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        (Finding, {"kind": "undefined", "severity": "error", "message": 3}),
        (Finding, {"kind": "no-such-kind", "severity": "error", "message": "m"}),
        (SourceLocation, ["file", 3]),
        (Citation, {"key": "k", "mode": "normal", "location": {"file": "f", "line": "3"}}),
    ],
)
def test_data_that_does_not_fit_is_refused(kind: type, data: Any) -> None:
    with pytest.raises(ValueError):
        from_data(kind, data)


def test_optionals_and_nested_records() -> None:
    citation = Citation(
        "k",
        CitationMode.AUTHOR_IN_TEXT,
        SourceLocation("paper.md", 3),
        CitationId("paper.md", 0),
        note_number=None,
    )
    assert record_from_data(Citation, _through_json(citation)) == citation
    grounded = CitationResult(GroundingStatus.SUPPORTED, "local", page=2, passage="p")
    assert record_from_data(CitationResult, _through_json(grounded)).page == 2
    finding = Finding(FindingKind.UNDEFINED, Severity.ERROR, "m", "k", SourceLocation("f", 1))
    assert record_from_data(Finding, _through_json(finding)) == finding


PICKLED = (SourceLocation, Reference, ReferenceResult, CitationResult, Citation, Finding, Outage)


@pytest.mark.parametrize("kind", PICKLED, ids=lambda k: k.__name__)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_records_pickle_and_copy_to_equal_records(kind: type, data: st.DataObject) -> None:
    """Pickled as the tuple of their fields (a screen's tasks carry them to the workers)."""
    value = data.draw(st.from_type(kind))
    assert pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)) == value
    assert copy.copy(value) == value
    assert copy.deepcopy(value) == value
