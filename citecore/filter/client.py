"""A build's side of the build server: hand the check to a warm server, or start one.

The first build that finds no server starts one in the background and checks in its own
process; the builds after it send the server their AST, inputs, folder and environment and
write back what it answers. Whatever goes wrong on the way (no server, a server that stops
mid-answer, an unsafe socket directory) leaves the build to check in its own process: a server
makes builds faster, never different.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from citecore.filter.wire import (
    Accepted,
    BuildAnswer,
    BuildRequest,
    UnsafeSocketDirectoryError,
    receive_frame,
    send_frame,
    server_address,
    server_wanted,
    starting_mark,
)

_CONNECT_SECONDS = 1.0
# To hand the server the build and hear that a child runs it: a fork takes milliseconds, this
# allows for a machine under load.
_ACCEPT_SECONDS = 10.0
# A server that has not listened this long after its start is taken to have failed.
_STARTING_SECONDS = 20.0


class ServedRun(NamedTuple):
    """A server's answer: the exit status, the checked AST and the warnings."""

    exit_code: int
    stdout: str
    stderr: str


def served_run(ast: bytes, output_format: str, inputs: Sequence[str]) -> ServedRun | None:
    """The run of a warm build server on this build, or None when this process must check
    (servers off, none running yet — one is then started for the next build —, or it failed)."""
    try:
        if not server_wanted(os.environ):
            return None
        address = server_address(os.environ)
    except (ValueError, UnsafeSocketDirectoryError, OSError) as exc:
        print(
            f"[WARNING] citecheck: no build server: {exc}; checking in this process",
            file=sys.stderr,
        )
        return None
    if address is None:
        return None
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.settimeout(_CONNECT_SECONDS)
        try:
            connection.connect(str(address))
        except (FileNotFoundError, ConnectionRefusedError):
            start_server(address)
            return None
        return _exchange(connection, ast, output_format, inputs)
    except (OSError, ValueError):  # the server failed or is wedged (a timeout): check here
        return None
    finally:
        connection.close()


def _exchange(
    connection: socket.socket, ast: bytes, output_format: str, inputs: Sequence[str]
) -> ServedRun | None:
    request = BuildRequest(
        output_format, tuple(inputs), str(Path.cwd()), dict(os.environ), _umask()
    )
    # Connected: handing over the build and hearing that a child runs it may take longer than
    # the connection did on a loaded machine.
    connection.settimeout(_ACCEPT_SECONDS)
    send_frame(connection, request.encode())
    send_frame(connection, ast)
    # A child that cannot even say it runs (a fork gone wrong) is not waited for; one that runs
    # says how long its check may take (the build's request timeouts), and past that it is taken
    # to be wedged: stopped, and the build checks in its own process (the cache holds whatever
    # the child already asked).
    accepted = Accepted.decode(receive_frame(connection))
    connection.settimeout(accepted.answer_seconds)
    try:
        answer = BuildAnswer.decode(receive_frame(connection))
        stdout = receive_frame(connection).decode("utf-8") if answer.checked else ""
    except TimeoutError:
        _stop(accepted.pid)
        raise
    return ServedRun(answer.exit_code, stdout, answer.stderr) if answer.checked else None


def _stop(pid: int) -> None:
    """Stop a wedged child of the server (this user's own process)."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def _umask() -> int:
    current = os.umask(0o022)
    os.umask(current)
    return current


def start_server(address: Path) -> None:
    """Start a build server for `address` in the background, detached from this build (its
    own session, no terminal, no pipes of pandoc's); not when one is already starting."""
    mark = starting_mark(address)
    try:
        if time.time() - mark.stat().st_mtime < _STARTING_SECONDS:
            return
    except FileNotFoundError:
        pass
    quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
    try:
        mark.touch(mode=0o600)
        # Its own session (no terminal, no signal of the build's); -P: nothing of the writer's
        # folder shadows citecheck's modules.
        os.posix_spawn(
            sys.executable,
            [sys.executable, "-P", "-m", "citecore.filter.server", str(address)],
            os.environ,
            file_actions=quiet,
            setsid=True,
        )
    except OSError:  # no server then: every build checks in its own process, as without one
        return
