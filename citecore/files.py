"""Writing files that other processes may be reading."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write `text` (or bytes) to `path` so that readers see the old file or the new one, never
    half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        if isinstance(text, bytes):
            with os.fdopen(handle, "wb") as binary:
                binary.write(text)
        else:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
        umask = os.umask(0)
        os.umask(umask)
        Path(temporary).chmod(0o666 & ~umask)  # mkstemp makes 0600; a report is for everyone
        Path(temporary).replace(path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def is_file(path: Path) -> bool:
    """Whether `path` is a regular file. A name read from a document or its metadata is data:
    one no file can have (too long, a NUL byte) or one that cannot be looked at is no file,
    never an exception."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def expand_user(name: str) -> Path:
    """`name` with a leading `~` or `~user` expanded as a shell would, and left as written when
    there is no such user (Python raises for that)."""
    try:
        return Path(name).expanduser()
    except RuntimeError:
        return Path(name)
