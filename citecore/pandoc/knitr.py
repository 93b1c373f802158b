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
"""

from __future__ import annotations

import re
from pathlib import Path

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
    return _INLINE_CODE.sub(lambda m: _blank(m.group(0)), "".join(out))


def as_knitr_reads(path: str | Path, text: str) -> str:
    """A Markdown source's text as pandoc is to read it: chunks blanked for R Markdown and
    Quarto files (`blank_chunks`), any other file unchanged."""
    return blank_chunks(text) if is_knitr_source(path) else text
