"""The metadata a document is rendered with beyond its own front matter, as its toolchain
assembles it before pandoc runs:

- **Quarto** (a `.qmd`, or any Markdown file inside a Quarto project): the project file
  `_quarto.yml` (with its `metadata-files`, the active profiles' `_quarto-<name>.yml` and
  `_quarto.yml.local`), then every `_metadata.yml` from the project's root down to the
  document's folder, merged as Quarto's `mergeConfigs` merges them — maps deeply, a list on
  either side joined with the other side's values — for the document's first format (its
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

import os
import re
import shlex
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import Path
from typing import Any

import yaml

from citecore.pandoc.front_matter import FRONT_MATTER
from citecore.pandoc.knitr import is_knitr_source

_QUARTO_FILES = ("_quarto.yml", "_quarto.yaml")
_METADATA_FILES = ("_metadata.yml", "_metadata.yaml")
# pandoc's citation key after `@` (its `citeKey` rule, without the braced form's freedom).
_NOCITE_KEY = re.compile(r"(?<!\w)@(\*|\{[^}]*\}|[\w][\w:.#$%&\-+?<>~/]*[\w])|@(\w)")


class BibliographyRule(Enum):
    """How the toolchain's bibliographies and the document's own make the list pandoc reads."""

    OWN = "own"  # pandoc's metadata files: the document's own list, else theirs
    JOINED = "joined"  # Quarto: the layers' lists and the document's, joined
    REPLACED = "replaced"  # a command line's --bibliography: the document's own are not read


@dataclass(frozen=True)
class NamedFile:
    """A file a metadata layer names: as written, the folder a relative name is read from, and
    the file that names it (for the message when it is missing)."""

    name: str
    folder: Path
    named_by: str


@dataclass(frozen=True)
class ToolchainMetadata:
    """What the toolchain adds to a document's own metadata: the files it read (lowest
    precedence first), the bibliographies they name and how those meet the document's own, their
    inline `references`, `nocite` keys and `citecheck:` options, each layer that could not be
    read (one line each: the document is still checked), and the custom cross-reference kinds
    its `crossref:` declares (`@dino-x` is no citation where `dino` is one)."""

    toolchain: str = "pandoc"
    files: tuple[str, ...] = ()
    bibliographies: tuple[NamedFile, ...] = ()
    rule: BibliographyRule = BibliographyRule.OWN
    references: tuple[Mapping[str, Any], ...] = ()
    nocite: tuple[str, ...] = ()
    nocite_all: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    problems: tuple[str, ...] = ()
    crossref_kinds: frozenset[str] = frozenset()

    def bibliographies_with(
        self, own: Sequence[str], document: Path, given: Sequence[str] = ()
    ) -> list[NamedFile]:
        """The bibliographies pandoc reads for the document: `given` ones (citecheck's own
        `--bib`) replace everything; else the toolchain's rule joins or replaces the
        document's `own` names (relative to its folder)."""
        if given:
            return [NamedFile(n, document.parent, "") for n in given]
        mine = [NamedFile(n, document.parent, str(document)) for n in own]
        if self.rule is BibliographyRule.REPLACED and self.bibliographies:
            return list(self.bibliographies)
        if self.rule is BibliographyRule.JOINED:
            joined: dict[Path, NamedFile] = {}
            for named in [*self.bibliographies, *mine]:
                joined.setdefault(named.folder / named.name, named)
            return list(joined.values())
        return mine or list(self.bibliographies)


def as_names(value: Any) -> list[str]:
    """A `bibliography` value (a string, a list of them, or nothing) as its names."""
    if value is None or value == "":
        return []
    if isinstance(value, (str, int, float)):
        return [str(value)]
    if isinstance(value, list):
        return [str(v) for v in value if v is not None and v != ""]
    return []


def quarto_merge(base: Any, over: Any) -> Any:
    """`over` merged into `base` as Quarto's `mergeConfigs` does: maps deeply; where either side
    is a list, both sides' values joined, each kept once (first first); else `over` wins."""
    if isinstance(base, list) or isinstance(over, list):
        if not base:
            return over
        if not over:
            return base
        joined: list[Any] = []
        for value in [*_listed(base), *_listed(over)]:
            if value not in joined:
                joined.append(value)
        return joined
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            merged[key] = quarto_merge(merged[key], value) if key in merged else value
        return merged
    return base if over is None else over


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


@dataclass(frozen=True)
class _Layer:
    """One metadata file's values, the folder its relative paths are read from, and its name."""

    values: Mapping[str, Any]
    folder: Path
    origin: str


class _Reader:
    """Reads YAML layers, keeping one line for each that cannot be read."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.files: list[str] = []

    def read(self, path: Path) -> dict[str, Any]:
        try:
            loaded = yaml.safe_load(path.read_text(encoding="utf-8-sig"))
        except OSError as exc:
            self.problems.append(f"{path}: cannot read it: {exc.strerror or exc}")
            return {}
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
            why = getattr(exc, "problem", None) or "not YAML"
            self.problems.append(f"{where}: not read as YAML ({why}); its metadata is left out")
            return {}
        except ValueError as exc:  # a YAML timestamp out of range, a bad encoding
            self.problems.append(f"{path}: not read as YAML ({exc}); its metadata is left out")
            return {}
        self.files.append(str(path))
        if loaded is None:
            return {}
        if not isinstance(loaded, dict):
            self.problems.append(f"{path}: not a map of metadata fields; left out")
            return {}
        return {str(k): v for k, v in loaded.items()}


def _first(folder: Path, names: Iterable[str]) -> Path | None:
    return next((folder / n for n in names if (folder / n).is_file()), None)


def quarto_project(document: Path) -> Path | None:
    """The folder of the Quarto project the document belongs to: the nearest folder at or
    above it holding `_quarto.yml`, as Quarto looks for it; None outside any project."""
    folder = document.absolute().parent
    while True:
        if _first(folder, _QUARTO_FILES) is not None:
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
        named = ",".join(map(str, _listed(default))) if default else ""
    active = [p.strip() for p in named.split(",") if p.strip()]
    groups = spec.get("group") or []
    if isinstance(groups, list) and groups and all(isinstance(g, str) for g in groups):
        groups = [groups]
    for group in groups if isinstance(groups, list) else []:
        if isinstance(group, list) and group and not any(str(g) in active for g in group):
            active.append(str(group[0]))
    return active


def _quarto_layers(document: Path, project: Path, reader: _Reader) -> list[_Layer]:
    """The project's configuration (profiles and included files merged in) and each folder's
    `_metadata.yml` down to the document, lowest precedence first."""
    config_file = _first(project, _QUARTO_FILES)
    assert config_file is not None  # quarto_project found it
    config = reader.read(config_file)
    included = config.pop("metadata-files", None) or config.pop("metadata-file", None) or []
    for name in _listed(included):
        config = quarto_merge(config, reader.read(project / str(name)))
    for name in reversed(_active_profiles(config)):
        profile_file = _first(project, (f"_quarto-{name}.yml", f"_quarto-{name}.yaml"))
        if profile_file is not None:
            config = quarto_merge(config, reader.read(profile_file))
    local = _first(project, ("_quarto.yml.local", "_quarto.yaml.local"))
    if local is not None:
        config = quarto_merge(config, reader.read(local))
    config.pop("profile", None)
    layers = [_Layer(config, project, str(config_file))]
    folder = project
    inside = document.absolute().parent.relative_to(project).parts
    for part in ("", *inside):
        folder = folder / part if part else folder
        found = _first(folder, _METADATA_FILES)
        if found is not None:
            layers.append(_Layer(reader.read(found), folder, str(found)))
    return layers


def _format_keys(values: Mapping[str, Any]) -> list[str]:
    fmt = values.get("format")
    if isinstance(fmt, str):
        return [fmt]
    return [str(k) for k in fmt] if isinstance(fmt, dict) else []


def _for_format(values: Mapping[str, Any], fmt: str) -> dict[str, Any]:
    """A layer's values for one format: its `format: <fmt>:` block merged over the top level."""
    merged = {k: v for k, v in values.items() if k != "format"}
    if isinstance(merged.get("bibliography"), str):
        merged["bibliography"] = [merged["bibliography"]]
    block = values.get("format")
    own = block.get(fmt) if isinstance(block, dict) else None
    if isinstance(own, dict):
        merged = quarto_merge(merged, {**own, "bibliography": as_names(own.get("bibliography"))})
    return merged


def _named(layer: _Layer, names: Iterable[str], document: Path) -> list[NamedFile]:
    """A layer's names, each read beside the layer when a file of that name is there (Quarto's
    `toInputRelativePaths`), else as the document's."""
    found = []
    for name in names:
        beside = (layer.folder / name).is_file() and not Path(name).is_absolute()
        folder = layer.folder if beside else document.absolute().parent
        found.append(NamedFile(name, folder, layer.origin))
    return found


def _nocite(value: Any) -> tuple[list[str], bool]:
    """The keys a layer's `nocite` string names, as pandoc reads `@key` and `@*` in it."""
    text = " ".join(str(v) for v in _listed(value) if v is not None)
    keys: list[str] = []
    every = False
    for match in _NOCITE_KEY.finditer(text):
        key = (match.group(1) or match.group(2) or "").strip("{}")
        if key == "*":
            every = True
        elif key:
            keys.append(key)
    return keys, every


def custom_crossref_kinds(crossref: object) -> frozenset[str]:
    """The keys of Quarto's custom cross-reference kinds in a `crossref:` value
    (`crossref: {custom: [{kind: float, key: dino}]}` makes `@dino-x` a cross-reference)."""
    custom = crossref.get("custom") if isinstance(crossref, Mapping) else None
    if not isinstance(custom, list):
        return frozenset()
    return frozenset(
        str(kind["key"]) for kind in custom if isinstance(kind, Mapping) and kind.get("key")
    )


def _from_layers(
    toolchain: str,
    layers: Sequence[_Layer],
    document: Path,
    fmt: str | None,
    reader: _Reader,
    rule: BibliographyRule,
) -> ToolchainMetadata:
    bibliographies: list[NamedFile] = []
    references: list[Mapping[str, Any]] = []
    nocite: list[str] = []
    every = False
    options: Any = {}
    kinds: frozenset[str] = frozenset()
    for layer in layers:
        values = _for_format(layer.values, fmt) if fmt else dict(layer.values)
        bibliographies += _named(layer, as_names(values.get("bibliography")), document)
        inline = values.get("references")
        references += [r for r in _listed(inline) if isinstance(r, dict)] if inline else []
        keys, star = _nocite(values.get("nocite"))
        nocite += keys
        every = every or star
        if isinstance(values.get("citecheck"), dict):
            options = quarto_merge(options, values["citecheck"])
        kinds |= custom_crossref_kinds(values.get("crossref"))
    return ToolchainMetadata(
        toolchain,
        tuple(reader.files),
        tuple(bibliographies),
        rule,
        tuple(references),
        tuple(dict.fromkeys(nocite)),
        every,
        options if isinstance(options, dict) else {},
        tuple(reader.problems),
        kinds,
    )


def _quarto(document: Path, project: Path, own: Mapping[str, Any]) -> ToolchainMetadata:
    reader = _Reader()
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
        layers = [*layers, _Layer(extra, document.absolute().parent, str(document))]
    return _from_layers("quarto", layers, document, fmt, reader, BibliographyRule.JOINED)


def pandoc_arguments_metadata(
    args: Sequence[str], folder: Path, named_by: str, reader: _Reader | None = None
) -> tuple[list[NamedFile], list[_Layer]]:
    """What pandoc arguments add to the metadata: the `--bibliography` files (relative to
    `folder`, where pandoc runs), and each `--metadata-file` and `-M` as a layer."""
    reader = reader or _Reader()
    bibliographies: list[NamedFile] = []
    layers: list[_Layer] = []
    values = iter(args)
    for arg in values:
        name, _, inline = arg.partition("=")
        if name in ("--bibliography", "--metadata-file", "-M", "--metadata"):
            value = inline if "=" in arg else next(values, "")
        elif arg.startswith("-M") and len(arg) > 2:
            name, value = "-M", arg[2:]
        else:
            continue
        if name == "--bibliography":
            bibliographies.append(NamedFile(value, folder, named_by))
        elif name == "--metadata-file":
            path = folder / value
            layers.append(_Layer(reader.read(path), folder, str(path)))
        else:
            field_name, _, field_value = value.replace(":", "=", 1).partition("=")
            layers.append(_Layer({field_name: field_value or True}, folder, named_by))
    return bibliographies, layers


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
        return [folder / str(f) for f in files if (folder / str(f)).is_file()]
    subdirs = config.get("rmd_subdir")
    roots = [folder]
    if subdirs is True:
        roots += [p for p in folder.iterdir() if p.is_dir()]
    elif subdirs:
        roots += [folder / str(d) for d in _listed(subdirs) if (folder / str(d)).is_dir()]
    found = sorted(
        p.relative_to(folder)
        for root in roots
        for p in (root.rglob("*") if root != folder else root.iterdir())
        if p.is_file() and p.suffix.lower() == ".rmd" and not p.name.startswith("_")
    )
    index = [p for p in found if p.parent == Path() and p.stem == "index"]
    return [folder / p for p in [*index, *(p for p in found if p not in index)]]


def book_chapters(document: Path) -> list[Path] | None:
    """Every file of the bookdown book whose first file is `document`, in the order bookdown
    merges them (`_bookdown.yml` beside it); None when it is no book's first file."""
    folder = document.absolute().parent
    config_file = _first(folder, ("_bookdown.yml", "_bookdown.yaml"))
    if config_file is None:
        return None
    chapters = _book_order(folder, _Reader().read(config_file))
    if not chapters or chapters[0] != document.absolute():
        return None
    return chapters


def _book_front_matter(document: Path, reader: _Reader) -> tuple[Path, dict[str, Any]] | None:
    """bookdown's first file and its front matter, when `document` is another chapter of a book
    (`_bookdown.yml` beside it): the book's metadata is the first file's."""
    folder = document.absolute().parent
    config_file = _first(folder, ("_bookdown.yml", "_bookdown.yaml"))
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


def _rmarkdown(document: Path, own: Mapping[str, Any]) -> ToolchainMetadata:
    reader = _Reader()
    layers: list[_Layer] = []
    folder = document.absolute().parent
    book = _book_front_matter(document, reader)
    if book is not None:
        first, matter = book
        layers.append(_Layer(matter, first.parent, str(first)))
    formats = _output_formats(own.get("output"))
    output_file = _first(folder, ("_output.yml", "_output.yaml"))
    shared = _output_formats(reader.read(output_file)) if output_file is not None else {}
    chosen = next(iter(formats), None) or next(iter(shared), None)
    options = {**shared.get(chosen, {}), **formats.get(chosen, {})} if chosen else {}
    raw = options.get("pandoc_args") or [] if isinstance(options, dict) else []
    try:
        args = shlex.split(raw) if isinstance(raw, str) else [str(a) for a in _listed(raw)]
    except ValueError as exc:  # an unclosed quote: rmarkdown would not run pandoc either
        reader.problems.append(f"{document}: output's pandoc_args are not read ({exc})")
        args = []
    named_by = str(output_file) if chosen in shared and chosen not in formats else str(document)
    bibliographies, arg_layers = pandoc_arguments_metadata(args, folder, named_by, reader)
    layers += arg_layers
    metadata = _from_layers(
        "rmarkdown",
        layers,
        document,
        None,
        reader,
        BibliographyRule.REPLACED if bibliographies else BibliographyRule.OWN,
    )
    if bibliographies:
        return replace(metadata, bibliographies=tuple(bibliographies))
    return metadata


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
        metadata = _quarto(document, project, own)
    elif is_knitr_source(document):
        metadata = _rmarkdown(document, own)
    else:
        metadata = ToolchainMetadata()
    return _with_command_line(metadata, document, pandoc_args) if pandoc_args else metadata


def _with_command_line(
    metadata: ToolchainMetadata, document: Path, pandoc_args: Sequence[str]
) -> ToolchainMetadata:
    """`metadata` with a pandoc command line's: its `--bibliography` files replace every
    other, its `--metadata-file`s come under everything else."""
    reader = _Reader()
    given, layers = pandoc_arguments_metadata(pandoc_args, Path.cwd(), "the command line", reader)
    extra = _from_layers("pandoc", layers, document, None, reader, BibliographyRule.OWN)
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
