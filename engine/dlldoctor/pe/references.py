"""Where a PE's import and export tables point: the RVAs they reach that the compact image lacks.

The directory of a table sits in one section, but what it points to may sit in others: delvewheel appends a
section for the import names it rewrites, and linkers are free to put hint/name entries, thunk arrays or
export names anywhere. :func:`missing_rvas` walks the import, delay-import and export tables through
``read`` (which answers ``None`` for bytes not held yet) and returns the RVAs it could not read, so that
the reader keeps their sections too. Every loop is bounded by the table's own counts and by caps.
"""

from __future__ import annotations

import struct
from collections.abc import Callable

# Bounds on what one table may claim, far above any real file (torch_cpu.dll: 59,776 exports).
MAX_DESCRIPTORS = 1 << 14
MAX_THUNKS = 1 << 20
MAX_EXPORTS = 1 << 22
MAX_NAME_SPAN = 1 << 24  # bytes: torch_cpu.dll's 59,776 export names take 3 MB

Read = Callable[[int, int], bytes | None]  # (rva, length) -> bytes, or None when not available


class _Walk:
    def __init__(self, read: Read, pe32_plus: bool, image_base: int) -> None:
        self.read = read
        self.width = 8 if pe32_plus else 4
        self.ordinal_flag = 1 << (63 if pe32_plus else 31)
        self.image_base = image_base
        self.missing: set[int] = set()
        self.thunks = 0

    def need(self, rva: int, length: int = 1) -> bytes | None:
        data = self.read(rva, length)
        if data is None:
            self.missing.add(rva)
        return data

    def thunk_array(self, rva: int, virtual: bool = False) -> None:
        """Walk an import lookup table: each entry is an ordinal or the RVA of a hint/name entry."""
        fmt = "<Q" if self.width == 8 else "<I"
        for index in range(MAX_THUNKS):
            self.thunks += 1
            if self.thunks > MAX_THUNKS:
                return
            data = self.need(rva + index * self.width, self.width)
            if data is None:
                return
            value = struct.unpack(fmt, data)[0]
            if value == 0:
                return
            if value & self.ordinal_flag:
                continue
            target = value & 0x7FFFFFFF
            if virtual:
                target = (value - self.image_base) & 0xFFFFFFFF
            self.need(target + 2)  # the name after the 2-byte hint

    def imports(self, rva: int, size: int) -> None:
        count = min(MAX_DESCRIPTORS, max(size // 20, 1) + 1)
        for index in range(count):
            data = self.need(rva + index * 20, 20)
            if data is None:
                return
            original, _stamp, _chain, name, first = struct.unpack("<IIIII", data)
            if not (original or name or first):
                return
            if name:
                self.need(name)
            if original or first:
                self.thunk_array(original or first)

    def delay_imports(self, rva: int, size: int) -> None:
        count = min(MAX_DESCRIPTORS, max(size // 32, 1) + 1)
        for index in range(count):
            data = self.need(rva + index * 32, 32)
            if data is None:
                return
            attributes, name, _handle, address_table, name_table = struct.unpack("<IIIII", data[:20])
            if not (name or address_table or name_table):
                return
            virtual = not attributes & 1  # Visual C++ 6 wrote virtual addresses, not RVAs
            if virtual:
                name = (name - self.image_base) & 0xFFFFFFFF if name else 0
                name_table = (name_table - self.image_base) & 0xFFFFFFFF if name_table else 0
            if name:
                self.need(name)
            if name_table:
                self.thunk_array(name_table, virtual=virtual)

    def exports(self, rva: int) -> None:
        data = self.need(rva, 40)
        if data is None:
            return
        name, _base, functions, names, function_table, name_table, ordinal_table = struct.unpack(
            "<IIIIIII", data[12:40]
        )
        if name:
            self.need(name)
        functions, names = min(functions, MAX_EXPORTS), min(names, MAX_EXPORTS)
        if functions and function_table:
            self.need(function_table, 4 * functions)
        if names and ordinal_table:
            self.need(ordinal_table, 2 * names)
        if not (names and name_table):
            return
        table = self.need(name_table, 4 * names)
        if table is None:
            return
        targets = sorted(set(struct.unpack(f"<{names}I", table)))
        # The names usually lie back to back in one section: when the whole span is held, each one is.
        # Only a span of plausible size is read whole (a section's bytes past its raw data read as zeros,
        # so a hostile span would be allocated as such).
        span = targets[-1] - targets[0] + 1
        if span <= MAX_NAME_SPAN and self.read(targets[0], span) is not None:
            return
        for target in targets:
            self.need(target)


def missing_rvas(
    read: Read,
    directories: tuple[tuple[int, int], ...],
    *,
    pe32_plus: bool,
    image_base: int,
) -> set[int]:
    """RVAs the import, delay-import and export tables reach that ``read`` cannot provide."""
    walk = _Walk(read, pe32_plus, image_base)

    def directory(index: int) -> tuple[int, int]:
        return directories[index] if index < len(directories) else (0, 0)

    export_rva, export_size = directory(0)
    import_rva, import_size = directory(1)
    delay_rva, delay_size = directory(13)
    if import_rva and import_size:
        walk.imports(import_rva, import_size)
    if delay_rva and delay_size:
        walk.delay_imports(delay_rva, delay_size)
    if export_rva and export_size:
        walk.exports(export_rva)
    return walk.missing
