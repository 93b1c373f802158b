"""What LaTeX itself recorded as cited: `\\citation` lines in `.aux` files (BibTeX) and
`<bcf:citekey>` elements in the `.bcf` control file (biblatex/biber). The truth against which
source extraction is cross-checked."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

_CITATION = re.compile(r"\\citation\{([^}]*)\}")
_INPUT = re.compile(r"\\@input\{([^}]*)\}")
_BCF = "{https://sourceforge.net/projects/biblatex}"
# biblatex with `backend=bibtex` cites its own control entry in the .aux (blx-bibtex.def):
# nobody's citation.
_BIBLATEX_CONTROL = "biblatex-control"


def aux_keys(path: Path) -> set[str]:
    """Keys of every `\\citation` in an .aux file and the .aux files it `\\@input`s (`*` kept:
    it is `\\nocite{*}`; biblatex's own control entry left out)."""
    keys: set[str] = set()
    seen: set[Path] = set()
    pending = [path]
    while pending:
        current = pending.pop()
        if current in seen or not current.is_file():
            continue
        seen.add(current)
        text = current.read_text(encoding="utf-8", errors="replace")
        for match in _CITATION.finditer(text):
            keys.update(k.strip() for k in match.group(1).split(",") if k.strip())
        keys.discard(_BIBLATEX_CONTROL)
        pending.extend(current.parent / name for name in _INPUT.findall(text))
    return keys


def bcf_keys(path: Path) -> set[str]:
    """Keys biblatex recorded in its .bcf control file (none from a file that is not XML: a run
    of LaTeX that stopped half-way leaves one, and the cross-check is then skipped)."""
    try:
        root = ElementTree.parse(path).getroot()
    except (ElementTree.ParseError, OSError, ValueError):
        return set()
    return {
        (element.text or "").strip()
        for element in root.iter(f"{_BCF}citekey")
        if (element.text or "").strip()
    }
