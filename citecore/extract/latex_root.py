"""Which main file a `.tex` file belongs to: what an editor or a pre-commit hook must know to
check a chapter, since only the main file names the bibliography and the citation package.

In the order editors and latexmk use: a `% !TEX root = …` line near the top of the file; the
file itself when it has `\\documentclass`; `@default_files` of a `latexmkrc` in the folder or
above it; else every main file of the workspace whose project includes the file.
"""

from __future__ import annotations

import re
from pathlib import Path

from citecore.errors import CitecheckError
from citecore.extract.latex import extract_latex
from citecore.files import is_file

_MAGIC_ROOT = re.compile(r"^\s*%\s*!\s*TEX\s+root\s*=\s*(.+?)\s*$", re.IGNORECASE | re.MULTILINE)
_DOCUMENTCLASS = re.compile(r"^[^%\n]*\\documentclass\b", re.MULTILINE)
_DEFAULT_FILES = re.compile(r"@default_files\s*=\s*\(([^)]*)\)")
_RC_NAMES = ("latexmkrc", ".latexmkrc")
# How far up a workspace is searched for main files (monorepos hold many projects).
_MAX_MAIN_CANDIDATES = 200


def _head(path: Path, size: int = 4096) -> str:
    try:
        with path.open(encoding="utf-8", errors="replace") as stream:
            return stream.read(size)
    except OSError:
        return ""


def is_main_file(path: Path) -> bool:
    """True when the file starts a LaTeX document (`\\documentclass` outside a comment)."""
    return bool(_DOCUMENTCLASS.search(_head(path, 65536)))


def _magic_root(path: Path) -> Path | None:
    # TeXShop, TeXstudio, VS Code LaTeX Workshop and vimtex read it from the first lines.
    match = _MAGIC_ROOT.search("\n".join(_head(path).splitlines()[:20]))
    if match is None:
        return None
    root = (path.parent / match.group(1).strip().strip("\"'")).resolve()
    return root if root.suffix else root.with_suffix(".tex")


def _latexmkrc_mains(path: Path, workspace: Path) -> list[Path]:
    for folder in [path.parent, *path.parent.parents]:
        for name in _RC_NAMES:
            rc = folder / name
            if rc.is_file():
                match = _DEFAULT_FILES.search(rc.read_text(encoding="utf-8", errors="replace"))
                if match:
                    names = re.findall(r"['\"]([^'\"]+)['\"]", match.group(1))
                    return [(folder / n).resolve() for n in names if is_file(folder / n)]
        if folder == workspace:
            break
    return []


def main_files_for(path: Path, workspace: Path | None = None) -> list[Path]:
    """The main files a `.tex` file is part of (itself when it is one); [] when none is found.
    `workspace` bounds the search upwards (the file's folder by default)."""
    path = path.resolve()
    workspace = (workspace or path.parent).resolve()
    magic = _magic_root(path)
    if magic is not None and magic.is_file():
        return [magic]
    if is_main_file(path):
        return [path]
    from_rc = _latexmkrc_mains(path, workspace)
    if from_rc:
        return from_rc
    mains = []
    candidates = sorted(p for p in workspace.rglob("*.tex") if p != path)
    for candidate in candidates[:_MAX_MAIN_CANDIDATES]:
        if not is_main_file(candidate):
            continue
        try:
            files = {f.resolve() for f in extract_latex(candidate).files}
        except CitecheckError:  # another project's broken main file is not this file's
            continue
        if path in files:
            mains.append(candidate.resolve())
    return mains
