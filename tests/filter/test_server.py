"""The build server: a build it serves is the build checked in its own process, and a server
that is absent, stopped or unsafe leaves every build to check in its own process."""

from __future__ import annotations

import io
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citecore.cli.filter import plain_call
from citecore.filter import client, wire
from citecore.filter.process import replay_or_check
from citecore.filter.replay import run_key
from citecore.pandoc.reader import pandoc_path
from tests.conftest import run_pandoc

PAPER = """---
bibliography: refs.bib
---

A sound claim [@doe]. A claim on nothing [@ghost].
"""
BIB = "@article{doe, title = {A Study of Things}, author = {Doe, Jane}, year = {2020}}\n"


@pytest.fixture
def runtime(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A short private runtime folder (socket paths must stay under ~100 bytes), and servers
    on that exit seconds after their last build."""
    folder = Path(tempfile.mkdtemp(prefix="cc", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("CITECHECK_SERVER", "on")
    monkeypatch.setenv("CITECHECK_SERVER_IDLE", "15")  # a server outlives its test by seconds
    yield folder
    shutil.rmtree(folder, ignore_errors=True)  # a server whose socket is gone exits too


@pytest.fixture
def paper(tmp_path: Path) -> Path:
    (tmp_path / "refs.bib").write_text(BIB)
    path = tmp_path / "paper.md"
    path.write_text(PAPER)
    return path


def _ast(paper: Path, sentence: str = "") -> bytes:
    text = paper.read_text() + sentence
    return subprocess.run(
        [pandoc_path(), "-f", "markdown", "-t", "json"],
        input=text.encode(),
        capture_output=True,
        check=True,
    ).stdout


def _wait_for_server(address: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.connect(str(address))
            return
        except OSError:
            time.sleep(0.1)
        finally:
            probe.close()
    raise AssertionError("the build server did not start listening")


def _started(paper: Path) -> Path:
    """Start a server the way a first build does, and wait until it listens."""
    address = wire.server_address(os.environ)
    assert address is not None
    assert client.served_run(_ast(paper), "html", [str(paper)]) is None  # none yet: one starts
    _wait_for_server(address)
    return address


def test_a_served_build_is_the_build_checked_in_its_own_process(
    runtime: Path, paper: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(paper.parent)
    monkeypatch.setenv("CITECHECK_CACHE", str(paper.parent / "cache.db"))
    _started(paper)
    for strict, sentence in (("", "\n\nOne edit."), ("1", "\n\nAnother edit.")):
        monkeypatch.setenv("CITECHECK_STRICT", strict)
        ast = _ast(paper, sentence)
        served = client.served_run(ast, "html", [str(paper)])
        assert served is not None
        monkeypatch.setenv("CITECHECK_CACHE", str(paper.parent / f"own{strict}.db"))
        out, err = io.StringIO(), io.StringIO()
        status = replay_or_check(ast, "html", [str(paper)], out, err)
        monkeypatch.setenv("CITECHECK_CACHE", str(paper.parent / "cache.db"))
        # The build's own environment, folder and inputs: strict fails, with the line number.
        assert (served.exit_code, served.stdout, served.stderr) == (
            status,
            out.getvalue(),
            err.getvalue(),
        )
        assert "paper.md:5: [undefined] ghost" in served.stderr
        assert served.exit_code == (1 if strict else 0)


def test_pandoc_builds_are_served_once_a_server_listens(runtime: Path, paper: Path) -> None:
    env = {"CITECHECK_CACHE": str(paper.parent / "cache.db")}
    first = run_pandoc("paper.md", "-t", "html", "--filter", "citecheck", cwd=paper.parent, env=env)
    address = wire.server_address(os.environ)
    assert address is not None
    _wait_for_server(address)
    paper.write_text(PAPER + "\nAn edit.\n")
    second = run_pandoc(
        "paper.md", "-t", "html", "--filter", "citecheck", cwd=paper.parent, env=env
    )
    assert "paper.md:5: [undefined] ghost" in first.stderr
    assert second.stderr == first.stderr
    assert "An edit." in second.stdout and 'class="citecheck' in second.stdout


def test_an_idle_server_exits_and_takes_its_socket(
    runtime: Path, paper: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CITECHECK_SERVER_IDLE", "1")
    address = _started(paper)
    deadline = time.monotonic() + 20
    while address.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not address.exists()


def test_a_server_that_stops_mid_answer_leaves_the_build_to_itself(
    runtime: Path, paper: Path
) -> None:
    address = wire.server_address(os.environ)
    assert address is not None
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(address))
    listener.listen(1)

    def take_and_drop() -> None:
        connection, _ = listener.accept()
        wire.receive_frame(connection)
        connection.close()  # gone before it answered

    thread = threading.Thread(target=take_and_drop)
    thread.start()
    try:
        assert client.served_run(_ast(paper), "html", []) is None
    finally:
        thread.join(timeout=10)
        listener.close()


def test_servers_are_on_for_writers_and_off_in_ci_or_when_switched_off() -> None:
    assert wire.server_wanted({})
    assert not wire.server_wanted({"CI": "true"})
    assert wire.server_wanted({"CI": "true", "CITECHECK_SERVER": "on"})
    assert not wire.server_wanted({"CITECHECK_SERVER": "off"})
    assert not wire.server_wanted({"CITECHECK_SERVER": "0"})
    with pytest.raises(ValueError, match="neither on nor off"):
        wire.server_wanted({"CITECHECK_SERVER": "sometimes"})


def test_a_bad_switch_is_one_line_and_the_build_is_checked_all_the_same(
    runtime: Path, paper: Path
) -> None:
    built = run_pandoc(
        "paper.md",
        "-t",
        "html",
        "--filter",
        "citecheck",
        cwd=paper.parent,
        env={"CITECHECK_SERVER": "sometimes"},
    )
    assert built.stderr.count("neither on nor off") == 1
    assert "[undefined] ghost" in built.stderr


def test_a_socket_directory_others_may_enter_is_not_used(
    runtime: Path, paper: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = runtime / f"citecheck-{os.getuid()}"
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)
    assert client.served_run(_ast(paper), "html", []) is None
    assert "not a directory private to this user" in capsys.readouterr().err
    assert not list(folder.iterdir())  # nothing started, nothing bound


def test_the_socket_is_named_by_the_installation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packages = tmp_path / "site-packages"
    packages.mkdir()
    monkeypatch.setattr("site.getsitepackages", lambda: [str(packages)])
    before = wire.installation_digest()
    assert wire.installation_digest() == before
    os.utime(packages, ns=(0, 0))  # a package installed or removed
    assert wire.installation_digest() != before


def test_where_a_build_is_checked_is_not_part_of_what_it_checks() -> None:
    environ = {"CITECHECK_STRICT": "1"}
    key = run_key(b"{}", ["html"], [], environ)
    switched = {**environ, "CITECHECK_SERVER": "off", "CITECHECK_SERVER_IDLE": "5"}
    assert run_key(b"{}", ["html"], [], switched) == key
    assert run_key(b"{}", ["html"], [], {}) != key


@pytest.mark.parametrize(
    ("arguments", "call"),
    [
        (["html"], ("html", [])),
        ([], ("html", [])),
        (["latex", "--source", "a.qmd", "--source=b.qmd"], ("latex", ["a.qmd", "b.qmd"])),
        (["--help"], None),
        (["html", "docx"], None),
        (["html", "--source"], None),
    ],
)
def test_pandocs_plain_call_is_read_without_a_parser(
    arguments: list[str], call: tuple[str, list[str]] | None
) -> None:
    assert plain_call(arguments) == call


def test_the_server_module_runs_with_this_interpreter() -> None:
    # The first build starts `python -m citecore.filter.server`: the module must import alone.
    subprocess.run([sys.executable, "-c", "import citecore.filter.server"], check=True)
