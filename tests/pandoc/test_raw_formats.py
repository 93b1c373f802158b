"""A raw block or inline of any format pandoc accepts — every output format `pandoc
--list-output-formats` prints, and a name it has never heard of — passes through citecheck
untouched: the document is read (panflute's own list of raw formats does not stop it), written
back as it came, checked by `check` and by the filter."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.pandoc.document import dump_document, load_document
from citecore.pandoc.reader import pandoc_path
from tests.conftest import run_pandoc
from tests.pandoc_json import pandoc_json


def _formats() -> list[str]:
    listed = subprocess.run(
        [pandoc_path(), "--list-output-formats"], capture_output=True, text=True, check=True
    ).stdout.split()
    return [*listed, "html5", "typst", "an-unknown-format"]


def _document(fmt: str) -> str:
    return (
        "---\nreferences:\n- id: a\n  title: A\n---\n\nA claim [@a].\n\n"
        f"```{{={fmt}}}\nraw block of {fmt}\n```\n\nInline `raw {fmt}`{{={fmt}}} here [@ghost].\n"
    )


def _raw(node: object) -> list[tuple[str, str, str]]:
    """Every raw element of a JSON AST: (type, format, text)."""
    found = []
    if isinstance(node, dict):
        if node.get("t") in ("RawBlock", "RawInline"):
            fmt, text = node["c"]
            found.append((node["t"], fmt, text))
        for value in node.values():
            found += _raw(value)
    elif isinstance(node, list):
        for value in node:
            found += _raw(value)
    return found


@pytest.mark.parametrize("fmt", _formats())
def test_a_raw_element_of_any_format_is_read_and_written_back_untouched(fmt: str) -> None:
    given = pandoc_json(_document(fmt))
    raw = _raw(json.loads(given))
    assert {r[1] for r in raw} == {fmt}
    assert _raw(json.loads(dump_document(load_document(given)))) == raw


@pytest.mark.parametrize("fmt", _formats())
def test_check_reports_a_document_with_a_raw_element_of_any_format(
    fmt: str, tmp_path: Path
) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text(_document(fmt), encoding="utf-8")
    out = tmp_path / "report.json"
    main(["check", str(doc), "--no-verify", "-o", str(out)])
    findings = json.loads(out.read_text(encoding="utf-8"))["findings"]
    assert [f["key"] for f in findings if f["kind"] == "undefined"] == ["ghost"]


@pytest.mark.parametrize("fmt", ["typst", "html5", "asciidoc", "an-unknown-format"])
def test_the_filter_passes_a_raw_element_of_any_format_through(fmt: str, tmp_path: Path) -> None:
    (tmp_path / "doc.md").write_text(_document(fmt), encoding="utf-8")
    done = run_pandoc("doc.md", "--filter", "citecheck", "-t", "json", cwd=tmp_path)
    assert "not a pandoc JSON document" not in done.stderr
    assert "[undefined] ghost" in done.stderr  # checked, not passed over
    assert _raw(json.loads(done.stdout)) == _raw(json.loads(pandoc_json(_document(fmt))))
