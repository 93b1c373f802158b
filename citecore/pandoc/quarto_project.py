"""Quarto's metadata for a document: its project's configuration (`_quarto.yml` with its
`metadata-files`, the active profiles' `_quarto-<name>.yml` and `_quarto.yml.local`) and every
`_metadata.yml` on the way down to the document's folder (the project folder's own only for a
document in it), for the document's first
format — as Quarto's `projectContext`, `initializeProfileConfig`, `directoryMetadataForInputFile`
and `resolveFormats` assemble them. The rules: docs/toolchain-metadata.md.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from citecore.pandoc.metadata_layers import (
    BibliographyRule,
    LayerReader,
    MetadataLayer,
    ToolchainMetadata,
    as_names,
    first_file,
    from_layers,
    listed,
    quarto_merge,
)

_QUARTO_FILES = ("_quarto.yml", "_quarto.yaml")
_METADATA_FILES = ("_metadata.yml", "_metadata.yaml")


def quarto_project(document: Path) -> Path | None:
    """The folder of the Quarto project the document belongs to: the nearest folder at or
    above it holding `_quarto.yml`, as Quarto looks for it; None outside any project."""
    folder = document.absolute().parent
    while True:
        if first_file(folder, _QUARTO_FILES) is not None:
            return folder
        if folder.parent == folder:
            return None
        folder = folder.parent


def _active_profiles(config: Mapping[str, Any]) -> list[str]:
    """Quarto's active profiles: `QUARTO_PROFILE`, else the project's `profile: default:`;
    one member of each `profile: group:` at least."""
    profile = config.get("profile")
    spec = profile if isinstance(profile, dict) else {}
    named = os.environ.get("QUARTO_PROFILE", "")
    if not named:
        default = spec.get("default")
        named = ",".join(map(str, listed(default))) if default else ""
    active = [p.strip() for p in named.split(",") if p.strip()]
    groups = spec.get("group") or []
    if isinstance(groups, list) and groups and all(isinstance(g, str) for g in groups):
        groups = [groups]
    for group in groups if isinstance(groups, list) else []:
        if isinstance(group, list) and group and not any(str(g) in active for g in group):
            active.append(str(group[0]))
    return active


def _quarto_layers(document: Path, project: Path, reader: LayerReader) -> list[MetadataLayer]:
    """The project's configuration (profiles and included files merged in) and each folder's
    `_metadata.yml` down to the document, lowest precedence first."""
    config_file = first_file(project, _QUARTO_FILES)
    assert config_file is not None  # quarto_project found it
    config = reader.read(config_file)
    included = config.pop("metadata-files", None) or config.pop("metadata-file", None) or []
    for name in listed(included):
        config = quarto_merge(config, reader.read(project / str(name)))
    for name in reversed(_active_profiles(config)):
        profile_file = first_file(project, (f"_quarto-{name}.yml", f"_quarto-{name}.yaml"))
        if profile_file is not None:
            config = quarto_merge(config, reader.read(profile_file))
    local = first_file(project, ("_quarto.yml.local", "_quarto.yaml.local"))
    if local is not None:
        config = quarto_merge(config, reader.read(local))
    config.pop("profile", None)
    layers = [MetadataLayer(config, project, str(config_file))]
    folder = project
    # Quarto walks the folders below the project's, from the first down to the document's
    # (`directoryMetadataForInputFile`): the project folder's own `_metadata.yml` is read only
    # for a document that lies in it.
    inside = document.absolute().parent.relative_to(project).parts
    for part in inside or ("",):
        folder = folder / part if part else folder
        found = first_file(folder, _METADATA_FILES)
        if found is not None:
            layers.append(MetadataLayer(reader.read(found), folder, str(found)))
    return layers


def _format_keys(values: Mapping[str, Any]) -> list[str]:
    fmt = values.get("format")
    if isinstance(fmt, str):
        return [fmt]
    return [str(k) for k in fmt] if isinstance(fmt, dict) else []


def for_format(values: Mapping[str, Any], fmt: str) -> dict[str, Any]:
    """A layer's values for one format: its `format: <fmt>:` block merged over the top level."""
    merged = {k: v for k, v in values.items() if k != "format"}
    if isinstance(merged.get("bibliography"), str):
        merged["bibliography"] = [merged["bibliography"]]
    block = values.get("format")
    own = block.get(fmt) if isinstance(block, dict) else None
    if isinstance(own, dict):
        merged = quarto_merge(merged, {**own, "bibliography": as_names(own.get("bibliography"))})
    return merged


def quarto_metadata(document: Path, project: Path, own: Mapping[str, Any]) -> ToolchainMetadata:
    reader = LayerReader()
    layers = _quarto_layers(document, project, reader)
    # The document's formats (with its folders'), else the project's, else html: the first is
    # the one `quarto render` gives first and `quarto preview` shows.
    formats = _format_keys(own) or [k for layer in layers[1:] for k in _format_keys(layer.values)]
    formats = formats or _format_keys(layers[0].values) or ["html"]
    fmt = formats[0]
    own_block = own.get("format")
    if isinstance(own_block, dict) and isinstance(own_block.get(fmt), dict):
        # The document's own format block joins its bibliography to the document's own.
        extra = {"bibliography": as_names(own_block[fmt].get("bibliography"))}
        layers = [*layers, MetadataLayer(extra, document.absolute().parent, str(document))]
    for_first = [MetadataLayer(for_format(la.values, fmt), la.folder, la.origin) for la in layers]
    return from_layers("quarto", for_first, document, reader, BibliographyRule.JOINED)
