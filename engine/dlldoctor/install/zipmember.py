"""Inflate one wheel member forward-only, as fast as the deflate stream allows.

``zipfile.ZipFile.open`` shares one file handle between its members (so two threads cannot inflate two
members at once), computes the CRC-32 of every byte it inflates and checks it only when the member is
read to its end, which ``read_compact`` does not do (it stops after the last table it needs). A
:class:`MemberReader` has its own file handle, inflates raw deflate data in large steps (the inflater
runs without the GIL, so another thread can parse meanwhile) and keeps the CRC-32 as it goes;
:meth:`MemberReader.crc_matches` inflates the rest and compares. It uses ``zlib_ng``
(a faster, API-compatible inflater) when that package is installed, the standard ``zlib`` otherwise
(or when ``DLLDOCTOR_INFLATER=zlib``).

Members that are not plain deflate or stored (encrypted, bzip2, lzma) are left to ``zipfile``: see
:func:`can_read`.
"""

from __future__ import annotations

import os
import struct
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType, TracebackType
from typing import BinaryIO

_IN_STEP = 1 << 21  # compressed bytes handed to the inflater per call (~2 MB in, ~7 MB out)
_OUT_CAP = 1 << 24  # most bytes one inflater call may produce (bounds memory on runs of zeros)
_LOCAL_HEADER = struct.Struct("<4s2B4HL2L2H")
_LOCAL_MAGIC = b"PK\x03\x04"
_ENCRYPTED = 0x1


def _inflater() -> ModuleType:
    if os.environ.get("DLLDOCTOR_INFLATER") == "zlib":  # the benchmarks compare both
        return zlib
    try:
        from zlib_ng import zlib_ng
    except ImportError:
        return zlib
    return zlib_ng


INFLATER = _inflater()
_CRC32 = INFLATER.crc32  # zlib-ng's runs at several GB/s, so checking every member costs little
INFLATER_NAME = "zlib-ng" if INFLATER is not zlib else "zlib"
# Both modules raise their own ``error`` type for a broken deflate stream.
INFLATE_ERRORS: tuple[type[Exception], ...] = tuple({zlib.error, INFLATER.error})


# Deflate turns one compressed byte into at most 1032 bytes (a 258-byte match per 2 bits, RFC 1951).
_DEFLATE_RATIO = 1032


def largest_possible(info: zipfile.ZipInfo) -> int:
    """The most bytes a member can inflate to: its claimed size, unless the compressed data cannot hold
    that much (zipfile, and so pip, accept a wrong claim; the bytes that come out are what installs)."""
    if info.compress_type == zipfile.ZIP_STORED:
        return min(info.file_size, info.compress_size)
    if info.compress_type == zipfile.ZIP_DEFLATED:
        return min(info.file_size, info.compress_size * _DEFLATE_RATIO + 64)
    return info.file_size


def can_read(info: zipfile.ZipInfo) -> bool:
    return (
        info.compress_type in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) and not info.flag_bits & _ENCRYPTED
    )


class MemberReader:
    """A forward-only binary stream over one member's uncompressed bytes (``read``, ``seek(n, 1)``)."""

    def __init__(
        self, archive: Path, info: zipfile.ZipInfo, on_bytes: Callable[[int], None] | None = None
    ) -> None:
        self._on_bytes = on_bytes  # told how many bytes each step inflated (a progress bar)
        self._file = archive.open("rb")
        try:
            self._file.seek(info.header_offset)
            header = self._file.read(_LOCAL_HEADER.size)
            if len(header) < _LOCAL_HEADER.size or header[:4] != _LOCAL_MAGIC:
                raise OSError("cannot read the zip member: its local header is missing or damaged")
            fields = _LOCAL_HEADER.unpack(header)
            self._file.seek(fields[10] + fields[11], 1)  # file name and extra field
        except BaseException:
            self._file.close()
            raise
        self._left = info.compress_size  # compressed bytes not yet read from the file
        self._stored = info.compress_type == zipfile.ZIP_STORED
        self._inflater = None if self._stored else INFLATER.decompressobj(-15)
        self._buffer = b""  # inflated bytes not yet returned
        self._tail = b""  # compressed bytes the inflater has not consumed yet (output cap reached)
        self._position = 0
        self._crc = 0  # CRC-32 of every byte inflated so far
        self._expected_crc = info.CRC
        self._size = info.file_size

    def __enter__(self) -> MemberReader:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self._file.close()
        self._buffer = self._tail = b""

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._position

    def _more(self, cap: int) -> bytes:
        """The next inflated bytes (at most ``cap``), or b"" at the end of the member's data."""
        out = self._inflate(cap)
        self._crc = _CRC32(out, self._crc)
        return out

    def crc_matches(self) -> bool:
        """Read the rest of the member (inflated, dropped) and compare its CRC-32 with the zip's."""
        self.seek(self._size)
        while self._more(_OUT_CAP):
            pass
        return self._crc == self._expected_crc

    def _inflate(self, cap: int) -> bytes:
        if self._stored:
            chunk = self._file.read(min(self._left, cap))
            self._left -= len(chunk)
            return chunk
        assert self._inflater is not None
        data = self._tail
        if not data and self._left:
            data = self._file.read(min(self._left, _IN_STEP))
            self._left -= len(data)
            if not data:
                self._left = 0
        if not data:
            return bytes(self._inflater.flush())
        out = bytes(self._inflater.decompress(data, cap))
        self._tail = self._inflater.unconsumed_tail
        if self._on_bytes is not None:
            self._on_bytes(len(out))
        if not out and not self._tail and not self._left:
            return bytes(self._inflater.flush())
        return out

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            size = 1 << 62
        pieces = []
        have = len(self._buffer)
        if have:
            pieces.append(self._buffer[:size])
            self._buffer = self._buffer[size:]
        need = size - len(pieces[0]) if pieces else size
        while need > 0:
            chunk = self._more(max(min(need, _OUT_CAP), 1 << 16))
            if not chunk:
                break
            if len(chunk) > need:
                self._buffer = chunk[need:]
                chunk = chunk[:need]
            pieces.append(chunk)
            need -= len(chunk)
        out = pieces[0] if len(pieces) == 1 else b"".join(pieces)
        self._position += len(out)
        return out

    def seek(self, offset: int, whence: int = 0) -> int:
        """Move forward only: skipped bytes are inflated and dropped, ``_OUT_CAP`` at a time."""
        target = offset if whence == 0 else self._position + offset
        if whence not in (0, 1) or target < self._position:
            raise OSError("a zip member stream only moves forward")
        skip = target - self._position
        if self._buffer:
            dropped = min(skip, len(self._buffer))
            self._buffer = self._buffer[dropped:]
            skip -= dropped
            self._position += dropped
        while skip > 0:
            chunk = self._more(_OUT_CAP)
            if not chunk:
                break
            if len(chunk) > skip:
                self._buffer = chunk[skip:]
                chunk = chunk[:skip]
            skip -= len(chunk)
            self._position += len(chunk)
        return self._position


def open_member(
    archive: Path, info: zipfile.ZipInfo, on_bytes: Callable[[int], None] | None = None
) -> BinaryIO:
    """A fresh reader for ``info`` with its own file handle (safe to use in any one thread)."""
    return MemberReader(archive, info, on_bytes)  # type: ignore[return-value]
