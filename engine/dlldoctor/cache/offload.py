"""Inflate one big wheel member in a process of its own, so that inflating it never waits for the GIL.

Inflating a deflate stream runs without the GIL, but between two steps the reading thread needs it back,
and in a cold scan the other threads hold it most of the time: importing lief alone holds it for a
quarter of a second, during which torch_cpu.dll's inflating stops. A member of at least
:data:`MIN_SIZE` bytes is therefore inflated by a short-lived child (an isolated ``python -I``),
which reads the member straight from the wheel (the parent hands it the member's place, sizes
and CRC-32 on stdin), builds its compact image (:func:`dlldoctor.pe.compact.read_compact`), checks the
CRC-32 and writes the first header bytes and the image back on stdout. The parent parses the image as
if it had read it itself.

:func:`read_ahead` starts such a child before the parent has even opened the wheel (the command line
knows its one target is a big wheel): the child picks the wheel's largest PE member itself, says which it
took, and the parent's reading thread takes the answer when it comes to that member (else the child is
stopped). That moves the longest read of a cold scan to the very start of the process.

Any failure of the child (it cannot start, dies, answers short or with sizes out of bounds) makes
:func:`read_elsewhere` return None, and the caller reads the member in its own thread as before, so a
damaged member gets exactly the defect it would get without a child. The child only reads the wheel;
it opens no socket and writes nothing but its answer.
"""

from __future__ import annotations

import atexit
import json
import ntpath  # its basename splits at both separators
import os
import struct
import subprocess
import sys
import threading
import zipfile
from pathlib import Path
from typing import IO, BinaryIO, Literal

from dlldoctor.install.sources import PE_SUFFIXES
from dlldoctor.install.zipmember import MemberReader, can_read, largest_possible, open_member
from dlldoctor.pe.compact import read_compact

MIN_SIZE = 64 << 20  # smaller members inflate in well under the cost of starting a process
_TOOK = struct.Struct("<4sBxxxQQIQ")  # magic, status, header offset, size, CRC-32, size limit
_REPLY = struct.Struct("<4sBBxxIQ")  # magic, status, CRC-32 matched, header bytes, image bytes
_MAGIC = b"DDO1"
_MAX_HEAD = 1 << 16
_MAX_IMAGE = (512 + 16) << 20  # what read_compact may keep: MAX_KEPT plus MAX_HEADERS
_REQUEST_MAX = 1 << 16
# A member as the parent and the child name it: header offset, size, CRC-32, size limit.
Identity = tuple[int, int, int, int]
# What a child says it took: that member, or False (nothing worth taking, or it failed).
Took = Identity | Literal[False]


def enabled() -> bool:
    """A child can be started: an interpreter's own executable runs this (not a frozen app, nor Python
    embedded in another program, whose executable would start that program), and nobody turned it off
    (``DLLDOCTOR_OFFLOAD=0``, for the benchmarks' comparison)."""
    return (
        os.environ.get("DLLDOCTOR_OFFLOAD", "1") != "0"
        and not getattr(sys, "frozen", False)
        and ntpath.basename(sys.executable or "").lower().startswith(("python", "pypy"))
    )


def worthwhile(info: zipfile.ZipInfo, least: int | None = None) -> bool:
    """A deflated member of at least ``least`` bytes (:data:`MIN_SIZE`) that can be read here."""
    return (
        info.compress_type == zipfile.ZIP_DEFLATED
        and info.file_size >= (MIN_SIZE if least is None else least)
        and can_read(info)
    )


def read_elsewhere(archive: Path, info: zipfile.ZipInfo, size: int) -> tuple[bytes, bytes, bool] | None:
    """(the member's first header bytes, its compact image, whether its CRC-32 matched), or None when no
    child delivered them (the caller then reads the member itself)."""
    identity = (info.header_offset, info.file_size, info.CRC, size)
    child = _AHEAD.claim(os.path.realpath(archive), identity)
    if child is None:
        request = {
            "archive": str(archive),
            "offset": info.header_offset,
            "compressed": info.compress_size,
            "size": info.file_size,
            "crc": info.CRC,
            "method": info.compress_type,
            "flags": info.flag_bits,
            "limit": size,
        }
        child = _spawn(request)
        if child is None or _took(child) != identity:
            _stop(child)
            return None
    try:
        assert child.stdout is not None
        return _reply(child.stdout)
    except (OSError, ValueError, struct.error):
        return None
    finally:
        _stop(child)


def read_ahead(archive: Path) -> None:
    """Start a child on ``archive``'s largest PE member now, when the wheel is big enough to hold one worth
    it; :func:`read_elsewhere` takes its answer."""
    try:
        big = archive.stat().st_size >= MIN_SIZE // 8  # deflate rarely does better than 8:1 on code
    except OSError:
        return
    if big and enabled():
        child = _spawn({"archive": str(archive), "largest": MIN_SIZE})
        if child is not None:
            _AHEAD.add(os.path.realpath(archive), child)


class _Ahead:
    """Children started by :func:`read_ahead`, each until a reading thread claims it or the process ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._children: dict[str, tuple[subprocess.Popen[bytes], Took | None]] = {}
        atexit.register(self.stop_all)

    def add(self, archive: str, child: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._children[archive] = (child, None)

    def claim(self, archive: str, identity: Identity) -> subprocess.Popen[bytes] | None:
        """The child reading this very member, or None (a child that took another member is stopped)."""
        with self._lock:
            child, took = self._children.get(archive, (None, None))
            if child is None:
                return None
            if took is None:  # its first words: which member it took (at once, before inflating)
                took = _took(child)
                self._children[archive] = (child, took)
            if took != identity:
                if took is False:  # it found nothing to read, or failed
                    del self._children[archive]
                    _stop(child)
                return None
            del self._children[archive]
            return child

    def stop_all(self) -> None:
        with self._lock:
            children, self._children = list(self._children.values()), {}
        for child, _ in children:
            _stop(child)


_AHEAD = _Ahead()


def _spawn(request: dict[str, object]) -> subprocess.Popen[bytes] | None:
    # Isolated (-I): no current folder, no PYTHON* variables, no user site on the child's path, whatever folder
    # the command runs in; the folder holding this very dlldoctor is added when the path lacks it.
    root = str(Path(__file__).resolve().parents[2])
    code = (
        f"import sys; r = {root!r}; r in sys.path or sys.path.insert(0, r); "
        "from dlldoctor.cache.offload import main; main()"
    )
    try:
        child = subprocess.Popen(
            [sys.executable, "-I", "-c", code],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            creationflags=getattr(subprocess, "CREATE_NO_WINDOW", 0),  # no console flashing up on Windows
        )
    except (OSError, ValueError):
        return None
    assert child.stdin is not None
    try:
        child.stdin.write(json.dumps(request).encode())
        child.stdin.close()
    except OSError:
        _stop(child)
        return None
    return child


def _took(child: subprocess.Popen[bytes]) -> Took:
    """The member the child says it is reading, or False."""
    assert child.stdout is not None
    try:
        fixed = child.stdout.read(_TOOK.size)
    except (OSError, ValueError):
        return False
    if len(fixed) != _TOOK.size:
        return False
    magic, status, offset, size, crc, limit = _TOOK.unpack(fixed)
    return (offset, size, crc, limit) if magic == _MAGIC and status == 0 else False


def _stop(child: subprocess.Popen[bytes] | None) -> None:
    if child is None:
        return
    if child.poll() is None:
        child.kill()
    child.wait()
    for stream in (child.stdin, child.stdout):
        if stream is not None:
            stream.close()


def _reply(stream: IO[bytes]) -> tuple[bytes, bytes, bool] | None:
    fixed = stream.read(_REPLY.size)
    if len(fixed) != _REPLY.size:
        return None
    magic, status, crc_ok, head_len, image_len = _REPLY.unpack(fixed)
    if magic != _MAGIC or status != 0 or head_len > _MAX_HEAD or image_len > _MAX_IMAGE:
        return None
    head = stream.read(head_len)
    image = stream.read(image_len)
    if len(head) != head_len or len(image) != image_len:
        return None
    return head, image, bool(crc_ok)


# ---- the child -------------------------------------------------------------------------------------------


def _member(request: dict[str, int | str]) -> tuple[Path, zipfile.ZipInfo, int] | None:
    archive = Path(str(request["archive"]))
    if "largest" in request:  # the largest PE member of at least that many bytes
        least = int(request["largest"])
        with zipfile.ZipFile(archive) as wheel:
            members = [
                i
                for i in wheel.infolist()
                if i.filename.lower().endswith(PE_SUFFIXES) and worthwhile(i, least)
            ]
        if not members:
            return None
        info = max(members, key=lambda i: (i.file_size, i.filename))
        return archive, info, largest_possible(info)
    info = zipfile.ZipInfo("member")
    info.header_offset = int(request["offset"])
    info.compress_size = int(request["compressed"])
    info.file_size = int(request["size"])
    info.CRC = int(request["crc"])
    info.compress_type = int(request["method"])
    info.flag_bits = int(request["flags"])
    return archive, info, int(request["limit"])


def _serve(source: BinaryIO, answer: BinaryIO) -> int:
    member = _member(json.loads(source.read(_REQUEST_MAX)))
    if member is None:
        answer.write(_TOOK.pack(_MAGIC, 1, 0, 0, 0, 0))
        return 0
    archive, info, limit = member
    answer.write(_TOOK.pack(_MAGIC, 0, info.header_offset, info.file_size, info.CRC, limit))
    answer.flush()
    with open_member(archive, info) as stream:
        recorded = _FirstRead(stream)
        _, image = read_compact(recorded, limit, lambda: open_member(archive, info))  # type: ignore[arg-type]
        crc_ok = isinstance(stream, MemberReader) and stream.crc_matches()
    answer.write(_REPLY.pack(_MAGIC, 0, crc_ok, len(recorded.first), len(image)))
    answer.write(recorded.first)
    answer.write(image)
    answer.flush()
    return 0


class _FirstRead:
    """The member's stream, keeping what its first ``read`` returned: the bytes the layout is read from."""

    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream
        self.first = b""
        self._fresh = True

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(size)
        if self._fresh:
            self.first, self._fresh = data, False
        return data

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


def main() -> None:
    """The child: answer the one request on stdin, then exit (1 on any failure: the parent reads it itself)."""
    try:
        code = _serve(sys.stdin.buffer, sys.stdout.buffer)
    except BaseException:  # the parent reads the member itself; nothing to tell here
        code = 1
    sys.exit(code)


if __name__ == "__main__":
    main()
