"""What LaTeX itself recorded as cited: `\\citation` lines in `.aux` files (BibTeX) and
`<bcf:citekey>` elements in the `.bcf` control file (biblatex/biber). The truth against which
source extraction is cross-checked."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from citecore.files import is_file

_CITATION = re.compile(r"\\citation\{([^}]*)\}")
_INPUT = re.compile(r"\\@input\{([^}]*)\}")
_BCF = "{https://sourceforge.net/projects/biblatex}"
# Keys a class or package writes to the .aux for itself, nobody's citation: biblatex's control
# entry with `backend=bibtex` (blx-bibtex.def); REVTeX's control entries (`REVTEX42Control` and
# the journal's, `aip41Control`) and the bibliography notes it makes of footnotes (`Note1`, …);
# IEEEtran's control entry (`\\bstctlcite{IEEEexample:BSTcontrol}`).
_GENERATED = re.compile(
    r"^(?:biblatex-control|[A-Za-z]+\d{2}Control|Note\d+|IEEEexample:BSTcontrol)$"
)


def class_generated(key: str) -> bool:
    """Whether a key in the .aux is one a class or package wrote for itself (a control entry,
    REVTeX's footnote notes), not a writer's citation."""
    return bool(_GENERATED.match(key))


def aux_keys(path: Path) -> set[str]:
    """Keys of every `\\citation` in an .aux file and the .aux files it `\\@input`s (`*` kept:
    it is `\\nocite{*}`; the keys classes write for themselves left out: `class_generated`)."""
    keys: set[str] = set()
    seen: set[Path] = set()
    pending = [path]
    while pending:
        current = pending.pop()
        if current in seen or not is_file(current):
            continue
        seen.add(current)
        text = current.read_text(encoding="utf-8", errors="replace")
        for match in _CITATION.finditer(text):
            keys.update(
                k.strip()
                for k in match.group(1).split(",")
                if k.strip() and not class_generated(k.strip())
            )
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
