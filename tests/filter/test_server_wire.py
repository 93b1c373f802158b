"""The build server's messages and deadlines: each message reads back exactly what was sent (and
nothing else reads at all), and a server's child that does not start, or does not answer within
the time its build's timeouts allow, leaves the build to check in its own process."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from citecore.filter import client, wire
from citecore.filter.server import ANSWER_TIMEOUTS, answer_seconds
from citecore.filter.wire import Accepted, BuildAnswer, BuildRequest
from citecore.options import Options

REQUEST = BuildRequest("html", ("paper.md",), "/home/writer", {"LANG": "C.UTF-8"}, 0o022)


def test_every_message_reads_back_as_it_was_sent() -> None:
    answer = BuildAnswer(True, 1, "[WARNING] citecheck: ü\n")
    accepted = Accepted(4242, 1200.0)
    assert BuildRequest.decode(REQUEST.encode()) == REQUEST
    assert BuildAnswer.decode(answer.encode()) == answer
    assert Accepted.decode(accepted.encode()) == accepted
    assert BuildAnswer.decode(BuildAnswer(checked=False).encode()) == BuildAnswer(False)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not json",
        b"[]",
        b'{"checked": true}',
        b'{"checked": 1, "exit_code": 0, "stderr": ""}',
        b'{"checked": true, "exit_code": true, "stderr": ""}',
        b'{"checked": true, "exit_code": 0, "stderr": "", "more": 1}',
        b'{"checked": true, "exit_code": "0", "stderr": ""}',
        b"\xff\xfe",
    ],
)
def test_a_malformed_answer_is_a_value_error(data: bytes) -> None:
    with pytest.raises(ValueError):
        BuildAnswer.decode(data)


@pytest.mark.parametrize(
    "data",
    [
        b'{"output_format": "html", "inputs": [1], "cwd": "/", "environ": {}, "umask": 18}',
        b'{"output_format": "html", "inputs": [], "cwd": "/", "environ": {"A": 1}, "umask": 18}',
        b'{"output_format": "html", "inputs": [], "cwd": "/", "environ": [], "umask": 18}',
        b'{"output_format": "html", "inputs": [], "cwd": "/", "environ": {}, "umask": 1.5}',
        b'{"output_format": "html", "inputs": [], "cwd": "/", "environ": {}}',
    ],
)
def test_a_malformed_request_is_a_value_error(data: bytes) -> None:
    with pytest.raises(ValueError):
        BuildRequest.decode(data)


@pytest.mark.parametrize(
    "data", [b'{"pid": 0, "answer_seconds": 5}', b'{"pid": 7, "answer_seconds": -1}', b"{}"]
)
def test_an_acceptance_without_a_process_or_a_time_is_a_value_error(data: bytes) -> None:
    with pytest.raises(ValueError):
        Accepted.decode(data)


def test_a_child_answers_within_the_build_s_request_timeouts(tmp_path: Path) -> None:
    request = REQUEST._replace(cwd=str(tmp_path), environ={})
    assert answer_seconds(request) == ANSWER_TIMEOUTS * Options().timeout
    (tmp_path / "citecheck.toml").write_text("timeout = 5\n")
    assert answer_seconds(request) == ANSWER_TIMEOUTS * 5
    # The environment over the project file, as in the check; a bad value keeps what is below.
    assert answer_seconds(request._replace(environ={"CITECHECK_TIMEOUT": "2"})) == 2 * 60
    assert answer_seconds(request._replace(environ={"CITECHECK_TIMEOUT": "soon"})) == 5 * 60


@pytest.fixture
def address(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Where this build looks for its server (a short private runtime folder)."""
    folder = Path(tempfile.mkdtemp(prefix="cc", dir="/tmp"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(folder))
    monkeypatch.setenv("CITECHECK_SERVER", "on")
    path = wire.server_address(os.environ)
    assert path is not None
    yield path
    shutil.rmtree(folder, ignore_errors=True)


def _serve_once(address: Path, behave: Callable[[socket.socket], None]) -> threading.Thread:
    """A stand-in server at `address` that takes one build and does `behave` with it."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(address))
    listener.listen(1)

    def take() -> None:
        connection, _ = listener.accept()
        try:
            behave(connection)
        finally:
            connection.close()
            listener.close()

    thread = threading.Thread(target=take, daemon=True)
    thread.start()
    return thread


def test_a_child_that_never_says_it_runs_is_not_waited_for(
    address: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client, "_ACCEPT_SECONDS", 0.3)
    release = threading.Event()

    def silent(connection: socket.socket) -> None:
        wire.receive_frame(connection)
        wire.receive_frame(connection)
        release.wait(10)  # a fork gone wrong: no word at all

    thread = _serve_once(address, silent)
    started = time.monotonic()
    assert client.served_run(b"{}", "html", []) is None
    # The accept wait decides, not the connect timeout (1 s).
    assert time.monotonic() - started < 0.9
    release.set()
    thread.join(10)


def test_a_server_that_accepts_after_the_connect_timeout_is_waited_for(address: Path) -> None:
    answer = BuildAnswer(True, 0, "checked by the server\n")

    def slow(connection: socket.socket) -> None:
        wire.receive_frame(connection)
        wire.receive_frame(connection)
        time.sleep(1.5)  # a loaded machine: longer than connecting may take
        wire.send_frame(connection, Accepted(os.getpid(), 5.0).encode())
        wire.send_frame(connection, answer.encode())
        wire.send_frame(connection, b"{}")

    thread = _serve_once(address, slow)
    served = client.served_run(b"{}", "html", [])
    thread.join(10)
    assert served is not None and served.stderr == "checked by the server\n"


def test_a_wedged_child_is_stopped_and_the_build_checks_itself(address: Path) -> None:
    wedged = subprocess.Popen(["sleep", "60"])
    release = threading.Event()

    def wedge(connection: socket.socket) -> None:
        wire.receive_frame(connection)
        wire.receive_frame(connection)
        wire.send_frame(connection, Accepted(wedged.pid, 0.5).encode())
        release.wait(10)  # runs, and never answers

    thread = _serve_once(address, wedge)
    try:
        started = time.monotonic()
        assert client.served_run(b"{}", "html", []) is None
        assert time.monotonic() - started < 5
        assert wedged.wait(5) != 0  # stopped by the build
    finally:
        wedged.kill()
        release.set()
        thread.join(10)


def test_a_child_that_does_not_check_leaves_the_build_to_itself(address: Path) -> None:
    def decline(connection: socket.socket) -> None:
        wire.receive_frame(connection)
        wire.receive_frame(connection)
        wire.send_frame(connection, Accepted(os.getpid(), 60).encode())
        wire.send_frame(connection, BuildAnswer(checked=False).encode())

    thread = _serve_once(address, decline)
    assert client.served_run(b"{}", "html", []) is None
    thread.join(10)


def test_a_served_answer_is_the_child_s(address: Path) -> None:
    def check(connection: socket.socket) -> None:
        request = BuildRequest.decode(wire.receive_frame(connection))
        assert request.output_format == "latex"
        assert request.inputs == ("paper.md",)
        assert wire.receive_frame(connection) == b'{"blocks": []}'
        wire.send_frame(connection, Accepted(os.getpid(), 60).encode())
        wire.send_frame(connection, BuildAnswer(True, 1, "[ERROR] citecheck: …\n").encode())
        wire.send_frame(connection, "checked ü".encode())

    thread = _serve_once(address, check)
    served = client.served_run(b'{"blocks": []}', "latex", ["paper.md"])
    thread.join(10)
    assert served == client.ServedRun(1, "checked ü", "[ERROR] citecheck: …\n")
