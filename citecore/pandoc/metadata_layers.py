"""The pieces every toolchain's metadata is made of: a metadata file read as a layer (YAML, one
line for a file that cannot be read), Quarto's merge of two layers, the bibliographies, inline
references, nocite keys, `citecheck:` options and custom cross-reference kinds the layers name,
and what a pandoc command line adds. `citecore.pandoc.project` says which layers a document has.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

import yaml

from citecore.files import is_file

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
        for value in [*listed(base), *listed(over)]:
            if value not in joined:
                joined.append(value)
        return joined
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            merged[key] = quarto_merge(merged[key], value) if key in merged else value
        return merged
    return base if over is None else over


def listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


@dataclass(frozen=True)
class MetadataLayer:
    """One metadata file's values, the folder its relative paths are read from, and its name."""

    values: Mapping[str, Any]
    folder: Path
    origin: str


class LayerReader:
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


def first_file(folder: Path, names: Iterable[str]) -> Path | None:
    return next((folder / n for n in names if is_file(folder / n)), None)


def _named(layer: MetadataLayer, names: Iterable[str], document: Path) -> list[NamedFile]:
    """A layer's names, each read beside the layer when a file of that name is there (Quarto's
    `toInputRelativePaths`), else as the document's."""
    found = []
    for name in names:
        beside = is_file(layer.folder / name) and not Path(name).is_absolute()
        folder = layer.folder if beside else document.absolute().parent
        found.append(NamedFile(name, folder, layer.origin))
    return found


def _nocite(value: Any) -> tuple[list[str], bool]:
    """The keys a layer's `nocite` string names, as pandoc reads `@key` and `@*` in it."""
    text = " ".join(str(v) for v in listed(value) if v is not None)
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


def from_layers(
    toolchain: str,
    layers: Sequence[MetadataLayer],
    document: Path,
    reader: LayerReader,
    rule: BibliographyRule,
) -> ToolchainMetadata:
    """One toolchain's metadata from its layers (lowest precedence first): what they name, in
    their order, with `rule` for how their bibliographies meet the document's own."""
    bibliographies: list[NamedFile] = []
    references: list[Mapping[str, Any]] = []
    nocite: list[str] = []
    every = False
    options: Any = {}
    kinds: frozenset[str] = frozenset()
    for layer in layers:
        values = layer.values
        bibliographies += _named(layer, as_names(values.get("bibliography")), document)
        inline = values.get("references")
        references += [r for r in listed(inline) if isinstance(r, dict)] if inline else []
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


def pandoc_arguments_metadata(
    args: Sequence[str], folder: Path, named_by: str, reader: LayerReader | None = None
) -> tuple[list[NamedFile], list[MetadataLayer]]:
    """What pandoc arguments add to the metadata: the `--bibliography` files (relative to
    `folder`, where pandoc runs), and each `--metadata-file` and `-M` as a layer."""
    reader = reader or LayerReader()
    bibliographies: list[NamedFile] = []
    layers: list[MetadataLayer] = []
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
            layers.append(MetadataLayer(reader.read(path), folder, str(path)))
        else:
            field_name, _, field_value = value.replace(":", "=", 1).partition("=")
            layers.append(MetadataLayer({field_name: field_value or True}, folder, named_by))
    return bibliographies, layers
