"""The public API `citecore.__all__` declares: every name importable from `citecore` and
documented, loaded only when asked for."""

from __future__ import annotations

import subprocess
import sys

import pytest

import citecore


@pytest.mark.parametrize("name", sorted(set(citecore.__all__) - {"__version__"}))
def test_every_public_name_is_importable_and_documented(name: str) -> None:
    value = getattr(citecore, name)
    assert (value.__doc__ or "").strip(), f"{name} has no docstring"


def test_importing_citecore_loads_no_pipeline() -> None:
    loaded = subprocess.run(
        [sys.executable, "-c", "import citecore, sys; print(sorted(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "citecore.api" not in loaded
    assert "citecore.model" not in loaded


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        citecore.no_such_name  # noqa: B018


def test_all_names_what_the_homes_place() -> None:
    assert set(citecore.__all__) == {"__version__", *citecore._HOMES}
