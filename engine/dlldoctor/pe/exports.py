"""The export table of a PE image, read directly from its bytes.

torch_cpu.dll exports 59,776 names; turning lief's export entries into Python objects one by one costs
more than everything else dlldoctor does with the file. The table is simple (IMAGE_EXPORT_DIRECTORY:
an address table, a name-pointer table and an ordinal table), so it is read here with ``struct`` and
one ``bytes.find`` per name. pefile, parsing the whole file, is the oracle the tests hold it against.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from itertools import accumulate

from dlldoctor.errors import PEFormatError
from dlldoctor.pe.layout import DIR_EXPORT, Layout, read_layout


@dataclass(frozen=True)
class Exports:
    dll_name: str | None
    names: frozenset[str]
    ordinals: frozenset[int]
    forwarders: tuple[tuple[str, str], ...]  # (name or "#ordinal", "library.function")


NONE = Exports(None, frozenset(), frozenset(), ())


class _Image:
    """RVA → bytes over a compact image, through its own (rewritten) section table."""

    def __init__(self, image: bytes, layout: Layout) -> None:
        self.image = image
        self.spans = [
            (s.virtual_address, s.virtual_address + s.raw_size, s.raw_offset)
            for s in layout.sections
            if s.raw_size
        ]
        self.header_end = layout.size_of_headers

    def offset(self, rva: int) -> int:
        for start, end, raw in self.spans:
            if start <= rva < end:
                return raw + rva - start
        if rva < self.header_end:
            return rva
        raise PEFormatError(f"export table points outside the file (RVA 0x{rva:x})")

    def string(self, rva: int) -> str:
        at = self.offset(rva)
        end = self.image.find(b"\0", at, at + 4096)
        if end < 0:
            raise PEFormatError(f"unterminated name in the export table (RVA 0x{rva:x})")
        return self.image[at:end].decode("utf-8", "replace")

    def strings(self, rvas: tuple[int, ...]) -> list[str]:
        """Many names at once. Linkers lay the name strings out back to back in the order of the
        name-pointer table; when they are, one split reads them all, else each is read alone."""
        if not rvas:
            return []
        first = self.offset(rvas[0])
        delta = first - rvas[0]
        last = rvas[-1] + delta
        end = self.image.find(b"\0", last, last + 4096)
        if end > 0:
            parts = self.image[first:end].split(b"\0")
            if len(parts) == len(rvas):
                starts = list(accumulate((len(p) + 1 for p in parts[:-1]), initial=rvas[0]))
                if starts == list(rvas):
                    return [p.decode("utf-8", "replace") for p in parts]
        return [self.string(rva) for rva in rvas]

    def array(self, rva: int, count: int, code: str) -> tuple[int, ...]:
        at = self.offset(rva)
        size = struct.calcsize(code) * count
        if at + size > len(self.image):
            raise PEFormatError("export table runs past the end of the file")
        return struct.unpack_from(f"<{count}{code}", self.image, at)


def read_exports(image: bytes) -> Exports:
    """Read the export directory of a compact (or whole) PE image."""
    layout = read_layout(image[:4096], len(image))
    if len(layout.directories) <= DIR_EXPORT:
        return NONE
    dir_rva, dir_size = layout.directories[DIR_EXPORT]
    if not dir_rva or not dir_size:
        return NONE
    pe = _Image(image, layout)
    at = pe.offset(dir_rva)
    if at + 40 > len(image):
        raise PEFormatError("the export directory is cut short")
    name_rva, base, n_functions, n_names, functions_rva, names_rva, ordinals_rva = struct.unpack_from(
        "<7I", image, at + 12
    )
    if n_functions > 1 << 20 or n_names > n_functions:
        raise PEFormatError(f"implausible export table ({n_functions} functions, {n_names} names)")
    functions = pe.array(functions_rva, n_functions, "I") if n_functions else ()
    name_rvas = pe.array(names_rva, n_names, "I") if n_names else ()
    name_indexes = pe.array(ordinals_rva, n_names, "H") if n_names else ()
    names = pe.strings(name_rvas)
    # Comprehensions, not a loop with branches: this runs 60,000 times for torch_cpu.dll.
    ordinals = {base + i for i, rva in enumerate(functions) if rva}
    ordinals.update(base + index for index in name_indexes if index < n_functions)
    end = dir_rva + dir_size
    forwarded = {i: rva for i, rva in enumerate(functions) if dir_rva <= rva < end}
    forwarders = []
    if forwarded:
        named = {index for index in name_indexes if index in forwarded}
        forwarders = [
            (name, pe.string(forwarded[index]))
            for name, index in zip(names, name_indexes, strict=True)
            if index in forwarded
        ]
        forwarders += [(f"#{base + i}", pe.string(rva)) for i, rva in forwarded.items() if i not in named]
    dll_name = pe.string(name_rva) if name_rva else None
    return Exports(dll_name or None, frozenset(names), frozenset(ordinals), tuple(sorted(forwarders)))
