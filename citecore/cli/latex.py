"""`citecheck latexmk-hook` (run by latexmk after bibtex/biber) and `citecheck install-latex`."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from importlib.resources import as_file, files
from pathlib import Path

from citecore.annotate.latex_verdicts import render_verdicts
from citecore.api import check_latex_file
from citecore.cli.flags import Commands, cli_layer, option_flags
from citecore.errors import CitecheckError
from citecore.options import resolve_options
from citecore.policy import exit_status
from citecore.report.build_log import LogStyle, build_log
from citecore.verify.registry import registry_verifier

# The LaTeX package and the latexmk rc file ship inside citecore (the repository's latexmk/
# rc file loads them from there), so a wheel install has them too.
LATEX_SUPPORT = files("citecore") / "latexmk"


def register(commands: Commands) -> None:
    """Add `latexmk-hook` and `install-latex`."""
    hook = commands.add_parser(
        "latexmk-hook", help="run by latexmk after bibtex/biber (see latexmk/citecheck.latexmkrc)"
    )
    hook.add_argument("main", type=Path, help="the main .tex (or its .aux)")
    option_flags(hook, "strict", says={"strict": "fail the build on error-level findings"})
    hook.add_argument(
        "--session",
        default="",
        metavar="ID",
        help="latexmk's process id: lines already printed in this latexmk run are not repeated",
    )
    hook.set_defaults(run=run_hook)
    install = commands.add_parser(
        "install-latex",
        help="copy citecheck.sty into TEXMFHOME (kpsewhich finds it there) and say where the "
        "latexmk rc file is",
    )
    install.add_argument("--texmfhome", type=Path, help="instead of `kpsewhich` TEXMFHOME")
    install.set_defaults(run=run_install)


def run_hook(args: argparse.Namespace) -> int:
    """Check the project, write `<jobname>.citecheck.tex` when it changed (latexmk then reruns
    LaTeX), print one line per problem; non-zero in strict mode when a problem fails."""
    main_tex = args.main if args.main.suffix == ".tex" else args.main.with_suffix(".tex")
    options = resolve_options(cli_layer(args), folder=main_tex.parent)
    result = check_latex_file(main_tex, options, registry_verifier(options))
    verdicts = main_tex.with_suffix(".citecheck.tex")
    text = render_verdicts(result)
    if not verdicts.exists() or verdicts.read_text(encoding="utf-8") != text:
        verdicts.write_text(text, encoding="utf-8")
    lines = build_log(
        result, options, rerun="build again without CITECHECK_OFFLINE", style=LogStyle.LATEXMK
    )
    if not _said_already(main_tex, args.session, lines):
        for line in lines:
            print(line, file=sys.stderr)
    return exit_status(result, options)


def _said_already(main_tex: Path, session: str, lines: list[str]) -> bool:
    """Whether this latexmk run (`session`) printed these very lines already: latexmk runs the
    hook after every bibtex/biber run, and a build log that repeats each problem three times
    hides the one that changed. Remembered in `<jobname>.citecheck.said`."""
    if not session:
        return False
    state = main_tex.with_suffix(".citecheck.said")
    text = "\n".join([session, *lines])
    try:
        if state.is_file() and state.read_text(encoding="utf-8") == text:
            return True
        state.write_text(text, encoding="utf-8")
    except OSError:
        return False
    return False


def run_install(args: argparse.Namespace) -> int:
    """Copy citecheck.sty to TEXMFHOME/tex/latex/citecheck/, and print the path of the latexmk
    rc file to give `latexmk -r`."""
    home = args.texmfhome or _texmfhome()
    target = home / "tex" / "latex" / "citecheck"
    target.mkdir(parents=True, exist_ok=True)
    with as_file(LATEX_SUPPORT / "citecheck.sty") as sty:
        if not sty.is_file():
            raise CitecheckError(f"{sty}: citecheck.sty is missing from this installation")
        shutil.copy2(sty, target / sty.name)
    print(f"installed {target / 'citecheck.sty'}", file=sys.stderr)
    rc = LATEX_SUPPORT / "citecheck.latexmkrc"
    print(f"latexmk hook: latexmk -r {rc} -pdf main.tex", file=sys.stderr)
    return 0


def _texmfhome() -> Path:
    try:
        found = subprocess.run(
            ["kpsewhich", "-var-value", "TEXMFHOME"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as exc:
        raise CitecheckError(f"cannot ask kpsewhich for TEXMFHOME: {exc}") from exc
    return Path(found).expanduser()
