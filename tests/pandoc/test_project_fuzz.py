"""Whatever a project's files hold — any YAML value where a map is expected, text that is no
YAML, bytes that are no UTF-8 — reading a document's toolchain metadata gives a value and at
most a line per file, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecore.pandoc.metadata_layers import ToolchainMetadata
from citecore.pandoc.project import toolchain_metadata

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.sampled_from(["refs.bib", "", "html", "pdf", "@a @b", "--bibliography='x", "dino", "*"]),
    st.text(max_size=8),
)
NAMES = st.sampled_from(
    [
        "bibliography",
        "format",
        "output",
        "nocite",
        "references",
        "citecheck",
        "crossref",
        "custom",
        "key",
        "profile",
        "default",
        "group",
        "metadata-files",
        "rmd_files",
        "rmd_subdir",
        "pandoc_args",
        "html_document",
        "html",
    ]
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(NAMES, inner, max_size=4)),
    max_leaves=12,
)
FILES = st.sampled_from(
    [
        "_quarto.yml",
        "_metadata.yml",
        "sub/_metadata.yml",
        "_output.yml",
        "_bookdown.yml",
        "_quarto-a.yml",
        "shared.yml",
    ]
)


def _text(value: Any, raw: bytes | None) -> bytes:
    return raw if raw is not None else yaml.safe_dump(value).encode("utf-8")


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    files=st.dictionaries(
        FILES,
        st.tuples(VALUES, st.one_of(st.none(), st.binary(max_size=20), st.just(b"a: [b\n"))),
        max_size=4,
    ),
    own=st.dictionaries(NAMES, VALUES, max_size=4),
    suffix=st.sampled_from([".qmd", ".Rmd", ".md"]),
    args=st.lists(st.sampled_from(["--metadata-file", "shared.yml", "-M", "x=y", "-Mz"])),
)
def test_any_project_file_gives_metadata_never_a_traceback(
    files: dict[str, tuple[Any, bytes | None]],
    own: dict[str, Any],
    suffix: str,
    args: list[str],
    tmp_path: Path,
) -> None:
    root = tmp_path / "p"
    (root / "sub").mkdir(parents=True, exist_ok=True)
    for name, (value, raw) in files.items():
        (root / name).write_bytes(_text(value, raw))
    document = root / "sub" / f"doc{suffix}"
    document.write_text("Text [@a].\n", encoding="utf-8")
    metadata = toolchain_metadata(document, own, args)
    assert isinstance(metadata, ToolchainMetadata)
    metadata.bibliographies_with([], document)
    for name, (_, _) in files.items():
        (root / name).unlink()
