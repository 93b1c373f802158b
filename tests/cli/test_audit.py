"""`citecheck audit`: which cited keys have no source file grounding could read — before any
network or model is asked. A key counts as having one when its entry's `file` field names a
readable file (beside the bibliography, as Zotero and JabRef write it) or the sources folder
holds `<key>.pdf|.md|.txt`. The keys without one go to stdout, one a line (for a script), the
tally to stderr; exit 1 while any is missing."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecore.cli import main

BIB = """@article{filed2020, title = {Filed}, author = {Doe, J.}, year = 2020,
  file = {pdfs/filed.pdf}}
@article{zotero2021, title = {Zotero}, author = {Roe, R.}, year = 2021,
  file = {Full Text:storage/ABCD1234/zotero.pdf:application/pdf}}
@article{folder2019, title = {In the folder}, author = {Poe, P.}, year = 2019}
@article{nothing2018, title = {Nothing to read}, author = {Moe, M.}, year = 2018}
@article{gonefile2017, title = {A file field to nowhere}, author = {Loe, L.}, year = 2017,
  file = {pdfs/absent.pdf}}
"""


def _project(root: Path) -> Path:
    (root / "refs.bib").write_text(BIB)
    (root / "pdfs").mkdir()
    (root / "pdfs" / "filed.pdf").write_bytes(b"%PDF-1.4\n")
    (root / "storage" / "ABCD1234").mkdir(parents=True)
    (root / "storage" / "ABCD1234" / "zotero.pdf").write_bytes(b"%PDF-1.4\n")
    (root / "sources").mkdir()
    (root / "sources" / "folder2019.md").write_text("# In the folder\n\nText.\n")
    paper = root / "paper.md"
    paper.write_text(
        "---\nbibliography: refs.bib\n---\n\n"
        "One [@filed2020]. Two [@zotero2021]. Three [@folder2019].\n"
        "Four [@nothing2018]. Five [@gonefile2017]. Six [@undefined2016]. Again [@nothing2018].\n"
    )
    return paper


def test_the_keys_without_a_source_are_listed_once_in_citing_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = _project(tmp_path)
    status = main(["audit", str(paper)])
    out, err = capsys.readouterr()
    assert status == 1
    assert out.splitlines() == ["nothing2018", "gonefile2017", "undefined2016"]
    assert err.strip() == (
        f"citecheck: 3/6 cited keys have a readable source; citecheck sources fetch {paper} "
        "looks for them"
    )


def test_a_project_where_every_key_has_a_source_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = _project(tmp_path)
    for key in ("nothing2018", "gonefile2017"):
        (tmp_path / "sources" / f"{key}.pdf").write_bytes(b"%PDF-1.4\n")
    text = paper.read_text().replace(" Six [@undefined2016].", "")
    paper.write_text(text)
    assert main(["audit", str(paper)]) == 0
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == "citecheck: 5/5 cited keys have a readable source"


def test_another_sources_folder_is_looked_in_when_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = _project(tmp_path)
    elsewhere = tmp_path / "library"
    elsewhere.mkdir()
    (elsewhere / "nothing2018.txt").write_text("The text of the work.\n")
    main(["audit", str(paper), "--sources", str(elsewhere)])
    out = capsys.readouterr().out.splitlines()
    assert "nothing2018" not in out
    assert "folder2019" in out  # the default folder is not read when another is named


def test_a_latex_project_is_audited_from_its_main_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(tmp_path)
    (tmp_path / "chapter.tex").write_text("Cited in a chapter \\cite{nothing2018}.\n")
    main_tex = tmp_path / "main.tex"
    main_tex.write_text(
        "\\documentclass{article}\\begin{document}\nOne \\cite{filed2020}.\n\\input{chapter}\n"
        "\\bibliographystyle{plain}\\bibliography{refs}\\end{document}\n"
    )
    assert main(["audit", str(main_tex)]) == 1
    assert capsys.readouterr().out.splitlines() == ["nothing2018"]


def test_the_audit_asks_no_registry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import citecore.verify.registry as registry

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("audit asked the registries")

    monkeypatch.setattr(registry, "registry_verifier", refuse)
    main(["audit", str(_project(tmp_path))])
    assert "cited keys have a readable source" in capsys.readouterr().err
