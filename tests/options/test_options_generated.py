"""Option resolution against its oracle on generated settings: an option set in any mix of
layers (citecheck.toml, document metadata, CITECHECK_* environment, command line, under any
spelling) takes the value of the highest layer that sets it, for every option alike."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from citecore.options import resolve_options

EXAMPLES = int(os.environ.get("CITECHECK_FUZZ_EXAMPLES", "100"))
LAYERS = ("toml", "metadata", "environment", "cli")  # lowest first

# option → (values a writer may give, as text, the value Options holds)
OPTIONS: dict[str, tuple[tuple[str, Any], ...]] = {
    "offline": (("true", True), ("false", False), ("yes", True), ("0", False)),
    "timeout": (("5", 5.0), ("12.5", 12.5), ("60", 60.0)),
    "email": (("a@example.org", "a@example.org"), ("b@example.org", "b@example.org")),
    "cutoff": (("2024", "2024"), ("2024-10", "2024-10"), ("2023-01-31", "2023-01-31")),
    "pool_threshold": (("0.5", 0.5), ("0.9", 0.9), ("1", 1.0)),
    "quiet": (("on", True), ("off", False)),
}


def _spell(name: str, variant: int) -> str:
    """`pool_threshold`, `pool-threshold` or `POOL_THRESHOLD`: one name."""
    return (name, name.replace("_", "-"), name.upper())[variant]


@st.composite
def placements(draw: st.DrawFn) -> dict[str, dict[str, tuple[str, Any]]]:
    """For each layer, the options it sets and to what."""
    placed: dict[str, dict[str, tuple[str, Any]]] = {layer: {} for layer in LAYERS}
    for option, values in OPTIONS.items():
        for layer in draw(st.sets(st.sampled_from(LAYERS))):
            placed[layer][option] = draw(st.sampled_from(values))
    return placed


def _toml_value(text: str) -> str:
    return text if text.replace(".", "", 1).isdigit() else f'"{text}"'


@settings(max_examples=EXAMPLES, deadline=None)
@given(placements(), st.integers(0, 2))
def test_the_highest_layer_that_sets_an_option_wins(
    placed: dict[str, dict[str, tuple[str, Any]]], variant: int
) -> None:
    with tempfile.TemporaryDirectory(prefix="citecheck-options-") as name:
        folder = Path(name)
        toml = "".join(
            f"{_spell(option, variant if variant < 2 else 0)} = {_toml_value(text)}\n"
            for option, (text, _) in placed["toml"].items()
        )
        (folder / "citecheck.toml").write_text("[citecheck]\n" + toml)
        metadata = {_spell(o, variant): text for o, (text, _) in placed["metadata"].items()}
        environ = {f"CITECHECK_{o.upper()}": text for o, (text, _) in placed["environment"].items()}
        cli = {o: text for o, (text, _) in placed["cli"].items()}
        options = resolve_options(cli, folder=folder, metadata=metadata, environ=environ)
        for option in OPTIONS:
            setting = [placed[layer][option] for layer in LAYERS if option in placed[layer]]
            if setting:
                assert getattr(options, option) == setting[-1][1], (option, placed)
