"""The filter in a real pandoc build, on generated documents (hypothesis; every construct able
to hold a citation) with a bibliography that holds some of their keys: the build always
succeeds without strict mode, every undefined citation gets one warning naming a line that
holds its key, and the document pandoc writes cites what the writer's cites."""

from __future__ import annotations

import json
import re
from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import run_pandoc
from tests.generated_markdown import KEYS, ast_keys, document, pandoc_keys

KNOWN = st.sets(KEYS)
WARNING = re.compile(r"^\[WARNING\] citecheck: paper\.md:(\d+): \[undefined\] (\S+):", re.M)


def _bib(keys: set[str]) -> str:
    return "".join(
        f"@book{{{key}, title = {{A Book Called {number}}}, author = {{Doe, Jane}}, year = 2001}}\n"
        for number, key in enumerate(sorted(keys))
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document(), KNOWN)
def test_a_generated_document_builds_and_each_undefined_citation_is_warned_once(
    text: str, known: set[str]
) -> None:
    cited = pandoc_keys(text)
    with TemporaryDirectory() as folder:
        where = Path(folder)
        (where / "paper.md").write_text(text, encoding="utf-8")
        (where / "refs.bib").write_text(_bib(known), encoding="utf-8")
        completed = run_pandoc(
            "paper.md", "--bibliography", "refs.bib", "--filter", "citecheck", "-t", "json",
            cwd=where, check=False,
        )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert "Traceback" not in completed.stderr
    warned = WARNING.findall(completed.stderr)
    assert sorted(key for _, key in warned) == sorted(k for k in cited if k not in known)
    lines = text.splitlines()
    for line, key in warned:
        assert re.search(rf"@{{?{re.escape(key)}", lines[int(line) - 1]), (line, key, text)
    assert ast_keys(json.loads(completed.stdout)) == cited  # the filter reports, never repairs
