"""Which Markdown files pandoc is reading, seen from inside a JSON filter.

Pandoc tells a JSON filter the output format but not the input files, and citecheck needs them to
give each citation a line number. `CITECHECK_SOURCE` names them explicitly (the Quarto shim sets
it); otherwise, on systems with /proc, the filter reads its parent pandoc's command line.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

# The suffixes of files pandoc reads as Markdown (R Markdown and Quarto included). Here, not in
# the reader: a build's first steps need the table, not the reader's subprocess machinery.
MARKDOWN_SUFFIXES = {".md", ".markdown", ".qmd", ".rmd", ".txt", ".mdown", ".mkd", ".pandoc"}

# Pandoc options whose value is the next argument (the `--opt=value` form needs no entry); the
# tests hold this list to `pandoc --help` of the pandoc installed.
_TAKES_VALUE = frozenset(
    """-f -r --from --read -t -w --to --write -o --output --data-dir -M --metadata
    --metadata-file -d --defaults -V --variable --template -H --include-in-header
    -B --include-before-body -A --include-after-body --css -c --reference-doc --pdf-engine
    --pdf-engine-opt --highlight-style --syntax-definition --dpi --columns --tab-stop
    --shift-heading-level-by --base-header-level --abbreviations --indented-code-classes
    --default-image-extension --extract-media --number-offset --top-level-division
    --email-obfuscation --id-prefix --title-prefix -T --epub-cover-image --epub-metadata
    --epub-embed-font --epub-subdirectory --split-level --epub-chapter-level --chunk-template
    --request-header --log --wrap --toc-depth --eol --track-changes --reference-location
    --markdown-headings --ipynb-output --slide-level --bibliography --csl
    --citation-abbreviations -F --filter -L --lua-filter --resource-path --variable-json
    --syntax-highlighting --figure-caption-position --table-caption-position -D
    --print-default-template --print-default-data-file --print-highlight-style""".split()
)


def positional_arguments(args: Sequence[str]) -> list[str]:
    """Pandoc's positional arguments (its input files), options and their values removed."""
    positional = []
    skip = options_ended = False
    for arg in args:
        if skip:
            skip = False
        elif options_ended:
            positional.append(arg)
        elif arg == "--":  # everything after it is a file, whatever its name
            options_ended = True
        elif arg.startswith("-") and arg != "-":
            skip = arg in _TAKES_VALUE
        else:
            positional.append(arg)
    return positional


def _parent_arguments() -> list[str]:
    try:
        raw = Path(f"/proc/{os.getppid()}/cmdline").read_bytes()
    except OSError:
        return []
    args = [a.decode("utf-8", "replace") for a in raw.split(b"\0") if a]
    if not args or "pandoc" not in Path(args[0]).name:
        return []
    return args[1:]


def pandoc_input_files() -> list[str]:
    """The Markdown files the running pandoc reads: `$CITECHECK_SOURCE` (separated by the path
    separator), else the parent pandoc's positional arguments that are Markdown files."""
    configured = os.environ.get("CITECHECK_SOURCE")
    if configured:
        return [p for p in configured.split(os.pathsep) if p]
    candidates = positional_arguments(_parent_arguments())
    return [
        c for c in candidates if Path(c).suffix.lower() in MARKDOWN_SUFFIXES and Path(c).is_file()
    ]
