"""Every finding a document or bibliography can give without a network, each from the smallest
input that shows it, reported where the writer must look (file and line) with its key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecore.cli import main

CLEAN = (
    "@article{good, title = {A Sound Entry}, author = {Doe, Jane}, year = 2020, journal = {J}}\n"
)

OTHER = CLEAN.replace("good", "good2").replace("A Sound", "Another")


def _findings(tmp_path: Path, markdown: str, bib: str, *flags: str) -> set[tuple[str, str, str]]:
    (tmp_path / "paper.md").write_text("---\nbibliography: refs.bib\n---\n\n" + markdown)
    (tmp_path / "refs.bib").write_text(bib)
    report = tmp_path / "report.json"
    argv = ["check", str(tmp_path / "paper.md"), "--no-verify", "-q", "-o", str(report)]
    assert main([*argv, *flags]) in {0, 1}
    data = json.loads(report.read_text())
    return {
        (f["kind"], f["key"] or "", f"{Path(f['file']).name}:{f['line']}" if f["file"] else "")
        for f in data["findings"]
    }


@pytest.mark.parametrize(
    ("markdown", "bib", "flags", "expected"),
    [
        ("A claim [@ghost].\n", CLEAN, (),
         {("undefined", "ghost", "paper.md:5"), ("unused", "good", "refs.bib:1")}),
        ("A claim [@good].\n", CLEAN + CLEAN.replace("A Sound", "Another"), (),
         {("duplicate_key", "good", "refs.bib:2")}),
        ("A claim [@good].\n", CLEAN + "@article{broken, title = {Open\n", (),
         {("unparsed", "broken", "refs.bib:2")}),
        ("A claim [@good; @twin].\n",
         CLEAN.replace("journal", "doi = {10.1000/x}, journal")
         + CLEAN.replace("good", "twin").replace("journal", "doi = {10.1000/X}, journal"), (),
         {("duplicate_entry", "twin", "refs.bib:2")}),
        ("A claim [@good].\n", CLEAN.replace("2020", "{20x0}"), (),
         {("bad_year", "good", "refs.bib:1")}),
        ("A claim [@good].\n", CLEAN.replace("2020", "2999"), (),
         {("future_year", "good", "refs.bib:1")}),
        ("A claim [@good].\n", CLEAN.replace("journal", "doi = {10.12/x}, journal"), (),
         {("malformed_id", "good", "refs.bib:1")}),
        ("A claim [@good].\n", CLEAN.replace("title = {A Sound Entry}, ", ""), (),
         {("no_title", "good", "refs.bib:1")}),
        ("Nothing cited.\n", CLEAN, (), {("unused", "good", "refs.bib:1")}),
        ("Joined keys [@good,@good2].\n", CLEAN + OTHER, (),
         {("comma_separated_keys", "good2", "paper.md:5")}),
        ("A claim [@good].\n", CLEAN, ("--cutoff", "2019"), {("cutoff", "good", "paper.md:5")}),
        ("A claim [@good].\n", CLEAN, (), set()),
    ],
    ids=["undefined", "duplicate_key", "unparsed", "duplicate_entry", "bad_year", "future_year",
         "malformed_id", "no_title", "unused", "comma_separated_keys", "cutoff", "clean"],
)  # fmt: skip
def test_each_finding_where_the_writer_must_look(
    tmp_path: Path,
    markdown: str,
    bib: str,
    flags: tuple[str, ...],
    expected: set[tuple[str, str, str]],
) -> None:
    found = _findings(tmp_path, markdown, bib, *flags)
    # Entry problems are also reported at each citation of the key; only the entry's are named.
    assert expected <= found
    unexpected = {f for f in found - expected if f[0] not in {k for k, _, _ in expected}}
    assert unexpected == set()
