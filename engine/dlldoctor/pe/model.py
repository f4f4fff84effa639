"""PE facts: what a DLL, .pyd or .exe imports and exports, for which machine, built by which linker.

:func:`dlldoctor.pe.read.read_pe` builds a :class:`PEImage`; the two parser backends share
:func:`base_facts`, what the headers already read say.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from dlldoctor.pe.layout import Layout

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


def base_facts(layout: Layout) -> dict[str, object]:
    """The facts both parsers take from the headers dlldoctor has already read."""
    return {
        "machine": machine_name(layout.machine),
        "is_dll": bool(layout.characteristics & IMAGE_FILE_DLL),
        "linker_version": layout.linker_version,
    }
