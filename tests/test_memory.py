"""Reading a PE through the member reader holds the kept sections, never the whole file.

Peak memory of whole scans is measured by ``bench/memory.py`` (a child process per wheel); these tests
check the property that makes it small, with tracemalloc, which sees every Python allocation.
"""

from __future__ import annotations

import tracemalloc
import zipfile
from pathlib import Path

import pytest

from dlldoctor.install.zipmember import _OUT_CAP, MemberReader
from dlldoctor.pe.compact import read_compact

MB = 1 << 20


def peak_while(func) -> tuple[object, int]:  # type: ignore[no-untyped-def]
    tracemalloc.start()
    try:
        result = func()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_an_overlay_after_the_tables_is_never_inflated(pe_bin: Path, tmp_path: Path) -> None:
    """A DLL followed by 256 MB of data (a fat binary, an installer payload) costs nothing to read."""
    dll = (pe_bin / "x64" / "chain_a.dll").read_bytes()
    wheel = tmp_path / "overlay-1.0-py3-none-win_amd64.whl"
    with (
        zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("o/big.dll", "w") as member,
    ):
        member.write(dll)
        block = bytes(range(256)) * (MB // 256)
        for _ in range(256):
            member.write(block)
    info = zipfile.ZipFile(wheel).getinfo("o/big.dll")
    assert info.file_size > 256 * MB

    def read() -> bytes:
        with MemberReader(wheel, info) as stream:
            return read_compact(stream, info.file_size)[1]

    image, peak = peak_while(read)
    assert len(image) <= len(dll)  # type: ignore[arg-type]
    assert peak < 4 * MB


@pytest.mark.wheels
def test_torch_cpu_reads_in_a_few_times_its_kept_sections(torch_wheel: Path) -> None:
    """torch_cpu.dll: 305 MB, of which the 36 MB .rdata (+ headers, .rsrc) is kept; .text streams past."""
    info = zipfile.ZipFile(torch_wheel).getinfo("torch/lib/torch_cpu.dll")

    def read() -> bytes:
        with MemberReader(torch_wheel, info) as stream:
            return read_compact(stream, info.file_size)[1]

    image, peak = peak_while(read)
    kept = len(image)  # type: ignore[arg-type]
    assert 30 * MB < kept < 40 * MB
    # The pieces of a section, the section, the image being built and its final copy; plus one inflate step.
    assert peak < 4 * kept + 2 * _OUT_CAP
    assert peak < info.file_size / 2
