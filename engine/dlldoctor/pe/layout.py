"""A PE file's headers: the DOS, COFF and optional headers and the section table.

Structural defects are reported here, before a parser sees the bytes, as ``PEFormatError`` with a
``defect`` code from :data:`DEFECTS`. Every size the headers claim is checked against the real size of
the file before anything is read or allocated for it (:mod:`dlldoctor.pe.compact` reads the sections).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from dlldoctor.errors import PEFormatError

DEFECTS = {
    "empty": "the file is empty (0 bytes)",
    "lfs-pointer": "the file is a Git LFS pointer, not the DLL itself",
    "not-pe": "the file does not start with the MZ signature of a Windows executable",
    "bad-pe-signature": "the PE signature is missing or out of place",
    "truncated": "the file is shorter than its own headers say (truncated download or copy)",
    "unparseable": "the PE tables cannot be parsed",
    "bad-crc": "the wheel member's bytes do not match the CRC-32 the wheel records (a damaged download)",
}

# Data directory indexes whose tables dlldoctor reads.
DIR_EXPORT, DIR_IMPORT, DIR_RESOURCE, DIR_LOAD_CONFIG, DIR_DELAY_IMPORT = 0, 1, 2, 10, 13
NEEDED_DIRECTORIES = (DIR_EXPORT, DIR_IMPORT, DIR_RESOURCE, DIR_LOAD_CONFIG, DIR_DELAY_IMPORT)

HEAD = 4096  # bytes read first: the headers of every real PE fit
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
    pe32_plus: bool = True  # the optional header's magic is 0x20B (64-bit images)
    image_base: int = 0


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
        image_base = _u32(head, opt + 28) if opt + 32 <= len(head) else 0
    elif magic == 0x20B:
        count_at, dirs_at = opt + 108, opt + 112
        image_base = int(struct.unpack_from("<Q", head, opt + 24)[0]) if opt + 32 <= len(head) else 0
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
        pe32_plus=magic == 0x20B,
        image_base=image_base,
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
