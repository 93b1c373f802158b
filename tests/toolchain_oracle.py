"""The writer's toolchain as the oracle for a whole Markdown-family document: the keys of pandoc's
AST (after knitr) and the keys pandoc's citeproc reports as "citation X not found", with the
bibliographies the toolchain would hand it — the document's own front matter, a pandoc command's
`--bibliography`, Quarto's project file, its profiles and every `_metadata.yml` merged as Quarto
merges them (`mergeConfigs`: maps merged deeply, `bibliography` always a list and the lists
joined). Held against what `citecheck check` reads and calls `undefined` for the same layout.

The Quarto merge here is written from Quarto's own rules (src/core/config.ts,
src/project/project-context.ts, src/command/render/render-contexts.ts) independently of
citecore's, so the two can disagree. Quarto itself is not installable here (its PyPI package
downloads its binary at install time).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import tempfile
import traceback
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from citecore.extract.markdown import is_crossref
from citecore.pandoc.reader import pandoc_path
from tests.generated_markdown import ast_keys
from tests.knitr_oracle import have_knitr, knit
from tests.paths import CORPUS

TOOLCHAINS = CORPUS / "toolchains"
_NOT_FOUND = re.compile(r"Citeproc: citation (\S+) not found")
_R_CODE = re.compile(r"^[\t >]*```+\s*\{r[ ,}]|`r |^engine:\s*knitr", re.M)
_CELL_FENCE = re.compile(
    r"^(?P<fence>[\t >]*```+)\s*\{(?P<lang>[a-zA-Z0-9_]+)[^}\n]*\}[ \t]*$", re.M
)
_FRONT = re.compile(r"\A---[ \t]*\n(.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)


@dataclass(frozen=True)
class Layout:
    """A document on disk as its repository holds it: the file, the folder its toolchain runs
    in, and the `--bibliography`/`--metadata-file` arguments of its command (pandoc's tests)."""

    ident: str
    document: Path
    cwd: Path
    bibliographies: tuple[str, ...] = ()
    metadata_files: tuple[str, ...] = ()
    by_quarto: bool = False  # rendered by Quarto: a `.qmd`, or any document of Quarto's tests

    @property
    def quarto(self) -> bool:
        """Whether Quarto renders the document (its project metadata and cross-references)."""
        return self.by_quarto or self.document.suffix.lower() == ".qmd"


@dataclass(frozen=True)
class Reading:
    """What one side read: the cited keys in order, the keys it calls undefined, and why it
    could not read the document (None when it could)."""

    keys: tuple[str, ...] = ()
    undefined: frozenset[str] = frozenset()
    failure: str | None = None


def toolchain_documents() -> list[dict[str, Any]]:
    """Every document of ../shared/corpus/toolchains, as docs.jsonl lists it."""
    lines = (TOOLCHAINS / "docs.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def toolchain_siblings() -> dict[str, str]:
    """The files beside the documents (bibliographies, CSL, metadata), by repository path."""
    siblings: dict[str, str] = json.loads((TOOLCHAINS / "sibs.json").read_text(encoding="utf-8"))
    return siblings


def _command_values(cmd: str, names: tuple[str, ...]) -> tuple[str, ...]:
    args = shlex.split(cmd)
    values: list[str] = []
    for index, arg in enumerate(args):
        for name in names:
            if arg == name and index + 1 < len(args):
                values.append(args[index + 1])
            elif arg.startswith(name + "="):
                values.append(arg[len(name) + 1 :])
    return tuple(values)


def _repository_bytes(text: str) -> bytes:
    """A sibling file's bytes as its repository holds them. A few were copied into sibs.json as
    their UTF-8 bytes read as Latin-1 (pandoc's biblio.bib: 'Ð¿Ñ\x83Ð½ÐºÑ\x823' for 'пункт3');
    those bytes are given back, as the repository has them."""
    try:
        raw = text.encode("latin-1")
        raw.decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return text.encode("utf-8")
    return raw


def lay_out(item: Mapping[str, Any], siblings: Mapping[str, str], root: Path) -> Layout:
    """Write one toolchain document and the files beside it under `root`, each at its path in
    its repository; pandoc's command tests run in `test/`, as pandoc's test suite runs them."""
    for name in item["sibs"]:
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_repository_bytes(siblings[name]))
    document = root / Path(item["src"]).parent / item["name"]
    document.parent.mkdir(parents=True, exist_ok=True)
    document.write_text(item["text"], encoding="utf-8")
    cmd = item.get("cmd") or ""
    if item["suite"] == "pandoc":
        return Layout(
            item["id"],
            document,
            root / "test",
            _command_values(cmd, ("--bibliography",)),
            _command_values(cmd, ("--metadata-file",)),
        )
    return Layout(item["id"], document, document.parent, by_quarto=True)


# Quarto's merge, from its source: a deep merge of maps in which a list on either side joins
# the other side's values (kept once, first first).
def quarto_merge(base: Any, over: Any) -> Any:
    """`over` merged into `base` as Quarto's `mergeConfigs` merges two configurations."""
    if isinstance(base, list) or isinstance(over, list):
        if not base:
            return over
        if over is None or over == [] or over == "":
            return base
        joined = (base if isinstance(base, list) else [base]) + (
            over if isinstance(over, list) else [over]
        )
        unique: list[Any] = []
        for value in joined:
            if value not in unique:
                unique.append(value)
        return unique
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            merged[key] = quarto_merge(merged.get(key), value) if key in merged else value
        return merged
    return base if over is None else over


def _yaml_file(path: Path) -> dict[str, Any]:
    try:
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _input_relative(base: Path, value: Any) -> Any:
    """Quarto's `toInputRelativePaths`: a relative string naming a file that exists under the
    layer's folder becomes that file (absolute here); anything else is kept."""
    if isinstance(value, dict):
        return {k: _input_relative(base, v) for k, v in value.items()}
    if isinstance(value, list):
        return [_input_relative(base, v) for v in value]
    if isinstance(value, str) and value and not Path(value).is_absolute():
        try:
            if (base / value).exists():
                return str((base / value).resolve())
        except (OSError, ValueError):
            return value
    return value


def _project_dir(document: Path, root: Path) -> Path | None:
    folder = document.parent
    while True:
        if (folder / "_quarto.yml").is_file() or (folder / "_quarto.yaml").is_file():
            return folder
        if folder == root or folder.parent == folder:
            return None
        folder = folder.parent


def _project_layers(document: Path, root: Path) -> list[dict[str, Any]]:
    project = _project_dir(document, root)
    if project is None:
        return []
    config_file = next(
        p for p in (project / "_quarto.yml", project / "_quarto.yaml") if p.is_file()
    )
    config = _yaml_file(config_file)
    includes = config.pop("metadata-files", None) or []
    for name in includes if isinstance(includes, list) else [includes]:
        config = quarto_merge(config, _yaml_file(project / str(name)))
    profile = os.environ.get("QUARTO_PROFILE") or ""
    default = config.pop("profile", {})
    if not profile and isinstance(default, dict):
        wanted = default.get("default")
        profile = ",".join(map(str, wanted)) if isinstance(wanted, list) else str(wanted or "")
    for name in reversed([p for p in profile.split(",") if p]):
        for suffix in (".yml", ".yaml"):
            if (project / f"_quarto-{name}{suffix}").is_file():
                config = quarto_merge(config, _yaml_file(project / f"_quarto-{name}{suffix}"))
                break
    layers = [_input_relative(project, config)]
    folder = project
    for part in document.parent.relative_to(project).parts:
        folder = folder / part
        for name in ("_metadata.yml", "_metadata.yaml"):
            if (folder / name).is_file():
                layers.append(_input_relative(folder, _yaml_file(folder / name)))
                break
    if (project / "_metadata.yml").is_file() and not document.parent.relative_to(project).parts:
        layers.append(_input_relative(project, _yaml_file(project / "_metadata.yml")))
    return layers


def _format_keys(level: Mapping[str, Any]) -> list[str]:
    fmt = level.get("format")
    if isinstance(fmt, str):
        return [fmt]
    return [str(k) for k in fmt] if isinstance(fmt, dict) else []


def _bibliographies(level: Mapping[str, Any], fmt: str | None) -> list[str]:
    own = level.get("bibliography")
    names = [own] if isinstance(own, str) else list(own or [])
    block = level.get("format")
    if fmt and isinstance(block, dict) and isinstance(block.get(fmt), dict):
        more = block[fmt].get("bibliography")
        names += [more] if isinstance(more, str) else list(more or [])
    return [str(n) for n in names]


def quarto_bibliographies(document: Path, front_matter: Mapping[str, Any], root: Path) -> list[str]:
    """The bibliographies `quarto render` hands pandoc for the document's first format: the
    project's, its folders', then the document's own, joined."""
    layers = _project_layers(document, root)
    if not layers:
        return []
    formats = _format_keys(front_matter) or [k for layer in layers[1:] for k in _format_keys(layer)]
    formats = formats or _format_keys(layers[0]) or ["html"]
    names: list[str] = []
    for level in [*layers, front_matter]:
        for name in _bibliographies(level, formats[0]):
            if name not in names:
                names.append(name)
    return names


def _knitted(layout: Layout, text: str) -> str:
    """The text knitr hands pandoc: every R Markdown file, and a Quarto file with R code (Quarto
    gives the others to Jupyter or reads them as they are)."""
    suffix = layout.document.suffix.lower()
    if (suffix == ".rmd" or (suffix == ".qmd" and _R_CODE.search(text))) and have_knitr():
        return knit(text, layout.document.parent)
    if suffix == ".qmd":
        # Quarto's engines take every executable cell (```{python}, ```{ojs}…): code, never
        # text. Written as a plain fence, every pandoc reads it as a code block (pandoc 2.x
        # does not take `{ojs}` for a fence's attributes and reads the cell as text).
        return _CELL_FENCE.sub(r"\g<fence>\g<lang>", text)
    return text


def _front_matter(text: str) -> dict[str, Any]:
    found = _FRONT.match(text)
    if found is None:
        return {}
    try:
        loaded = yaml.safe_load(found.group(1))
    except yaml.YAMLError:
        return {}
    return loaded if isinstance(loaded, dict) else {}


# The oracle's own files (a stand-in style, an empty bibliography): the corpus beside a layout is
# read-only. Removed when the process ends.
_SCRATCH = tempfile.TemporaryDirectory(prefix="citecheck-oracle-")


def _scratch() -> Path:
    """The folder of the oracle's own files."""
    return Path(_SCRATCH.name)


def _book(document: Path) -> str | None:
    """A bookdown book's merged text when `document` is its first file (bookdown's
    `source_files` and `merge_chapters`, read from bookdown's R source): `rmd_files` as listed,
    else the folder's (and `rmd_subdir`'s) `.Rmd` files not starting with `_`, by name, index
    first; each file, a blank line, `<!--chapter:end:FILE-->`, a blank line."""
    config_file = document.parent / "_bookdown.yml"
    if not config_file.is_file():
        return None
    config = _yaml_file(config_file)
    listed = config.get("rmd_files")
    if isinstance(listed, list):
        files = [document.parent / str(f) for f in listed]
    else:
        folders = [document.parent]
        subdirs = config.get("rmd_subdir")
        for sub in subdirs if isinstance(subdirs, list) else [subdirs] if subdirs else []:
            folders += [d for d in (document.parent / str(sub)).glob("**/") if d.is_dir()]
        names = sorted(
            str(f.relative_to(document.parent))
            for folder in folders
            for f in folder.iterdir()
            if f.suffix.lower() == ".rmd" and not f.name.startswith("_")
        )
        names = [n for n in names if n == "index.Rmd"] + [n for n in names if n != "index.Rmd"]
        files = [document.parent / n for n in names]
    if not files or files[0] != document:
        return None
    return "".join(
        f.read_text(encoding="utf-8").rstrip("\n") + f"\n\n<!--chapter:end:{f.name}-->\n\n"
        for f in files
        if f.is_file()
    )


def oracle(layout: Layout, root: Path) -> Reading:
    """pandoc's reading of the document after knitr, with the toolchain's bibliographies: its
    AST's keys, and the keys citeproc says it did not find. Bibliographies that are not on disk
    are left out (pandoc would stop; citecheck says so and goes on)."""
    book = _book(layout.document) if layout.document.suffix.lower() == ".rmd" else None
    text = _knitted(layout, book or layout.document.read_text(encoding="utf-8"))
    args = [pandoc_path(), "-f", "markdown", "--citeproc", "-t", "json"]
    args += [a for m in layout.metadata_files for a in ("--metadata-file", m)]
    front = _front_matter(text)
    names = quarto_bibliographies(layout.document, front, root) if layout.quarto else []
    named = list(layout.bibliographies) or names
    if not named:
        own = front.get("bibliography")
        named = [own] if isinstance(own, str) else [str(n) for n in own or []]
    readable = [n for n in named if (layout.cwd / n).is_file()]
    if readable or named:
        # Given on the command line, they replace the front matter's, as Quarto's merge does.
        empty = _scratch() / "no-entries.bib"
        empty.write_text("", encoding="utf-8")
        args += [a for n in readable or [str(empty)] for a in ("--bibliography", n)]
    style = front.get("csl")
    if isinstance(style, str) and not (layout.cwd / style).is_file():
        # A style the repository does not hold: any style lists the same entries.
        stand_in = _scratch() / "stand-in.csl"
        stand_in.write_text(toolchain_siblings()["test/command/apa.csl"], encoding="utf-8")
        args += ["--csl", str(stand_in)]
    cited = subprocess.run(
        [pandoc_path(), "-f", "markdown", "-t", "json"],
        input=text.encode("utf-8"),
        capture_output=True,
        cwd=layout.cwd,
        check=False,
    )
    done = subprocess.run(
        args, input=text.encode("utf-8"), capture_output=True, cwd=layout.cwd, check=False
    )
    stderr = done.stderr.decode("utf-8", "replace")
    if done.returncode != 0 or cited.returncode != 0:
        return Reading(failure=f"pandoc: {stderr.strip()[-300:]}")
    # The keys as pandoc reads them (citeproc rewrites what it renders).
    # Quarto's cross-references (`@fig-x`, and its custom kinds `@dino-x` for a `crossref:`
    # `custom:` kind `dino` in the project or the document) are resolved before citeproc runs.
    kinds = _custom_kinds(layout, front, root) if layout.quarto else set()

    def cites(key: str) -> bool:
        return not is_crossref(key) and key.split("-", 1)[0] not in kinds

    keys = tuple(k for k in ast_keys(json.loads(cited.stdout)) if cites(k))
    not_found = {k for k in _NOT_FOUND.findall(stderr) if cites(k)}
    return Reading(keys, frozenset(not_found))


def _custom_kinds(layout: Layout, front: Mapping[str, Any], root: Path) -> set[str]:
    """The `key` of every custom cross-reference kind the project or the document declares."""
    kinds = set()
    for level in [*_project_layers(layout.document, root), front]:
        crossref = level.get("crossref")
        custom = crossref.get("custom") if isinstance(crossref, dict) else None
        for kind in custom if isinstance(custom, list) else []:
            if isinstance(kind, dict) and kind.get("key"):
                kinds.add(str(kind["key"]))
    return kinds


def ours(layout: Layout) -> Reading:
    """What `citecheck check` reads of the same layout, run where the toolchain runs: its
    citations' keys and the keys it calls undefined (offline, no registries)."""
    from citecore.cli import main

    report = Path(tempfile.mkdtemp()) / "report.json"
    args = ["check", str(layout.document), "--no-verify", "-f", "json", "-o", str(report)]
    args += [a for b in layout.bibliographies for a in ("--bib", b)]
    args += [a for m in layout.metadata_files for a in ("--metadata-file", m)]
    before = Path.cwd()
    os.chdir(layout.cwd)
    try:
        main(args)
    except SystemExit:
        pass
    except Exception:  # a traceback is what the oracle reports
        return Reading(failure="traceback: " + traceback.format_exc(limit=-3))
    finally:
        os.chdir(before)
    if not report.is_file():
        return Reading(failure="no report")
    data = json.loads(report.read_text(encoding="utf-8"))
    shutil.rmtree(report.parent)
    keys = tuple(c["key"] for c in data["citations"])
    undefined = frozenset(
        f["key"] for f in data["findings"] if f["kind"] == "undefined" and f.get("key")
    )
    return Reading(keys, undefined)


def wild_layouts() -> list[Layout]:
    """Every document of ../shared/corpus/wild/markdown where it lies (read, never written)."""
    rows = (CORPUS / "wild" / "MANIFEST-markdown.tsv").read_text(encoding="utf-8").splitlines()
    documents = [
        CORPUS / "wild" / "markdown" / r.split("\t")[0] / r.split("\t")[1] for r in rows[1:]
    ]
    return [Layout(d.parent.name, d, d.parent) for d in documents]


def toolchain_layouts(root: Path) -> Iterator[tuple[Layout, Path]]:
    """Every toolchain document laid out in a folder of its own under `root`."""
    siblings = toolchain_siblings()
    for number, item in enumerate(toolchain_documents()):
        folder = root / f"doc{number:03d}"
        yield lay_out(item, siblings, folder), folder
