"""The LaTeX build path under real latexmk and pdflatex: hook, verdict file, notes, strict mode."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pymupdf
import pytest

from tests.conftest import requires_latex
from tests.paths import CASES, REPO

RC = REPO / "latexmk" / "citecheck.latexmkrc"
pytestmark = requires_latex


def latexmk(folder: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ)
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment['PATH']}"
    environment.update(env or {})
    return subprocess.run(
        ["latexmk", "-r", str(RC), "-pdf", "-interaction=nonstopmode", "main.tex"],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "paper"
    shutil.copytree(CASES / "latex-natbib", folder)
    main_tex = folder / "main.tex"
    main_tex.write_text(
        main_tex.read_text().replace(
            "\\usepackage[numbers]{natbib}",
            "\\usepackage[numbers]{natbib}\n\\usepackage{hyperref}\n\\usepackage[draft]{citecheck}",
        )
    )
    return folder


def test_build_writes_verdicts_and_margin_notes(project: Path) -> None:
    completed = latexmk(project)
    assert completed.returncode == 0, completed.stdout[-2000:]
    assert "citecheck: chapters/intro.tex:4: [undefined] ghost2020" in completed.stderr + (
        completed.stdout
    )
    verdicts = (project / "main.citecheck.tex").read_text()
    # Undefined at each of its citations: said of the citation, by its file, line and key.
    assert "\\citecheckCitation{intro.tex}{4}{ghost2020}{*}{error}" in verdicts
    log = (project / "main.log").read_text(errors="replace")
    assert "Package citecheck Warning: chapters/intro.tex:4: [undefined] ghost2020" in log
    assert "on input line 4." in log
    with pymupdf.open(project / "main.pdf") as pdf:
        page = pdf[0]
        notes = page.search_for("citecheck:")
        cited = page.search_for("a missing key is cited")
    assert notes and cited
    # The note sits in the right margin, level with the citing line.
    assert notes[0].x0 > cited[0].x1
    assert abs(notes[0].y0 - cited[0].y0) < 40


def test_each_problem_is_printed_once_per_latexmk_run(project: Path) -> None:
    """latexmk runs the hook after every bibtex run; the log says each problem once, and the
    offline run says what it did not check."""
    completed = latexmk(project)
    log = completed.stderr + completed.stdout
    assert log.count("[undefined] ghost2020: cited key is not in any bibliography") == 1, log
    assert "citecheck: offline: " in log and "were not checked against the registries" in log


def test_strict_mode_fails_with_one_line_per_problem(project: Path) -> None:
    completed = latexmk(project, {"CITECHECK_STRICT": "1"})
    assert completed.returncode != 0
    output = completed.stdout + completed.stderr
    assert "citecheck: chapters/intro.tex:4: [undefined] ghost2020" in output
    assert "citation problem(s) fail this build" in output


def test_a_clean_document_passes_strict_mode(project: Path) -> None:
    for name in ("chapters/intro.tex", "main.tex"):
        path = project / name
        path.write_text(path.read_text().replace("\\citep{ghost2020}", "\\citep{he2016deep}"))
    completed = latexmk(project, {"CITECHECK_STRICT": "1"})
    assert completed.returncode == 0, completed.stdout[-2000:]
    assert "\\citecheckVerdict" not in (project / "main.citecheck.tex").read_text()


def test_final_option_and_missing_verdict_file(project: Path) -> None:
    main_tex = project / "main.tex"
    main_tex.write_text(main_tex.read_text().replace("[draft]{citecheck}", "[final]{citecheck}"))
    assert latexmk(project).returncode == 0
    with pymupdf.open(project / "main.pdf") as pdf:
        assert not any(page.search_for("citecheck:") for page in pdf)
    # Without latexmk's hook there is no verdict file: plain pdflatex builds without error.
    (project / "main.citecheck.tex").unlink()
    environment = dict(os.environ, TEXINPUTS=f"{REPO / 'citecore' / 'latexmk'}//:")
    plain = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "main.tex"],
        cwd=project,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert plain.returncode == 0


def test_install_latex_copies_the_package(tmp_path: Path) -> None:
    from citecore.cli import main

    assert main(["install-latex", "--texmfhome", str(tmp_path)]) == 0
    assert (tmp_path / "tex" / "latex" / "citecheck" / "citecheck.sty").is_file()


def test_biblatex_example_with_multicite_and_two_columns(tmp_path: Path) -> None:
    folder = tmp_path / "biblatex"
    shutil.copytree(REPO / "examples" / "latex" / "biblatex", folder)
    (folder / "discussion.tex").write_text(
        (folder / "discussion.tex").read_text()
        + "A multicite with a missing key \\parencites[see][]{he2016deep}[cf.][]{nobody2019}.\n"
    )
    completed = latexmk(folder)
    assert completed.returncode == 0, completed.stdout[-2000:]
    with pymupdf.open(folder / "main.pdf") as pdf:
        text = " ".join(" ".join(page.get_text().split()) for page in pdf)
    text = re.sub(r"(\w)- ", r"\1", unicodedata.normalize("NFKC", text))  # ligatures, hyphens
    # Two undefined-key notes: the \parencite and the \parencites; one future-year note.
    # (the "fi" ligature of "undefined" has no text in the PDF's T1 font: match the rest)
    assert text.count("cited key is not in any bibliography]") == 2
    assert "citecheck: future_year: date 2031 is in the future" in text


def test_a_wheel_install_carries_the_latex_support(project: Path, tmp_path: Path) -> None:
    """`pip install .` (a wheel, not the editable checkout): `install-latex` finds citecheck.sty
    inside the installed package, and the rc file it names runs the hook in a real build."""
    wheels = tmp_path / "wheels"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(wheels), str(REPO)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-2000:]
    target = tmp_path / "installed"
    installed = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q",
         "--target", str(target), *map(str, wheels.glob("citecore-*.whl"))],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr[-2000:]
    # `python -S -P` reads no .pth file and not the working folder, so the checkout cannot
    # shadow the installed copy; the dependencies come from site-packages itself.
    site_packages = [p for p in sys.path if p.endswith("site-packages")]
    command = tmp_path / "citecheck"
    command.write_text(
        f"#!/bin/sh\nPYTHONPATH={os.pathsep.join([str(target), *site_packages])} exec "
        f"{sys.executable} -S -P -c 'import sys; from citecore.cli import main; sys.exit(main())' "
        '"$@"\n'
    )
    command.chmod(0o755)
    where = subprocess.run(
        [str(command), "install-latex", "--texmfhome", str(tmp_path / "texmf")],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert where.returncode == 0, where.stderr
    assert (tmp_path / "texmf" / "tex" / "latex" / "citecheck" / "citecheck.sty").is_file()
    rc = re.search(r"latexmk -r (\S+)", where.stderr)
    assert rc is not None and rc.group(1).startswith(str(target)), where.stderr
    build = subprocess.run(
        ["latexmk", "-r", rc.group(1), "-pdf", "-interaction=nonstopmode", "main.tex"],
        cwd=project,
        env={**os.environ, "CITECHECK_COMMAND": str(command)},
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert build.returncode == 0, build.stdout[-2000:]
    assert (
        "\\citecheckCitation{intro.tex}{4}{ghost2020}{*}{error}"
        in (project / "main.citecheck.tex").read_text()
    )
