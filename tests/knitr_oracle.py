"""The oracle for R Markdown and Quarto: real knitr (Debian's r-cran-knitr), evaluation off,
then pandoc's AST — what `rmarkdown::render` and `quarto render` hand to pandoc, less the
values of code that is not run here."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from tempfile import TemporaryDirectory

# Chunks are echoed (not run, even where a chunk says `eval = TRUE`), inline code gives nothing;
# hooks are knitr's Markdown ones (the ones rmarkdown and Quarto set), whatever the suffix.
_KNIT = """
args <- commandArgs(TRUE)
`$.citecheck_unrun` <- function(x, name) FALSE
for (name in args[-(1:2)]) {
  assign(name, structure(FALSE, class = "citecheck_unrun"), envir = globalenv())
}
knitr::opts_chunk$set(eval = FALSE, python.reticulate = FALSE)
knitr::opts_hooks$set(eval = function(options) { options$eval <- FALSE; options },
                      cache = function(options) { options$cache <- FALSE; options })
knitr::render_markdown()
knitr::opts_knit$set(out.format = "markdown")
knitr::knit_hooks$set(evaluate.inline = function(code, envir) "")
invisible(knitr::knit(args[1], args[2], quiet = TRUE, envir = globalenv()))
"""
_MISSING_OBJECT = re.compile(r"object '([^']+)' not found")


def have_knitr() -> bool:
    """True when Rscript and the knitr package are installed."""
    if shutil.which("Rscript") is None:
        return False
    found = subprocess.run(
        ["Rscript", "-e", "cat(requireNamespace('knitr', quietly = TRUE))"],
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.strip() == "TRUE"


def knit(text: str, folder: Path) -> str:
    """The Markdown knitr writes for an R Markdown/Quarto text (run in a copy of `folder`, the
    document's own, for child documents: knitr writes `cache/` and figure folders where it runs,
    and the corpus is read-only). A chunk option that names an object the unrun code would have
    made (`eval = run`, `eval = run$figures`) gets it as FALSE (its fields too): without it
    knitr can read no further."""
    missing: list[str] = []
    with TemporaryDirectory() as work, TemporaryDirectory() as copy:
        folder = Path(shutil.copytree(folder, Path(copy, folder.name), symlinks=True))
        source, output = Path(work, "in.Rmd"), Path(work, "out.md")
        source.write_text(text, encoding="utf-8")
        for _ in range(10):
            done = subprocess.run(
                ["Rscript", "-e", _KNIT, str(source), str(output), *missing],
                cwd=folder,
                capture_output=True,
                text=True,
                check=False,
                timeout=300,
            )
            if done.returncode == 0:
                return output.read_text(encoding="utf-8")
            absent = _MISSING_OBJECT.search(done.stderr)
            if absent is None or absent.group(1) in missing:
                break
            missing.append(absent.group(1))
        raise RuntimeError(f"knitr could not knit it: {done.stderr.strip()[-400:]}")
