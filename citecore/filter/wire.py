"""Where a warm build server listens, whether a build may use one, and how a request travels.

A fresh filter process pays ~80 ms to import the pipeline before it checks anything; a build
server keeps it imported (`citecore.filter.server`). Each server serves one user and one
installation: its socket lives in a directory only that user can enter, named by a digest of
the interpreter, citecheck's code and the installed packages, so that an upgrade or an edit of
citecheck is never served by a process that loaded the old code. Messages are length-prefixed
frames over the Unix socket, each message a typed record (`BuildRequest`, `Accepted`,
`BuildAnswer`) that reads back exactly what was sent, or raises ValueError. This module is
imported by every build that reaches the check, so it stays light (no pipeline, no subprocess).

One build's exchange: the build sends its `BuildRequest` and its AST; the server's child answers
`Accepted` at once (its pid, and how long its check may take), then `BuildAnswer` and, when it
checked, the checked AST.
"""

from __future__ import annotations

import contextlib
import json
import os
import site
import socket
import stat
import struct
import sys
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from citecore.version import __version__

SWITCH = "CITECHECK_SERVER"
_ON = {"1", "true", "yes", "on"}
_OFF = {"0", "false", "no", "off"}
# sockaddr_un holds 108 bytes on Linux (104 on macOS).
_MAX_SOCKET_PATH = 100
_LENGTH = struct.Struct("!Q")


class UnsafeSocketDirectoryError(Exception):
    """The socket directory is not private to this user: no server is used."""


def server_wanted(environ: Mapping[str, str]) -> bool:
    """Whether this build may hand its check to a build server: yes unless `CITECHECK_SERVER`
    says off, or (unset) the build runs in CI, where every build is a first one; never where
    the system has no Unix sockets or fork. Raises ValueError for a value that is neither on
    nor off (the build then checks in its own process)."""
    if not hasattr(socket, "AF_UNIX") or not hasattr(os, "fork"):
        return False
    value = environ.get(SWITCH, "").strip().lower()
    if value in _ON:
        return True
    if value in _OFF:
        return False
    if value:
        raise ValueError(f"{SWITCH}={environ[SWITCH]!r} is neither on nor off")
    return environ.get("CI", "").strip().lower() in {"", *_OFF}


def socket_directory(environ: Mapping[str, str]) -> Path:
    """This user's private directory of server sockets, made if absent; raises
    UnsafeSocketDirectoryError when it exists but another user could enter it or it is a link."""
    # Not tempfile.gettempdir(): its import costs every build ~3 ms.
    base = environ.get("XDG_RUNTIME_DIR") or environ.get("TMPDIR") or "/tmp"
    folder = Path(base) / f"citecheck-{os.getuid()}"
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    info = folder.lstat()
    if (
        not stat.S_ISDIR(info.st_mode)
        or info.st_uid != os.getuid()
        or info.st_mode & (stat.S_IRWXG | stat.S_IRWXO)
    ):
        raise UnsafeSocketDirectoryError(f"{folder} is not a directory private to this user")
    return folder


def installation_digest() -> str:
    """A digest of what a server's answers depend on besides the request: the interpreter,
    citecheck's version and every file of its code (an editable install changes in place), and
    the package directories (installing or upgrading a dependency changes their listing)."""
    package = Path(__file__).resolve().parents[1]
    # The interpreter by what it is (`python` and `python3` name one) and the environment it runs.
    interpreter = os.path.realpath(sys.executable)
    parts = [interpreter, sys.prefix, sys.version, __version__, str(package)]
    for folder, _, files in os.walk(package):
        for name in sorted(files):
            if name.endswith(".py"):
                path = Path(folder, name)
                parts.append(f"{path}:{path.stat().st_mtime_ns}")
    for packages in site.getsitepackages():
        try:
            parts.append(f"{packages}:{Path(packages).stat().st_mtime_ns}")
        except OSError:
            continue
    # A checksum, not a cryptographic hash: hashlib would cost every build ~3 ms to import,
    # and a digest tells installations of one user apart, it guards against no adversary.
    text = "\n".join(parts).encode()
    return f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"


def server_address(environ: Mapping[str, str]) -> Path | None:
    """The socket of the server matching this installation, or None where a server cannot be
    used (the path would be too long for a Unix socket)."""
    path = socket_directory(environ) / f"{installation_digest()}.sock"
    return path if len(os.fsencode(path)) <= _MAX_SOCKET_PATH else None


def starting_mark(address: Path) -> Path:
    """The file that says a server for `address` is being started (it warms up for a second
    before it listens: the builds meanwhile start no other). The client makes it, the server
    removes it once it listens."""
    return address.with_name(address.name + ".starting")


def send_frame(connection: socket.socket, data: bytes) -> None:
    """Send one frame: its length, then its bytes."""
    connection.sendall(_LENGTH.pack(len(data)) + data)


def receive_frame(connection: socket.socket) -> bytes:
    """Receive one whole frame; raises ConnectionError when the peer closes before its end."""
    (length,) = _LENGTH.unpack(_receive_exactly(connection, _LENGTH.size))
    return _receive_exactly(connection, length)


def _receive_exactly(connection: socket.socket, size: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < size:
        chunk = connection.recv(min(size - len(chunks), 1 << 20))
        if not chunk:
            raise ConnectionError("the peer closed the connection mid-message")
        chunks += chunk
    return bytes(chunks)


def _fields(data: bytes, names: dict[str, type | tuple[type, ...]]) -> dict[str, Any]:
    """The JSON object `data`, checked to hold exactly `names`, each of its type; ValueError
    for anything else (json's own errors are ValueErrors)."""
    value = json.loads(data)
    if not isinstance(value, dict) or set(value) != set(names):
        raise ValueError(f"not a message of fields {sorted(names)}")
    for name, kind in names.items():
        # bool is an int to isinstance: a flag is no number, and a number no flag.
        if not isinstance(value[name], kind) or (kind is int and isinstance(value[name], bool)):
            raise ValueError(f"field {name!r} is not {kind}")
    return value


# NamedTuples, not dataclasses: every served build imports this module, and dataclasses would
# cost it ~8 ms.
class BuildRequest(NamedTuple):
    """What a build hands the server: the output format, pandoc's input files, and the
    folder, environment and umask the check must run in."""

    output_format: str
    inputs: tuple[str, ...]
    cwd: str
    environ: dict[str, str]
    umask: int

    def encode(self) -> bytes:
        """The request as one frame's bytes."""
        return json.dumps(self._asdict()).encode()

    @classmethod
    def decode(cls, data: bytes) -> BuildRequest:
        """The request `encode` made; ValueError for anything else."""
        value = _fields(
            data, {"output_format": str, "inputs": list, "cwd": str, "environ": dict, "umask": int}
        )
        inputs, environ = value["inputs"], value["environ"]
        if not all(isinstance(name, str) for name in inputs):
            raise ValueError("an input that is not a file name")
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in environ.items()):
            raise ValueError("an environment that is not names and values")
        return cls(value["output_format"], tuple(inputs), value["cwd"], environ, value["umask"])


class Accepted(NamedTuple):
    """The child's first word: it runs (`pid`) and answers within `answer_seconds`, or is
    taken to be wedged."""

    pid: int
    answer_seconds: float

    def encode(self) -> bytes:
        """The message as one frame's bytes."""
        return json.dumps(self._asdict()).encode()

    @classmethod
    def decode(cls, data: bytes) -> Accepted:
        """The message `encode` made; ValueError for anything else."""
        value = _fields(data, {"pid": int, "answer_seconds": (int, float)})
        if value["pid"] <= 0 or not value["answer_seconds"] > 0:
            raise ValueError("no process, or no time to answer in")
        return cls(value["pid"], float(value["answer_seconds"]))


class BuildAnswer(NamedTuple):
    """The child's answer: whether it checked the build (if not, the build checks in its own
    process), the exit status and the warnings; the checked AST follows in a frame of its own."""

    checked: bool
    exit_code: int = 0
    stderr: str = ""

    def encode(self) -> bytes:
        """The answer as one frame's bytes."""
        return json.dumps(self._asdict()).encode()

    @classmethod
    def decode(cls, data: bytes) -> BuildAnswer:
        """The answer `encode` made; ValueError for anything else."""
        value = _fields(data, {"checked": bool, "exit_code": int, "stderr": str})
        return cls(value["checked"], value["exit_code"], value["stderr"])
