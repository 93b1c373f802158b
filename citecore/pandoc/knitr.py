"""R Markdown and Quarto sources as knitr reads them, before pandoc does.

`rmarkdown::render` and `quarto render` run knitr first: an executable chunk (a fence of three or
more backticks, indented or inside a list or block quote, then `{r}`, `{r label, opt = …}`,
`{python}`, `{ojs}` …) becomes its output, and inline code (`` `r expr` ``, Quarto's
`` `{r} expr` ``/`` `{python} expr` ``) becomes its value. Read raw, pandoc sees neither rule: a
chunk header it cannot take for a fence's attributes (`{r, echo=FALSE}`) leaves the chunk as text
whose closing fence then opens a code block that swallows the prose after it.

`blank_chunks` applies knitr's own patterns (`knitr::all_patterns$md`) and blanks every chunk and
every inline code span, with evaluation off, as `knitr::knit` with `eval = FALSE` and no inline
values would leave them: nothing of them is text. Every line and every offset stays where it was,
so line numbers remain those of the source.

In the YAML front matter an inline code span inside a quoted scalar (RStudio's template writes
`date: "`r Sys.Date()`"`) is kept: it is valid YAML as it stands and pandoc reads it as code, while
the same quotes around nothing but spaces stop pandoc 2.x (Debian's, which rmarkdown brings) from
reading the front matter at all — every field, the bibliography with it. Unquoted, the span is
no YAML, so it is blanked to a null value, as knitr's value would have replaced it.
"""

from __future__ import annotations

import re
from pathlib import Path

from citecore.pandoc.front_matter import FRONT_MATTER

# knitr's chunk patterns for Markdown (knitr::all_patterns$md), in Python's regex dialect.
_CHUNK_BEGIN = re.compile(r"^(?P<prefix>[\t >]*)```+\s*\{[a-zA-Z0-9_]+(?: *[ ,].*)?\}\s*$")
_CHUNK_END = re.compile(r"^(?P<prefix>[\t >]*)```+\s*$")
# knitr's inline code (`r expr`, not after a line's opening ``), and Quarto's `{r} expr`.
_INLINE_CODE = re.compile(r"(?<!^``)(?<!\n``)`r[ #][^`]+`|`\{[a-zA-Z0-9_]+\}[ \t][^`]+`")

KNITR_SUFFIXES = (".rmd", ".qmd", ".rmarkdown")


def is_knitr_source(path: str | Path) -> bool:
    """True for an R Markdown or Quarto file, which knitr reads before pandoc."""
    return Path(path).suffix.lower() in KNITR_SUFFIXES


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def _quoted_scalar(line: str) -> tuple[int, int] | None:
    """Where a YAML line's quoted scalar value stands (from its opening quote to its closing
    one, or to the line's end when it goes on), after `key:` or a list's `- `."""
    value = re.match(r"[ \t]*(?:-[ \t]+)*(?:[^\s\"'#][^:#]*:[ \t]+)?(?:-[ \t]+)*", line)
    start = value.end() if value else 0
    if start >= len(line) or line[start] not in "\"'":
        return None
    quote = line[start]
    index = start + 1
    while index < len(line):
        if quote == '"' and line[index] == "\\":
            index += 2
            continue
        if line[index] == quote:
            if quote == "'" and line[index + 1 : index + 2] == "'":
                index += 2  # '' is a quote inside single quotes
                continue
            return start, index + 1
        index += 1
    return start, len(line)


def _blank_front_matter_code(text: str) -> str:
    """The front matter with its inline code blanked where it stands unquoted (see above)."""
    matter = FRONT_MATTER.match(text)
    if matter is None:
        return text
    out: list[str] = []
    for line in matter.group(1).split("\n"):
        quoted = _quoted_scalar(line)

        def blank(found: re.Match[str], quoted: tuple[int, int] | None = quoted) -> str:
            inside = quoted is not None and quoted[0] < found.start() < quoted[1]
            return found.group(0) if inside else _blank(found.group(0))

        out.append(_INLINE_CODE.sub(blank, line))
    return text[: matter.start(1)] + "\n".join(out) + text[matter.end(1) :]


def blank_chunks(text: str) -> str:
    """The text with every executable chunk (fences included) and every inline code span
    replaced by spaces, a chunk line's list or block-quote prefix (`[\\t >]*`) kept; same length,
    same lines. A chunk whose closing fence never comes runs to the end, as in knitr."""
    lines = text.splitlines(keepends=True)
    out: list[str] = []
    in_chunk = False
    for line in lines:
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        if not in_chunk and (begin := _CHUNK_BEGIN.match(body)):
            in_chunk = True
            prefix = begin["prefix"]
            out.append(prefix + " " * (len(body) - len(prefix)) + ending)
            continue
        if in_chunk:
            end = _CHUNK_END.match(body)
            prefix = body[: len(body) - len(body.lstrip("\t >"))]
            out.append(prefix + " " * (len(body) - len(prefix)) + ending)
            in_chunk = end is None
            continue
        out.append(line)
    knitted = _blank_front_matter_code("".join(out))
    matter = FRONT_MATTER.match(knitted)
    body_start = matter.end(1) if matter else 0
    body = _INLINE_CODE.sub(lambda m: _blank(m.group(0)), knitted[body_start:])
    return knitted[:body_start] + body


def as_knitr_reads(path: str | Path, text: str) -> str:
    """A Markdown source's text as pandoc is to read it: chunks blanked for R Markdown and
    Quarto files (`blank_chunks`), any other file unchanged."""
    return blank_chunks(text) if is_knitr_source(path) else text
