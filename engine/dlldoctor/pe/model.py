"""PE facts: what a DLL, .pyd or .exe imports and exports, for which machine, built by which linker.

``read_pe`` turns a stream into a :class:`PEImage`. lief is the parser; pefile (with its export limit
raised) takes over when lief rejects a file. Both read the compact image of :mod:`dlldoctor.pe.layout`,
never the whole file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import BinaryIO

from dlldoctor.errors import PEFormatError
from dlldoctor.pe.layout import DefectError, Layout, read_compact

MACHINES = {
    0x014C: "x86",
    0x8664: "x64",
    0xAA64: "arm64",
    0xA641: "arm64ec",
    0xA64E: "arm64x",
    0x01C4: "arm",
    0x0200: "ia64",
}

IMAGE_FILE_DLL = 0x2000


def machine_name(code: int) -> str:
    return MACHINES.get(code, f"unknown(0x{code:04x})")


@dataclass(frozen=True)
class Import:
    """What one PE takes from one DLL: names and ordinals, loaded at start-up or delayed."""

    dll: str
    names: tuple[str, ...] = ()
    ordinals: tuple[int, ...] = ()
    delayed: bool = False


@dataclass(frozen=True)
class PEImage:
    machine: str
    is_dll: bool
    size: int
    imports: tuple[Import, ...]
    delay_imports: tuple[Import, ...]
    export_name: str | None
    exports: frozenset[str]
    export_ordinals: frozenset[int]
    # (export name or "#ordinal", target as "library.function" or "library.#ordinal")
    forwarders: tuple[tuple[str, str], ...]
    linker_version: tuple[int, int]
    file_version: str | None = None
    product_name: str | None = None
    dependent_load_flags: int = 0
    parser: str = "lief"
    notes: tuple[str, ...] = field(default=())

    @cached_property
    def forwarder_map(self) -> dict[str, str]:
        return dict(self.forwarders)

    @property
    def linker(self) -> str:
        major, minor = self.linker_version
        return f"{major}.{minor:02d}"


def read_pe(stream: BinaryIO, size: int) -> PEImage:
    """Read PE facts from a stream positioned at the file's first byte.

    Raises ``DefectError`` (a ``PEFormatError``) with a defect code when the file is not a usable PE.
    """
    layout, image = read_compact(stream, size)
    try:
        from dlldoctor.pe import lief_backend as pe_lief

        return pe_lief.facts(image, layout, size)
    except PEFormatError as lief_error:
        from dlldoctor.pe import pefile_backend as pe_pefile

        try:
            return pe_pefile.facts(image, layout, size)
        except PEFormatError:
            raise DefectError("unparseable", str(lief_error)) from lief_error


def base_facts(layout: Layout) -> dict[str, object]:
    """The facts both parsers take from the headers dlldoctor has already read."""
    return {
        "machine": machine_name(layout.machine),
        "is_dll": bool(layout.characteristics & IMAGE_FILE_DLL),
        "linker_version": layout.linker_version,
    }
