"""Reading files that strangers control: regular files only, never more than a cap, never blocking.

A target or a rule set may hold a FIFO (opening it for reading blocks until someone writes), a symlink to
``/dev/zero`` (endless) or a metadata file of gigabytes. Every read of such a file goes through here:
the file is opened without blocking, checked to be a regular file on the open descriptor (so a swap
between the check and the read changes nothing), and read up to a cap.
"""

from __future__ import annotations

import os
import select
import stat
import time
from pathlib import Path

_CHUNK = 1 << 20


class UnsafeFile(OSError):
    """A file that is not read: not a regular file, larger than its cap, or outside where it must be."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.reason = reason  # without the path, for messages that name the file already


def _describe(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def inside(path: Path, root: Path) -> bool:
    """Whether ``path``, symlinks followed, stays inside ``root`` (symlinks followed too)."""
    try:
        real, base = os.path.realpath(path), os.path.realpath(root)
    except (OSError, ValueError):
        return False
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def read_regular(path: Path | str, cap: int, *, root: Path | None = None) -> bytes:
    """The bytes of a regular file of at most ``cap`` bytes; :class:`UnsafeFile` otherwise.

    ``root``: the file, symlinks followed, must also stay inside this folder.
    """
    if root is not None and not inside(Path(path), root):
        raise UnsafeFile(path, f"a symlink that leaves {root}")
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile(path, f"{_describe(info.st_mode)}, not a regular file")
        if info.st_size > cap:
            raise UnsafeFile(path, f"{info.st_size} bytes, more than the {cap} read from such a file")
        parts: list[bytes] = []
        size = 0
        while size <= cap and (chunk := os.read(fd, min(_CHUNK, cap + 1 - size))):
            parts.append(chunk)
            size += len(chunk)
        if size > cap:  # the file grew while it was read
            raise UnsafeFile(path, f"more than the {cap} bytes read from such a file")
        return b"".join(parts)
    finally:
        os.close(fd)


def read_text_input(path: Path | str, cap: int, *, idle: float = 10.0) -> tuple[bytes, bool]:
    """A file or a pipe given on the command line (``--file <(cmd)``): at most ``cap`` bytes.

    Returns the bytes and whether the input was longer than ``cap`` (the rest is not read). Devices
    and folders are refused; a pipe nobody writes to for ``idle`` seconds is an error, not a hang.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISREG(info.st_mode):
            data = _read_upto(fd, cap + 1)
            return data[:cap], len(data) > cap
        if not stat.S_ISFIFO(info.st_mode):
            raise UnsafeFile(path, f"{_describe(info.st_mode)}, not a file to read text from")
        return _read_pipe(fd, path, cap, idle)
    finally:
        os.close(fd)


def _read_upto(fd: int, limit: int) -> bytes:
    parts: list[bytes] = []
    size = 0
    while size < limit and (chunk := os.read(fd, min(_CHUNK, limit - size))):
        parts.append(chunk)
        size += len(chunk)
    return b"".join(parts)


def _read_pipe(fd: int, path: Path | str, cap: int, idle: float) -> tuple[bytes, bool]:
    if not hasattr(select, "poll"):  # Windows: no FIFOs of this kind, a plain read
        data = _read_upto(fd, cap + 1)
        return data[:cap], len(data) > cap
    parts: list[bytes] = []
    size = 0
    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    deadline = time.monotonic() + idle
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            if size:
                break
            raise UnsafeFile(path, f"a pipe that nothing was written to in {idle:.0f} s")
        if not poller.poll(int(left * 1000) + 1):
            continue
        try:
            chunk = os.read(fd, min(_CHUNK, cap + 1 - size))
        except BlockingIOError:
            continue
        if not chunk:  # the writer closed its end
            break
        parts.append(chunk)
        size += len(chunk)
        deadline = time.monotonic() + idle
        if size > cap:
            break
    data = b"".join(parts)
    return data[:cap], size > cap


def json_document(data: bytes, prefix: str, *, encoding: str = "utf-8-sig", text: str = "UTF-8") -> object:
    """Bytes read from a stranger (a file, a request) as JSON; every way they are not is one
    :class:`~dlldoctor.errors.InputError` starting with ``prefix`` (a deep nesting included)."""
    import json

    from dlldoctor.errors import InputError

    try:
        return json.loads(data.decode(encoding))
    except UnicodeDecodeError as e:
        raise InputError(f"{prefix}: not {text} text (byte {e.start})") from e
    except RecursionError as e:
        raise InputError(f"{prefix}: JSON nested too deeply") from e
    except ValueError as e:
        raise InputError(f"{prefix}: invalid JSON ({e})") from e


def read_given_file(path: Path | str, cap: int, what: str) -> bytes:
    """A file named on the command line (a bundle, an event): :func:`read_regular`, each failure one
    :class:`~dlldoctor.errors.InputError` that names the file and ``what`` it should have been."""
    from dlldoctor.errors import InputError

    try:
        return read_regular(path, cap)
    except UnsafeFile as e:
        raise InputError(f"{path}: {what} not read: {e.reason}") from e
    except OSError as e:
        raise InputError(f"{path}: cannot read the {what}: {e.strerror or e}") from e
