"""The direct export-table reader against pefile (the oracle), and on damaged tables."""

from __future__ import annotations

import io
import struct
from pathlib import Path

import pytest

from dlldoctor.errors import PEFormatError
from dlldoctor.pe import pefile_backend as pe_pefile
from dlldoctor.pe.compact import read_compact
from dlldoctor.pe.exports import read_exports
from dlldoctor.pe.layout import DIR_EXPORT, read_layout

FIXTURES = ["chain_c.dll", "forwarder.dll", "versioned.dll", "pymod.cp311-win_amd64.pyd", "app.exe"]


@pytest.mark.parametrize("name", FIXTURES)
def test_same_as_pefile_on_the_fixtures(pe_bin: Path, name: str) -> None:
    data = (pe_bin / "x64" / name).read_bytes()
    _, image = read_compact(io.BytesIO(data), len(data))
    ours = read_exports(image)
    oracle = pe_pefile.facts_of_whole_file(data)
    assert (ours.dll_name, ours.names, ours.ordinals, ours.forwarders) == (
        oracle.export_name,
        oracle.exports,
        oracle.export_ordinals,
        oracle.forwarders,
    )


def test_forwarders_are_read(pe_bin: Path) -> None:
    exports = read_exports((pe_bin / "x64" / "forwarder.dll").read_bytes())
    assert exports.forwarders == (("fwd_func", "chain_c.c_func"), ("fwd_missing", "chain_c.nope"))


def test_implausible_table_is_a_format_error(pe_bin: Path) -> None:
    data = bytearray((pe_bin / "x64" / "chain_c.dll").read_bytes())
    layout = read_layout(bytes(data[:4096]), len(data))
    rva = layout.directories[DIR_EXPORT][0]
    section = next(s for s in layout.sections if s.contains_rva(rva))
    at = section.raw_offset + rva - section.virtual_address
    struct.pack_into("<I", data, at + 24, 0xFFFFFF)  # NumberOfNames
    with pytest.raises(PEFormatError):
        read_exports(bytes(data))
