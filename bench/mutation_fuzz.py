"""Mutation fuzzing of the CLI on the real corpus: a real document, LaTeX project, bibliography or
PDF of ../shared/corpus, broken a few random ways (a brace, a bracket, an `@`, a fence or a
NUL put in; a stretch cut or repeated; the file cut short; a PDF's bytes overwritten), read by
`citecheck check`, `latex` or `verify` offline, in this process with `CITECHECK_DEBUG=1` so
that a bug raises instead of printing its one line. Prints the runs made and every distinct
failure (the exception and the innermost citecore frame), keeping one reproducer of each under
`--keep`. `python bench/mutation_fuzz.py [--seed 1] [--seconds 300] [--kinds md,tex,bib,pdf]`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.paths import CORPUS

# What writers' files break on: the syntax of each format, a line ending, an encoding's marks.
TOKENS = (
    "{", "}", "[", "]", "@", "[@", "]{", "@{", "\\cite{", "\\begin{", "\\end{", "\\", "%", "$",
    "`", "```{r}\n", "---\n", "<!--", "\n", "\r", "\t", '"', "'", ":", ";", ",", "=", "#", "~",
    "-", "title = ", "\x00", "\ufeff", "\u00e9",
)  # fmt: skip
# 0 clean, 1 failing findings, 2 bad input, 4 and 6 outages, 7 the document could not be
# parsed (README's exit codes); 70, a bug, never shows here: CITECHECK_DEBUG raises it.
EXIT_CODES = {0, 1, 2, 4, 6, 7}
SKIP = shutil.ignore_patterns("*.pdf", "*.png", "*.jpg", "*.eps", "*.gif", ".git")


@dataclass(frozen=True)
class Target:
    """One real input: the file citecheck is given, the folder copied with it (None: the file
    alone), and the command that reads it."""

    path: Path
    folder: Path | None
    command: str


def targets(kinds: Sequence[str]) -> list[Target]:
    """Every corpus input of the given kinds."""
    found: list[Target] = []
    if "md" in kinds:
        documents = [*(CORPUS / "markdown").rglob("*.md"), *(CORPUS / "wild").rglob("*.[Rq]md")]
        found += [Target(p, p.parent, "check") for p in documents if p.name != "README.md"]
    if "tex" in kinds:
        sources = [*(CORPUS / "latex").rglob("*.tex"), *(CORPUS / "wild" / "latex").rglob("*.tex")]
        found += [Target(p, p.parent, "latex") for p in sources]
    if "bib" in kinds:
        lists = [*(CORPUS / "wild" / "bib").rglob("*.bib"), *(CORPUS / "markdown").rglob("*.bib")]
        lists += [p for p in (CORPUS / "wild" / "markdown").rglob("*.json")]
        found += [Target(p, None, "verify") for p in lists if p.stat().st_size < 400_000]
    if "pdf" in kinds:
        pdfs = [*(CORPUS / "pdfs").glob("*.pdf"), *(CORPUS / "wild").rglob("*.pdf")]
        found += [Target(p, None, "verify") for p in pdfs]
    return found


def mutate_text(rng: random.Random, text: str) -> str:
    """`text` broken one to six ways."""
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(text) + 1)
        choice = rng.random()
        if choice < 0.35:
            text = text[:at] + rng.choice(TOKENS) + text[at:]
        elif choice < 0.6:
            text = text[:at] + text[at + rng.randint(1, 40) :]
        elif choice < 0.72:
            text = text[:at]
        else:
            start = rng.randrange(len(text) + 1)
            text = text[:at] + text[start : start + rng.randint(1, 200)] + text[at:]
    return text


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    """`data` with up to twenty bytes overwritten, and cut short one time in three."""
    broken = bytearray(data)
    for _ in range(rng.randint(1, 20)):
        broken[rng.randrange(len(broken))] = rng.randrange(256)
    if rng.random() < 0.3:
        del broken[rng.randrange(len(broken)) :]
    return bytes(broken)


def prepare(rng: random.Random, target: Target, root: Path) -> tuple[Path, Path]:
    """Copy `target` under `root` and break one of its files; return (the input, the broken
    file)."""
    if target.folder is None:
        given = root / target.path.name
        shutil.copy(target.path, given)
        victims = [given]
    else:
        shutil.copytree(target.folder, root / "p", ignore=SKIP)
        given = root / "p" / target.path.relative_to(target.folder)
        # The document itself most often; its bibliographies, inputs and metadata otherwise.
        extra = [p for p in (root / "p").rglob("*") if p.suffix in {".bib", ".tex", ".yml"}]
        victims = [given, given, *extra]
    victim = rng.choice(victims)
    if victim.suffix == ".pdf":
        victim.write_bytes(mutate_bytes(rng, victim.read_bytes()))
    else:
        text = victim.read_text(encoding="utf-8", errors="replace")
        victim.write_text(mutate_text(rng, text), encoding="utf-8")
    return given, victim


def run(main: Callable[[list[str]], int], argv: list[str]) -> str:
    """The traceback of a run of citecheck that raised or ended with an exit code it never
    gives, or ""."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as ended:
            code = ended.code if isinstance(ended.code, int) else 2
        except Exception:
            return traceback.format_exc()
    return "" if code in EXIT_CODES else f"exit code {code}\n"


def failure_class(trace: str) -> str:
    """What tells one failure from another: the exception and the innermost citecore frame."""
    lines = trace.strip().splitlines()
    frames = [line.strip() for line in lines if "/citecore/" in line and line.strip()[:4] == "File"]
    return f"{lines[-1].split(':')[0]} at {frames[-1] if frames else 'no citecore frame'}"


def main() -> None:
    """Fuzz for the time given and print what failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--kinds", default="md,tex,bib,pdf")
    parser.add_argument("--keep", type=Path, default=Path("build/mutation-fuzz"))
    args = parser.parse_args()
    os.environ["CITECHECK_OFFLINE"] = "1"
    os.environ["CITECHECK_DEBUG"] = "1"
    from citecore.cli import main as citecheck  # start-up: after the environment it reads

    rng = random.Random(args.seed)
    inputs = targets(args.kinds.split(","))
    failures: dict[str, Path] = {}
    runs = 0
    started = time.monotonic()
    while time.monotonic() - started < args.seconds:
        target = rng.choice(inputs)
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            given, victim = prepare(rng, target, root)
            report = ["-f", "json", "-o", str(root / "report.json")]
            argv = [target.command, str(given), *report, "--cache", str(root / "cache.sqlite")]
            trace = run(citecheck, argv)
            runs += 1
            if trace and failure_class(trace) not in failures:
                keep = args.keep / f"seed{args.seed}-{len(failures)}"
                shutil.copytree(root, keep, dirs_exist_ok=True)
                note = f"{' '.join(argv)}\nbroken: {victim}\nfrom: {target.path}\n\n{trace}"
                (keep / "TRACE.txt").write_text(note, encoding="utf-8")
                failures[failure_class(trace)] = keep
                print(f"failed: {failure_class(trace)} (kept in {keep})", flush=True)
    print(f"{runs} runs of {len(inputs)} real inputs broken at random, seed {args.seed}: "
          f"{len(failures)} distinct failures")  # fmt: skip


if __name__ == "__main__":
    main()
