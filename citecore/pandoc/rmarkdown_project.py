"""R Markdown's and bookdown's metadata for a document: the first output format's
`pandoc_args` (from the front matter's `output:` or `_output.yml`), and a bookdown book's
chapters and first file (`_bookdown.yml`), as `rmarkdown::render` and bookdown's `source_files`
and `merge_chapters` read them. The rules: docs/toolchain-metadata.md.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from citecore.files import is_file
from citecore.pandoc.front_matter import FRONT_MATTER
from citecore.pandoc.metadata_layers import (
    BibliographyRule,
    LayerReader,
    MetadataLayer,
    ToolchainMetadata,
    first_file,
    from_layers,
    listed,
    pandoc_arguments_metadata,
)


def _output_formats(value: Any) -> dict[str, Any]:
    """An `output:` value as {format: options}: a name, a list of names, or a map."""
    if isinstance(value, str):
        return {value: {}}
    if isinstance(value, list):
        return {str(v): {} for v in value if isinstance(v, str)}
    if isinstance(value, dict):
        return {str(k): v if isinstance(v, dict) else {} for k, v in value.items()}
    return {}


def _book_order(folder: Path, config: Mapping[str, Any]) -> list[Path]:
    """bookdown's chapters, in its order (`bookdown:::source_files`): `rmd_files` as listed (a
    map by output format: its first format's list), else every `.Rmd` of the folder (and of the
    `rmd_subdir` folders) not starting with `_`, by name, `index.Rmd` first."""
    files = config.get("rmd_files")
    if isinstance(files, dict):
        files = next(iter(files.values()), None)
    if isinstance(files, list) and files:
        return [folder / str(f) for f in files if is_file(folder / str(f))]
    found = sorted(
        p.relative_to(folder)
        for root in _book_folders(folder, config.get("rmd_subdir"))
        for p in (root.rglob("*") if root != folder else root.iterdir())
        if p.is_file() and p.suffix.lower() == ".rmd" and not p.name.startswith("_")
    )
    index = [p for p in found if p.parent == Path() and p.stem == "index"]
    return [folder / p for p in [*index, *(p for p in found if p not in index)]]


def _book_folders(folder: Path, subdirs: Any) -> list[Path]:
    """The folders bookdown takes chapters from: the book's, and with `rmd_subdir` every
    folder in it (`true`) or those it lists."""
    if subdirs is True:
        return [folder, *(p for p in folder.iterdir() if p.is_dir())]
    if subdirs:
        return [folder, *(folder / str(d) for d in listed(subdirs) if (folder / str(d)).is_dir())]
    return [folder]


def book_chapters(document: Path) -> list[Path] | None:
    """Every file of the bookdown book whose first file is `document`, in the order bookdown
    merges them (`_bookdown.yml` beside it); None when it is no book's first file."""
    folder = document.absolute().parent
    config_file = first_file(folder, ("_bookdown.yml", "_bookdown.yaml"))
    if config_file is None:
        return None
    chapters = _book_order(folder, LayerReader().read(config_file))
    if not chapters or chapters[0] != document.absolute():
        return None
    return chapters


def _book_front_matter(document: Path, reader: LayerReader) -> tuple[Path, dict[str, Any]] | None:
    """bookdown's first file and its front matter, when `document` is another chapter of a book
    (`_bookdown.yml` beside it): the book's metadata is the first file's."""
    folder = document.absolute().parent
    config_file = first_file(folder, ("_bookdown.yml", "_bookdown.yaml"))
    if config_file is None:
        return None
    chapters = _book_order(folder, reader.read(config_file))
    first = chapters[0] if chapters else document.absolute()
    if first == document.absolute() or document.absolute() not in chapters:
        return None
    text = first.read_text(encoding="utf-8", errors="replace")
    matter = FRONT_MATTER.match(text)
    if matter is None:
        return first, {}
    try:
        loaded = yaml.safe_load(matter.group(1))
    except yaml.YAMLError:
        reader.problems.append(f"{first}: its front matter is not read as YAML; left out")
        return first, {}
    return first, loaded if isinstance(loaded, dict) else {}


def rmarkdown_metadata(document: Path, own: Mapping[str, Any]) -> ToolchainMetadata:
    reader = LayerReader()
    layers: list[MetadataLayer] = []
    folder = document.absolute().parent
    book = _book_front_matter(document, reader)
    if book is not None:
        first, matter = book
        layers.append(MetadataLayer(matter, first.parent, str(first)))
    formats = _output_formats(own.get("output"))
    output_file = first_file(folder, ("_output.yml", "_output.yaml"))
    shared = _output_formats(reader.read(output_file)) if output_file is not None else {}
    chosen = next(iter(formats), None) or next(iter(shared), None)
    options = {**shared.get(chosen, {}), **formats.get(chosen, {})} if chosen else {}
    raw = options.get("pandoc_args") or [] if isinstance(options, dict) else []
    try:
        args = shlex.split(raw) if isinstance(raw, str) else [str(a) for a in listed(raw)]
    except ValueError as exc:  # an unclosed quote: rmarkdown would not run pandoc either
        reader.problems.append(f"{document}: output's pandoc_args are not read ({exc})")
        args = []
    named_by = str(output_file) if chosen in shared and chosen not in formats else str(document)
    bibliographies, arg_layers = pandoc_arguments_metadata(args, folder, named_by, reader)
    layers += arg_layers
    metadata = from_layers(
        "rmarkdown",
        layers,
        document,
        reader,
        BibliographyRule.REPLACED if bibliographies else BibliographyRule.OWN,
    )
    if bibliographies:
        return replace(metadata, bibliographies=tuple(bibliographies))
    return metadata
