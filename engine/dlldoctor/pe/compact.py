"""Read a PE file front to back and keep only the sections its tables live in: the *compact image*.

A 300 MB DLL keeps its import, export, resource and load-config tables in a few sections; the code
(``.text``), CUDA fat binaries and relocations are never needed to decide whether it loads. The file is
read once, front to back (a zip member can only be read that way cheaply), and what comes out is the
headers plus the needed sections, with the section table rewritten so that every RVA still resolves. Any
PE parser reads that image as it would read the whole file.

"Needed" is decided as the bytes arrive: the sections holding a table directory, then every section the
tables point into (:mod:`dlldoctor.pe.references`) — names delvewheel rewrote into a section of its own,
hint/name entries a linker put elsewhere. When a table points back into a section already passed, the
file is read a second time from the start (``reopen``), with that section kept.

Bounds: a section is read in pieces of at most :data:`PIECE` bytes, the headers are at most
:data:`MAX_HEADERS`, and the kept sections together at most :data:`MAX_KEPT` bytes, so a file whose
headers lie costs at most that much memory, whatever size it claims.
"""

from __future__ import annotations

import bisect
import struct
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import BinaryIO

from dlldoctor.pe.layout import (
    DIR_DELAY_IMPORT,
    DIR_EXPORT,
    DIR_IMPORT,
    DIR_RESOURCE,
    HEAD,
    NEEDED_DIRECTORIES,
    DefectError,
    Layout,
    Section,
    read_layout,
)
from dlldoctor.pe.references import missing_rvas

PIECE = 8 << 20
MAX_HEADERS = 16 << 20
MAX_KEPT = 512 << 20
MAX_RESOURCES = 64 << 20  # a larger resource section is left out: only its version block is read
MAX_PASSES = 4

Reopen = Callable[[], AbstractContextManager[BinaryIO]]
_TABLES = frozenset({DIR_IMPORT, DIR_DELAY_IMPORT, DIR_EXPORT})


def needed_sections(layout: Layout) -> tuple[Section, ...]:
    """Sections that hold a table directory dlldoctor reads, in file order."""
    wanted: list[Section] = []
    for index in NEEDED_DIRECTORIES:
        if index >= len(layout.directories):
            continue
        rva, size = layout.directories[index]
        if not (rva and size):
            continue
        for section in layout.sections:
            if section.raw_size and section.contains_rva(rva):
                if index == DIR_RESOURCE and section.raw_size > MAX_RESOURCES:
                    continue
                wanted.append(section)
    unique = {s.header_offset: s for s in wanted}
    return tuple(sorted(unique.values(), key=lambda s: s.raw_offset))


def _table_sections(layout: Layout) -> frozenset[int]:
    """Header offsets of the sections holding the import, delay-import or export directory."""
    found: set[int] = set()
    for index in _TABLES:
        if index < len(layout.directories):
            rva, size = layout.directories[index]
            if rva and size:
                found.update(s.header_offset for s in layout.sections if s.contains_rva(rva))
    return frozenset(found)


class _Held:
    """The bytes read so far that are kept: the headers and whole sections, by file offset and by RVA."""

    def __init__(self, layout: Layout, head: bytes) -> None:
        self.layout = layout
        self.head = head
        self.sections: dict[int, bytes] = {}  # header offset -> raw bytes
        # (start rva, end rva, header offset, section), sorted; the header offset is unique, so two
        # sections with the same span (a hostile file's) never compare Section objects
        self._by_rva: list[tuple[int, int, int, Section]] = []
        self.size = len(head)

    def add(self, section: Section, data: bytes) -> None:
        self.sections[section.header_offset] = data
        span = max(section.virtual_size, section.raw_size)
        start = section.virtual_address
        bisect.insort(self._by_rva, (start, start + span, section.header_offset, section))
        self.size += len(data)

    def file_bytes(self, start: int, end: int) -> bytes | None:
        """Bytes [start, end) of the file, if the headers or one kept section hold all of them."""
        if end <= len(self.head):
            return self.head[start:end]
        for offset, data in self.sections.items():
            section = self._section(offset)
            if section.raw_offset <= start and end <= section.raw_offset + len(data):
                return data[start - section.raw_offset : end - section.raw_offset]
        return None

    def _section(self, header_offset: int) -> Section:
        return next(s for s in self.layout.sections if s.header_offset == header_offset)

    def read_rva(self, rva: int, length: int) -> bytes | None:
        """What an RVA holds once loaded, if its section is kept (bytes past the raw data are zeros)."""
        if rva < self.layout.headers_end and rva + length <= len(self.head):
            return self.head[rva : rva + length]
        index = bisect.bisect_right(self._by_rva, (rva, 1 << 40)) - 1
        if index < 0:
            return None
        start, end, _, section = self._by_rva[index]
        if not (start <= rva and rva + length <= end):
            return None
        data = self.sections[section.header_offset]
        at = rva - start
        chunk = data[at : at + length]
        return chunk + b"\0" * (length - len(chunk))


def _section_of(layout: Layout, rva: int) -> Section | None:
    return next((s for s in layout.sections if s.raw_size and s.contains_rva(rva)), None)


def _read_exact(stream: BinaryIO, count: int) -> bytes:
    parts, left = [], count
    while left > 0:
        piece = stream.read(min(left, PIECE))
        if not piece:
            break
        parts.append(piece)
        left -= len(piece)
    return b"".join(parts)


def _skip(stream: BinaryIO, count: int) -> None:
    if count <= 0:
        return
    if stream.seekable():
        stream.seek(count, 1)
        return
    while count > 0:
        got = len(stream.read(min(count, 1 << 20)))
        if not got:
            return
        count -= got


class _Pass:
    """One front-to-back read of the file, keeping ``keep`` and whatever the tables turn out to need."""

    def __init__(self, layout: Layout, head: bytes, keep: set[int]) -> None:
        self.layout = layout
        self.held = _Held(layout, head)
        self.keep = set(keep)
        self.late: set[int] = set()  # needed, but only found out after the stream had passed them
        self.discovered: set[int] = set()  # kept because a table points into them
        self.tables = _table_sections(layout)

    def run(self, stream: BinaryIO, position: int) -> None:
        done: set[int] = set()
        while True:
            pending = [
                s
                for s in self.layout.sections
                if s.header_offset in self.keep and s.header_offset not in done and s.raw_size
            ]
            if not pending:
                return
            section = min(pending, key=lambda s: (s.raw_offset, s.header_offset))
            done.add(section.header_offset)
            start, end = section.raw_offset, section.raw_offset + section.raw_size
            if self.held.size + section.raw_size > MAX_KEPT:
                raise DefectError("unparseable", f"its tables would need more than {MAX_KEPT >> 20} MB")
            if start < position:
                prefix = self.held.file_bytes(start, min(end, position))
                if prefix is None:
                    self.late.add(section.header_offset)
                    continue
                data = prefix + (_read_exact(stream, end - position) if end > position else b"")
            else:
                _skip(stream, start - position)
                data = _read_exact(stream, end - start)
            position = max(position, end)
            if len(data) < section.raw_size:
                raise DefectError("truncated", f"section {section.name or '?'} is cut short")
            self.held.add(section, data)
            if section.header_offset in self.tables or section.header_offset in self.discovered:
                self._discover(position)

    def _discover(self, position: int) -> None:
        layout = self.layout
        rvas = missing_rvas(
            self.held.read_rva, layout.directories, pe32_plus=layout.pe32_plus, image_base=layout.image_base
        )
        found = set()
        for rva in rvas:
            section = _section_of(layout, rva)
            if section is None or section.header_offset in self.keep:
                continue
            found.add(section.header_offset)
            if section.raw_offset < position:
                self.late.add(section.header_offset)
        self.keep |= found
        self.discovered |= found


def read_compact(stream: BinaryIO, file_size: int, reopen: Reopen | None = None) -> tuple[Layout, bytes]:
    """Read ``stream`` (at its start) front to back; return its layout and compact image.

    ``reopen`` opens the same bytes again from the start, for the rare file whose tables point back into
    a section already passed; without it such a file is reported ``unparseable`` rather than misread.
    """
    head = stream.read(HEAD)
    layout = read_layout(head, file_size)
    header_len = max(layout.headers_end, min(layout.size_of_headers, file_size))
    if header_len > MAX_HEADERS:
        raise DefectError("unparseable", f"its headers claim {header_len} bytes")
    if header_len > len(head):
        head += _read_exact(stream, header_len - len(head))
    if len(head) < min(header_len, file_size):
        raise DefectError("truncated", "the headers are cut short")
    keep = {s.header_offset for s in needed_sections(layout)}
    current = _Pass(layout, head, keep)
    current.run(stream, len(head))
    passes = 1
    while current.late:
        if reopen is None or passes >= MAX_PASSES:
            raise DefectError(
                "unparseable", "its import or export tables point into sections read before them"
            )
        keep = current.keep | current.late
        with reopen() as again:
            again_head = _read_exact(again, len(head))
            current = _Pass(layout, again_head, keep)
            current.run(again, len(again_head))
        passes += 1
    return layout, _image(layout, head[:header_len], current.held)


def _align(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def _image(layout: Layout, head: bytes, held: _Held) -> bytes:
    """The headers, then each kept section at an aligned offset; the section table says where."""
    header_len = len(head)
    image = bytearray(head)
    alignment = layout.file_alignment if layout.file_alignment <= 0x10000 else 0x200
    placed: dict[int, int] = {}
    for section in sorted(layout.sections, key=lambda s: (s.raw_offset, s.header_offset)):
        data = held.sections.get(section.header_offset)
        if data is None:
            continue
        target = _align(max(len(image), header_len), alignment)
        image.extend(b"\0" * (target - len(image)))
        image.extend(data)
        placed[section.header_offset] = target
    for section in layout.sections:
        new_offset = placed.get(section.header_offset)
        if new_offset is None:
            struct.pack_into("<II", image, section.header_offset + 16, 0, 0)
        else:
            struct.pack_into("<I", image, section.header_offset + 20, new_offset)
    return bytes(image)
