"""Read a PE file's headers and keep only the byte ranges its tables live in.

A 300 MB DLL keeps its import, export, resource and load-config tables in a few sections; the code
(``.text``), CUDA fat binaries and relocations are never needed to decide whether it loads. The file is
read once, front to back (a zip member can only be read that way cheaply), and what comes out is a
*compact image*: the headers plus the needed sections, with the section table rewritten so that every
RVA still resolves. Any PE parser reads that image as it would read the whole file.

Structural defects are reported here, before a parser sees the bytes, as ``PEFormatError`` with a
``defect`` code from :data:`DEFECTS`.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import BinaryIO

from dlldoctor.errors import PEFormatError

DEFECTS = {
    "empty": "the file is empty (0 bytes)",
    "lfs-pointer": "the file is a Git LFS pointer, not the DLL itself",
    "not-pe": "the file does not start with the MZ signature of a Windows executable",
    "bad-pe-signature": "the PE signature is missing or out of place",
    "truncated": "the file is shorter than its own headers say (truncated download or copy)",
    "unparseable": "the PE tables cannot be parsed",
}

# Data directory indexes whose tables dlldoctor reads.
DIR_EXPORT, DIR_IMPORT, DIR_RESOURCE, DIR_LOAD_CONFIG, DIR_DELAY_IMPORT = 0, 1, 2, 10, 13
NEEDED_DIRECTORIES = (DIR_EXPORT, DIR_IMPORT, DIR_RESOURCE, DIR_LOAD_CONFIG, DIR_DELAY_IMPORT)

_HEAD = 4096
_SECTION_SIZE = 40
_LFS_MAGIC = b"version https://git-lfs"


class DefectError(PEFormatError):
    """A structural defect, with its code from :data:`DEFECTS`."""

    def __init__(self, defect: str, detail: str = "") -> None:
        self.defect = defect
        super().__init__(DEFECTS[defect] + (f" ({detail})" if detail else ""))


@dataclass(frozen=True)
class Section:
    name: str
    virtual_address: int
    virtual_size: int
    raw_size: int
    raw_offset: int
    header_offset: int  # where this section's 40-byte header sits in the file

    def contains_rva(self, rva: int) -> bool:
        span = max(self.virtual_size, self.raw_size)
        return self.virtual_address <= rva < self.virtual_address + span


@dataclass(frozen=True)
class Layout:
    machine: int
    characteristics: int
    linker_version: tuple[int, int]
    file_alignment: int
    size_of_headers: int
    directories: tuple[tuple[int, int], ...]  # (rva, size) per data directory
    sections: tuple[Section, ...]
    headers_end: int  # first byte after the section table


def _u16(data: bytes, at: int) -> int:
    return int(struct.unpack_from("<H", data, at)[0])


def _u32(data: bytes, at: int) -> int:
    return int(struct.unpack_from("<I", data, at)[0])


def read_layout(head: bytes, file_size: int) -> Layout:
    """Parse the DOS, COFF and optional headers and the section table from the file's first bytes."""
    if file_size == 0:
        raise DefectError("empty")
    if head.startswith(_LFS_MAGIC):
        raise DefectError("lfs-pointer")
    if head[:2] != b"MZ":
        raise DefectError("not-pe")
    if len(head) < 0x40:
        raise DefectError("truncated", "the DOS header is cut short")
    pe_at = _u32(head, 0x3C)
    if pe_at + 24 > file_size:
        raise DefectError("bad-pe-signature", f"it would start at offset {pe_at}, beyond the file's end")
    if pe_at + 24 > len(head):
        raise DefectError("bad-pe-signature", f"it would start at offset {pe_at}, which is implausible")
    if head[pe_at : pe_at + 4] != b"PE\0\0":
        raise DefectError("bad-pe-signature")
    coff = pe_at + 4
    machine, n_sections = _u16(head, coff), _u16(head, coff + 2)
    opt_size, characteristics = _u16(head, coff + 16), _u16(head, coff + 18)
    opt = coff + 20
    sections_at = opt + opt_size
    headers_end = sections_at + n_sections * _SECTION_SIZE
    if headers_end > file_size:
        raise DefectError("truncated", "the section table runs past the end of the file")
    if headers_end > len(head):
        raise DefectError("unparseable", f"{n_sections} sections do not fit in the headers")
    if opt_size < 2:
        raise DefectError("unparseable", "there is no optional header")
    magic = _u16(head, opt)
    if magic == 0x10B:
        count_at, dirs_at = opt + 92, opt + 96
    elif magic == 0x20B:
        count_at, dirs_at = opt + 108, opt + 112
    else:
        raise DefectError("unparseable", f"unknown optional header magic 0x{magic:x}")
    if count_at + 4 > sections_at:
        raise DefectError("unparseable", "the optional header is too short")
    n_dirs = min(_u32(head, count_at), 16, (sections_at - dirs_at) // 8)
    directories = tuple((_u32(head, dirs_at + 8 * i), _u32(head, dirs_at + 8 * i + 4)) for i in range(n_dirs))
    sections = tuple(_section(head, sections_at + i * _SECTION_SIZE) for i in range(n_sections))
    for section in sections:
        if section.raw_size and section.raw_offset + section.raw_size > file_size:
            raise DefectError(
                "truncated",
                f"section {section.name or '?'} ends at byte {section.raw_offset + section.raw_size}, "
                f"the file has {file_size}",
            )
    return Layout(
        machine=machine,
        characteristics=characteristics,
        linker_version=(head[opt + 2], head[opt + 3]),
        file_alignment=max(_u32(head, opt + 36), 1),
        size_of_headers=_u32(head, opt + 60),
        directories=directories,
        sections=sections,
        headers_end=headers_end,
    )


def _section(head: bytes, at: int) -> Section:
    name = head[at : at + 8].rstrip(b"\0").decode("ascii", "replace")
    return Section(
        name=name,
        virtual_size=_u32(head, at + 8),
        virtual_address=_u32(head, at + 12),
        raw_size=_u32(head, at + 16),
        raw_offset=_u32(head, at + 20),
        header_offset=at,
    )


def needed_sections(layout: Layout) -> tuple[Section, ...]:
    """Sections that hold any table dlldoctor reads, in file order."""
    wanted: list[Section] = []
    for index in NEEDED_DIRECTORIES:
        if index >= len(layout.directories):
            continue
        rva, size = layout.directories[index]
        if not (rva and size):
            continue
        wanted.extend(s for s in layout.sections if s.raw_size and s.contains_rva(rva))
    unique = {s.header_offset: s for s in wanted}
    return tuple(sorted(unique.values(), key=lambda s: s.raw_offset))


def _align(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def read_compact(stream: BinaryIO, file_size: int) -> tuple[Layout, bytes]:
    """Read ``stream`` front to back and return its layout and compact image.

    ``stream`` must be positioned at the start; it is read forward only, so a zip member is inflated
    once. Sections that hold no needed table are skipped (zip members still inflate them, unread).
    """
    head = stream.read(_HEAD)
    layout = read_layout(head, file_size)
    keep = needed_sections(layout)
    header_len = max(layout.headers_end, min(layout.size_of_headers, file_size))
    if header_len > len(head):
        head += stream.read(header_len - len(head))
    image = bytearray(head[:header_len])
    position = len(head)
    placed: dict[int, int] = {}
    alignment = layout.file_alignment if layout.file_alignment <= 0x10000 else 0x200
    for section in keep:
        target = _align(len(image), alignment)
        image.extend(b"\0" * (target - len(image)))
        start = section.raw_offset
        if start < position:
            # Overlaps what was already read (tiny files, sections inside the headers).
            already = head[start:position] if start < len(head) else b""
            chunk = already + stream.read(max(0, start + section.raw_size - position))
        else:
            stream.seek(start - position, 1) if stream.seekable() else _skip(stream, start - position)
            chunk = stream.read(section.raw_size)
        chunk = chunk[: section.raw_size]
        if len(chunk) < section.raw_size:
            raise DefectError("truncated", f"section {section.name} is cut short")
        position = max(position, start + section.raw_size)
        image.extend(chunk)
        placed[section.header_offset] = target
    for section in layout.sections:
        new_offset = placed.get(section.header_offset)
        if new_offset is None:
            struct.pack_into("<II", image, section.header_offset + 16, 0, 0)
        else:
            struct.pack_into("<I", image, section.header_offset + 20, new_offset)
    return layout, bytes(image)


def _skip(stream: BinaryIO, count: int) -> None:
    while count > 0:
        got = len(stream.read(min(count, 1 << 20)))
        if not got:
            return
        count -= got
