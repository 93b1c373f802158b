"""citecheck inside a writer's own panflute filter: the filter hands citecheck the `panflute.Doc`
it holds, under the real pandoc, and gets the document checked and annotated in place, its own
changes kept."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from tests.conftest import CASES, run_pandoc

# A writer's filter: its own work (here the title in capitals, and emphasis made strong), then
# citecheck on the same Doc once the walk is done.
WRITERS_FILTER = """
import panflute as pf
from citecore.filter.process import main as citecheck


def prepare(doc):
    title = doc.get_metadata("title")
    doc.metadata["title"] = pf.MetaInlines(pf.Str(title.upper()))


def strong(element, doc):
    if isinstance(element, pf.Emph):
        return pf.Strong(*element.content)


def finalize(doc):
    citecheck(doc, [doc.format])


pf.run_filter(strong, prepare=prepare, finalize=finalize)
"""


def _writers_filter(folder: Path) -> Path:
    script = folder / "mine.py"
    script.write_text(f"#!{sys.executable}\n{WRITERS_FILTER}", encoding="utf-8")
    script.chmod(0o755)
    return script


def test_a_writers_panflute_filter_checks_its_doc_with_citecheck(tmp_path: Path) -> None:
    for name in ("paper.md", "refs.bib"):
        shutil.copy(CASES / "problems" / name, tmp_path / name)
    filter_script = _writers_filter(tmp_path)
    built = run_pandoc("paper.md", "--filter", str(filter_script), "-s", "-t", "html", cwd=tmp_path)
    assert "[WARNING] citecheck" in built.stderr  # citecheck's warnings, from inside the filter
    assert 'class="citecheck ' in built.stdout  # its annotations, on the writer's Doc
    assert "<title>A PAPER WITH PROBLEMS</title>" in built.stdout  # the writer's change kept
