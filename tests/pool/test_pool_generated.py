"""Pool files as writers and tools leave them (hypothesis): any JSON shape in any field is a
listed problem or a clear one-line error, never a traceback; every paper gets a key and no two
papers share one; `validate --fix` changes what it says it fixes, keeps everything else, and a
second run changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.errors import InputError
from citecore.pool.model import fix_pool, load_pool, parse_pool

SCALAR = st.none() | st.booleans() | st.integers(-5, 3000) | st.text(max_size=12)
ANY = st.recursive(
    SCALAR,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)
NAME = st.sampled_from(["Ada Lovelace", "Émile Zola", "Grace Hopper", " ", "李 四"])


@st.composite
def paper(draw: st.DrawFn) -> Any:
    """A paper object whose fields are right, wrong-typed or missing; or not an object."""
    if draw(st.integers(0, 9)) == 0:
        return draw(ANY)
    fields = {
        "title": st.sampled_from(["Deep Learning", "A Study of Things", ""]) | ANY,
        "year": st.sampled_from([2019, "2020", "n.d."]) | ANY,
        "authors": st.lists(NAME | st.builds(lambda n: {"name": n}, NAME), max_size=3) | ANY,
        "externalIds": st.fixed_dictionaries({}, optional={"DOI": SCALAR, "ArXiv": SCALAR}) | ANY,
        "bibtex_key": st.sampled_from(["lovelace1843", "dup", ""]) | ANY,
        "discovered_for": st.lists(st.text(max_size=5), max_size=2) | ANY,
        "venue": ANY,
        "abstract": ANY,
        "paperId": ANY,
    }
    chosen = draw(st.sets(st.sampled_from(sorted(fields))))
    return {name: draw(fields[name]) for name in sorted(chosen)}


POOLS = st.fixed_dictionaries(
    {"papers": st.lists(paper(), max_size=6)},
    optional={"min_cite_paper_count": SCALAR},
)


@settings(max_examples=300, deadline=None)
@given(POOLS)
def test_any_pool_is_read_with_problems_listed_and_unique_keys(data: dict[str, Any]) -> None:
    pool, problems = parse_pool(json.loads(json.dumps(data)), "pool.json")
    keys = [p.key for p in pool.papers]
    assert all(keys) and len(set(keys)) == len(keys)
    objects = [i for i, item in enumerate(data["papers"]) if isinstance(item, dict)]
    assert len(pool.papers) == len(objects)
    assert all(0 <= p.index < len(data["papers"]) for p in problems)


@given(ANY)
def test_what_is_not_a_pool_is_one_clear_error(data: Any) -> None:
    try:
        parse_pool(data, "pool.json")
    except InputError as exc:
        assert str(exc).startswith("pool.json: not a pool file")


@settings(max_examples=150, deadline=None)
@given(POOLS)
def test_fix_keeps_what_it_does_not_fix_and_is_idempotent(data: dict[str, Any]) -> None:
    with TemporaryDirectory() as folder:
        path = Path(folder) / "pool.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        before, _ = load_pool(path)
        fix_pool(path)
        after, problems = load_pool(path)
        assert [p.key for p in after.papers] == [p.key for p in before.papers]
        assert [p.authors for p in after.papers] == [p.authors for p in before.papers]
        assert not any(p.fixable for p in problems)
        fixed = path.read_text(encoding="utf-8")
        assert fix_pool(path) == 0
        assert path.read_text(encoding="utf-8") == fixed
        written = json.loads(fixed)["papers"]
        for original, kept in zip(data["papers"], written, strict=True):
            if not isinstance(original, dict):
                assert kept == original  # not a paper: left exactly as it was


def test_a_key_two_papers_claim_is_an_error_and_the_later_paper_is_told_apart() -> None:
    papers = [
        {"title": "Deep Learning", "year": 2015, "bibtex_key": "lecun2015"},
        {"title": "Deep Learning", "year": 2016, "bibtex_key": "lecun2015"},
        {"title": "Lecun 2015", "year": 2015, "authors": [{"name": "Yann LeCun"}]},
    ]
    pool, problems = parse_pool({"papers": papers}, "pool.json")
    assert [p.key for p in pool.papers] == ["lecun2015", "lecun2015a", "lecun2015lecun"]
    assert [(p.index, p.message) for p in problems if p.severity.value == "error"] == [
        (1, "bibtex_key 'lecun2015' is paper 1's too")
    ]
