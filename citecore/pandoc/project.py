"""The metadata a document is rendered with beyond its own front matter, as its toolchain
assembles it before pandoc runs:

- **Quarto** (a `.qmd`, or any Markdown file inside a Quarto project): the project file
  `_quarto.yml` (with its `metadata-files`, the active profiles' `_quarto-<name>.yml` and
  `_quarto.yml.local`), then every `_metadata.yml` on the way down to the document's
  folder (the project folder's own only for a document in it), merged as Quarto's
  `mergeConfigs` merges them — maps deeply, a list on either side joined with the other
  side's values — for the document's first format (its
  `format:` block merged over the top level). `bibliography` is always a list there, so the
  project's, the folders' and the document's own bibliographies are all read. A relative path
  that names a file beside the layer that says it is that file (Quarto's
  `toInputRelativePaths`); any other is the document's.
- **R Markdown** (`rmarkdown::render`): the first output format of the front matter's `output:`
  (or of `_output.yml` beside it, whose options the front matter's override), and its
  `pandoc_args`: `--bibliography` replaces the document's own, as pandoc's option does;
  `--metadata-file` and `-M` give metadata under the document's. bookdown's `_bookdown.yml`:
  the book's first file (`index.Rmd`, or the first of `rmd_files`) holds the book's front matter.
- **pandoc**: `--metadata-file`s given to it, under the document's own metadata.

Nothing here runs pandoc or R: the layers are YAML files read as YAML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from citecore.pandoc.knitr import is_knitr_source
from citecore.pandoc.metadata_layers import (
    BibliographyRule,
    LayerReader,
    ToolchainMetadata,
    from_layers,
    pandoc_arguments_metadata,
    quarto_merge,
)
from citecore.pandoc.quarto_project import quarto_metadata, quarto_project
from citecore.pandoc.rmarkdown_project import rmarkdown_metadata


def toolchain_metadata(
    document: Path, own: Mapping[str, Any], pandoc_args: Sequence[str] = ()
) -> ToolchainMetadata:
    """What the document's toolchain adds to its own front matter (`own`, as plain values):
    Quarto's project and folder metadata for a `.qmd` or a document inside a Quarto project; R
    Markdown's output options and bookdown's first file for an `.Rmd`; then what the pandoc
    command line `pandoc_args` gives (`--bibliography` replaces every other; a
    `--metadata-file` is under the rest, as pandoc reads it). Files that cannot be read are
    said in `problems`."""
    suffix = document.suffix.lower()
    project = quarto_project(document)
    in_project = project is not None and document.stem.lower() != "readme"
    if project is not None and (suffix == ".qmd" or in_project):
        metadata = quarto_metadata(document, project, own)
    elif is_knitr_source(document):
        metadata = rmarkdown_metadata(document, own)
    else:
        metadata = ToolchainMetadata()
    return _with_command_line(metadata, document, pandoc_args) if pandoc_args else metadata


def _with_command_line(
    metadata: ToolchainMetadata, document: Path, pandoc_args: Sequence[str]
) -> ToolchainMetadata:
    """`metadata` with a pandoc command line's: its `--bibliography` files replace every
    other, its `--metadata-file`s come under everything else."""
    reader = LayerReader()
    given, layers = pandoc_arguments_metadata(pandoc_args, Path.cwd(), "the command line", reader)
    extra = from_layers("pandoc", layers, document, reader, BibliographyRule.OWN)
    return replace(
        metadata,
        files=(*extra.files, *metadata.files),
        bibliographies=tuple(given) or metadata.bibliographies or extra.bibliographies,
        rule=BibliographyRule.REPLACED if given else metadata.rule,
        references=(*extra.references, *metadata.references),
        nocite=tuple(dict.fromkeys((*extra.nocite, *metadata.nocite))),
        nocite_all=metadata.nocite_all or extra.nocite_all,
        options=quarto_merge(dict(extra.options), dict(metadata.options)),
        problems=(*extra.problems, *metadata.problems),
        crossref_kinds=metadata.crossref_kinds | extra.crossref_kinds,
    )
