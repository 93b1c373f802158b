"""The commands that meet writers outside the build — `pre-commit`, `lsp`, `-f sarif` — as the
command line presents them: listed in the help, quiet when there is nothing to do, and the
report format picked from the output file's suffix."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from citecore.cli import main
from citecore.model import Bibliography, CheckResult, Finding, FindingKind, Severity, SourceLocation
from citecore.report.sarif import to_sarif_data
from tests.report.test_sarif import _errors


def test_the_new_commands_are_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "pre-commit" in out and "lsp" in out
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "sarif" in capsys.readouterr().out


def test_pre_commit_with_nothing_to_check_passes_quietly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["pre-commit"]) == 0
    assert main(["pre-commit", "image.png", "gone.md"]) == 0
    assert capsys.readouterr().err == ""


def test_a_text_reference_list_verified_to_a_sarif_file(tmp_path: Path) -> None:
    listing = tmp_path / "refs.txt"
    listing.write_text(
        "[1] J. Doe. A study of things. Journal of Tests, 3:1-9, 2099.\n"
        "[2] R. Roe. Another study. Journal of Tests, 4:2-8, 2001.\n"
    )
    out = tmp_path / "refs.sarif"
    main(["verify", str(listing), "--offline", "-o", str(out)])
    log = json.loads(out.read_text(encoding="utf-8"))
    assert _errors(log) == []
    assert any(r["ruleId"] == "future_year" for r in log["runs"][0]["results"])


def test_a_finding_placed_in_a_file_without_a_line_is_shown_on_its_first() -> None:
    finding = Finding(FindingKind.UNPARSED, Severity.ERROR, "cannot be read", "k",
                      SourceLocation("refs.bib", None))  # fmt: skip
    result = CheckResult(("paper.md",), Bibliography(("refs.bib",)), (), {}, (finding,))
    [shown] = to_sarif_data(result, root=Path.cwd())["runs"][0]["results"]
    place = shown["locations"][0]["physicalLocation"]
    assert place["artifactLocation"]["uri"] == "refs.bib"
    assert place["region"] == {"startLine": 1}


def test_the_language_server_answers_over_stdio() -> None:
    """The console command itself: `initialize`, then `shutdown` and `exit`, in JSON-RPC."""
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]  # fmt: skip
    wire = b"".join(
        b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
        for body in (json.dumps(m).encode() for m in messages)
    )
    completed = subprocess.run(
        [sys.executable, "-c", "from citecore.cli import main; main(['lsp'])"],
        input=wire, capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    replies = [
        json.loads(part.split(b"\r\n\r\n", 1)[1])
        for part in completed.stdout.split(b"Content-Length")[1:]
    ]
    capabilities = replies[0]["result"]["capabilities"]
    assert capabilities["hoverProvider"] is True
    assert capabilities["textDocumentSync"]["save"] is True
    assert capabilities["executeCommandProvider"]["commands"] == ["citecheck.ground"]
    assert replies[-1] == {"jsonrpc": "2.0", "id": 2, "result": None}
