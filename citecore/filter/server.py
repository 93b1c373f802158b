"""The build server: a warm process that checks builds for one user and one installation.

A fresh filter process spends most of an edited rebuild importing the pipeline and compiling its
patterns. The server imports it once, then forks a child for each build that connects: the child
takes the build's folder, environment and umask, runs exactly what the filter would run in its
own process (`citecore.filter.process.replay_or_check`) and sends back the exit status, the warnings
and the checked AST. A child per build keeps builds apart (nothing of one build's environment or
caches reaches another) and lets builds run side by side.

The server answers only its own user (a private directory, and the peer's uid checked), exits
after `CITECHECK_SERVER_IDLE` seconds without a build (default 900) or when another server took
its address, and removes its socket when it goes. Run as `python -m citecore.filter.server PATH`
by the first build that finds none (`citecore.filter.client`).
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import io
import os
import signal
import socket
import struct
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from citecore.bib.latex_text import decode_latex
from citecore.errors import CitecheckError
from citecore.filter.process import replay_or_check
from citecore.filter.wire import (
    Accepted,
    BuildAnswer,
    BuildRequest,
    receive_frame,
    send_frame,
    starting_mark,
)
from citecore.logs import configure_logging
from citecore.options import Options, resolve_options
from citecore.startup import CHECK_ONLY

IDLE_SWITCH = "CITECHECK_SERVER_IDLE"
DEFAULT_IDLE_SECONDS = 900.0
# How often a waiting server looks whether its address is still its own.
_LOOK_SECONDS = 30.0
# A build's check may wait on this many registry requests one after another (a first build of a
# long bibliography under DBLP's and arXiv's pace: 20 minutes at the default 20 s timeout) before
# its child is taken to be wedged, stopped, and the build checked in its own process.
ANSWER_TIMEOUTS = 60
# A build sends its request at once; a child that waits longer for it serves no one.
_RECEIVE_SECONDS = 10.0


def warm_up() -> None:
    """Import what a check needs and a replay leaves out (`citecore.startup.CHECK_ONLY`), so
    that no child pays for it."""
    for module in CHECK_ONLY:
        importlib.import_module(module)
    decode_latex("\\'e")  # builds pylatexenc's converter once
    # Children share the warm heap copy-on-write; the collector of a child would touch (and so
    # copy) every object of it: what is loaded now is kept out of its reach (~25 ms a build).
    gc.collect()
    gc.freeze()


def idle_seconds(environ: Mapping[str, str]) -> float:
    """How long the server waits for a build before it exits."""
    try:
        return max(0.1, float(environ.get(IDLE_SWITCH, DEFAULT_IDLE_SECONDS)))
    except ValueError:
        return DEFAULT_IDLE_SECONDS


def serve(address: Path, idle: float) -> None:
    """Listen at `address` until idle for `idle` seconds or replaced; fork a child per build."""
    listener = _bind(address)
    with contextlib.suppress(OSError):
        starting_mark(address).unlink()
    if listener is None:
        return
    own = address.stat().st_ino
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the system
    deadline = time.monotonic() + idle
    try:
        while (remaining := deadline - time.monotonic()) > 0:
            listener.settimeout(min(remaining, _LOOK_SECONDS))
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                if not _still_ours(address, own):
                    return
                continue
            deadline = time.monotonic() + idle
            if _peer_uid(connection) not in (None, os.getuid()):
                connection.close()
                continue
            if os.fork() == 0:
                listener.close()
                _child(connection)
            connection.close()
    finally:
        listener.close()
        if _still_ours(address, own):
            with contextlib.suppress(OSError):
                address.unlink()


def _bind(address: Path) -> socket.socket | None:
    """A listening socket at `address`, or None when a live server already holds it (a stale
    socket file, whose server is gone, is replaced)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(str(address))
        return None  # another server answers there
    except OSError:
        with contextlib.suppress(FileNotFoundError):
            address.unlink()
    finally:
        probe.close()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(str(address))
        listener.listen(16)
    except OSError:  # another server bound it first
        listener.close()
        return None
    return listener


def _still_ours(address: Path, inode: int) -> bool:
    try:
        return address.stat().st_ino == inode
    except OSError:
        return False


def _peer_uid(connection: socket.socket) -> int | None:
    """The connecting process's uid where the system tells it (Linux), else None."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return None
    credentials = connection.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return int(uid)


def _child(connection: socket.socket) -> None:
    """Serve one build in this forked child, then exit without running the parent's exit
    handlers."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the check's own subprocesses are waited for
    # The child exits after this one build: the cycles it leaves go with it. The collector would
    # only pass over the document's elements again and again (panflute makes an object per
    # element, each pointing to its parent): ~17 ms of a 1,500-citation build.
    gc.disable()
    status = 0
    try:
        _answer(connection)
    except BaseException:  # the build checks in its own process when no answer came
        status = 1
    finally:
        connection.close()
        os._exit(status)


def answer_seconds(request: BuildRequest) -> float:
    """How long this build's check may take before its child is taken to be wedged:
    `ANSWER_TIMEOUTS` of its per-request timeout, as its environment and project file set it
    (the document's metadata is read later, with the document; a bad value keeps the default,
    as in the check)."""
    folder = Path(request.cwd, request.inputs[0]).parent if request.inputs else Path(request.cwd)
    try:
        options = resolve_options({}, folder=folder, environ=request.environ)
    except CitecheckError:  # a check that cannot read its options says so itself, quickly
        options = Options()
    return ANSWER_TIMEOUTS * options.timeout


def _answer(connection: socket.socket) -> None:
    connection.settimeout(_RECEIVE_SECONDS)
    request = BuildRequest.decode(receive_frame(connection))
    send_frame(connection, Accepted(os.getpid(), answer_seconds(request)).encode())
    ast = receive_frame(connection)
    connection.settimeout(None)
    os.environ.clear()
    os.environ.update(request.environ)
    time.tzset()  # "today" is the build's, in its time zone
    os.chdir(request.cwd)
    os.umask(request.umask)
    sys.argv = ["citecheck", request.output_format]
    out, err = io.StringIO(), io.StringIO()
    sys.stdout, sys.stderr = out, err
    configure_logging(err, replace=True)  # as a build in its own process has it
    try:
        status = replay_or_check(ast, request.output_format, request.inputs, out, err)
    except Exception:  # what a build in its own process does then, it does itself
        send_frame(connection, BuildAnswer(checked=False).encode())
        return
    send_frame(connection, BuildAnswer(True, status, err.getvalue()).encode())
    send_frame(connection, out.getvalue().encode("utf-8"))


def main() -> None:
    """`python -m citecore.filter.server PATH`: warm up, then serve at PATH."""
    address = Path(sys.argv[1])
    os.chdir(address.parent)  # holds no writer's folder while it waits
    warm_up()
    serve(address, idle_seconds(os.environ))


if __name__ == "__main__":
    main()
